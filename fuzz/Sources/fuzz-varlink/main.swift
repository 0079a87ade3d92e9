// Fuzzes what a varlink peer sends: bytes arriving in pieces of any size go through the
// framer, each whole message is read as a call (the daemon's side) and as a reply (the
// client's side).
//
// Input layout: 1 byte of limit (the largest message, 1...256 bytes, so that the limit is
// hit), 1 byte of piece size (1...64), then the stream.
//
// Findings: a crash, and
//   - the framer handing out anything but the stream's NUL-separated messages, in order;
//   - the framer refusing a stream whose messages are all within the limit, or accepting
//     one that is not;
//   - a call that parses not surviving its own encoding.
import FuzzSupport
import PencilProtocol
import Varlink

runFuzzer { bytes in
    var input = FuzzInput(bytes)
    let limit = Int(input.byte()) + 1
    let pieceSize = Int(input.byte() % 64) + 1
    let stream = input.rest()

    // The reference: the complete messages and whether any (or the unfinished tail) is too long.
    var expected: [ArraySlice<UInt8>] = []
    let all = Array(stream)
    var start = 0
    var firstTooLong: Int?
    for (index, byte) in all.enumerated() where byte == 0 {
        if index - start > limit, firstTooLong == nil { firstTooLong = expected.count }
        expected.append(all[start..<index])
        start = index + 1
    }
    let tailTooLong = all.count - start > limit

    var framer = MessageFramer(maximumMessageSize: limit)
    var received: [ArraySlice<UInt8>] = []
    var refused = false
    var offset = 0
    feeding: while offset < all.count {
        let end = min(offset + pieceSize, all.count)
        framer.append(contentsOf: all[offset..<end])
        offset = end
        while true {
            do {
                guard let message = try framer.nextMessage() else { break }
                received.append(message)
            } catch {
                refused = true
                break feeding
            }
        }
    }

    if let firstTooLong {
        check(refused, "a message longer than the limit was accepted")
        check(received.count <= firstTooLong, "messages after a too-long one were handed out")
    } else if !refused {
        check(received.count == expected.count, "\(received.count) messages handed out, \(expected.count) sent")
        check(!tailTooLong || framer.bufferedByteCount <= limit, "an unfinished message beyond the limit is held")
    } else {
        check(tailTooLong, "a stream within the limit was refused")
    }
    for (index, message) in received.enumerated() {
        check(message.elementsEqual(expected[index]), "message \(index) differs from what was sent")
        check(message.count <= limit, "a message longer than the limit was handed out")
        checkMessage(message)
    }
}

func checkMessage(_ message: ArraySlice<UInt8>) {
    if let call = try? VarlinkCall.parse(message) {
        var encoded = call.encoded
        check(encoded.last == 0, "an encoded call does not end with NUL")
        encoded.removeLast()
        guard let again = try? VarlinkCall.parse(encoded) else {
            fatalError("a call's own encoding does not parse: \(String(decoding: encoded, as: UTF8.self))")
        }
        check(again.method == call.method && again.parameters == call.parameters && again.more == call.more
              && again.oneway == call.oneway && again.upgrade == call.upgrade, "a call changed in an encode/parse round trip")
        _ = call.interface
        _ = call.methodName
    }
    if let value = try? JSONReader.parse(message) {
        _ = try? VarlinkReply(json: value)
    }
}
