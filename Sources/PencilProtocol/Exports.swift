// The protocol's types are written and read as JSON: every user of the protocol gets the
// JSON module with it.
@_exported import JSON
