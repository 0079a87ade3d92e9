// Real devices' table is a module of its own so that pencil-bench can use it without the
// test harness; every test gets it with the harness.
@_exported import PencilTestDevices
