import Foundation
import PencilInput
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
import Varlink

/// The event objects of a Monitor stream up to and including the device's deviceRemoved.
func monitorEvents(_ stream: inout VarlinkClient.ReplyStream, until device: String = "replay0") throws -> [JSONValue] {
    var events: [JSONValue] = []
    while let parameters = try stream.next() {
        let event = try #require(parameters["event"])
        events.append(event)
        if event["type"] == .string("deviceRemoved"), event["device"] == .string(device) { break }
    }
    return events
}

/// Where two event lists first differ, for a readable failure.
func firstDifference(_ left: [JSONValue], _ right: [JSONValue]) -> String? {
    for index in 0..<min(left.count, right.count) where left[index] != right[index] {
        return "event \(index): \(left[index].jsonText) vs \(right[index].jsonText)"
    }
    if left.count != right.count { return "\(left.count) events vs \(right.count)" }
    return nil
}

/// The event types of a list, for summaries.
func types(_ events: [JSONValue]) -> [String] { events.compactMap { $0["type"]?.stringValue } }
