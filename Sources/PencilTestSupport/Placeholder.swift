// Devices and pen scripts for tests.
