import Testing
import PencilProtocol
@testable import Varlink

@Suite("NUL framing")
struct FramingTests {
    private func text(_ slice: ArraySlice<UInt8>?) -> String? {
        slice.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("a message split over several reads comes out whole once its NUL arrives")
    func partialMessage() throws {
        var framer = MessageFramer(maximumMessageSize: 1024)
        let message = Array(#"{"method":"org.varlink.service.GetInfo"}"#.utf8) + [0]
        for byte in message.dropLast() {
            framer.append(contentsOf: [byte])
            #expect(try framer.nextMessage() == nil)
            #expect(framer.hasPartialMessage)
        }
        framer.append(contentsOf: [0])
        #expect(text(try framer.nextMessage()) == #"{"method":"org.varlink.service.GetInfo"}"#)
        #expect(!framer.hasPartialMessage)
        #expect(try framer.nextMessage() == nil)
    }

    @Test("several messages in one read come out one by one, in order")
    func severalInOneRead() throws {
        var framer = MessageFramer(maximumMessageSize: 1024)
        framer.append(contentsOf: Array("{\"a\":1}\0{\"b\":2}\0{\"c\"".utf8))
        #expect(text(try framer.nextMessage()) == #"{"a":1}"#)
        #expect(text(try framer.nextMessage()) == #"{"b":2}"#)
        #expect(try framer.nextMessage() == nil)
        #expect(framer.bufferedByteCount == 4)
        framer.append(contentsOf: Array(":3}\0".utf8))
        #expect(text(try framer.nextMessage()) == #"{"c":3}"#)
    }

    @Test("a lone NUL is an empty message, for the caller to refuse")
    func loneNul() throws {
        var framer = MessageFramer(maximumMessageSize: 16)
        framer.append(contentsOf: [0])
        #expect(try framer.nextMessage()?.isEmpty == true)
    }

    @Test("a message longer than the limit is refused before its NUL arrives")
    func oversizeWithoutNul() throws {
        var framer = MessageFramer(maximumMessageSize: 64)
        framer.append(contentsOf: [UInt8](repeating: UInt8(ascii: " "), count: 64))
        #expect(try framer.nextMessage() == nil)
        framer.append(contentsOf: [UInt8(ascii: " ")])
        #expect(throws: FramingError.messageTooLarge(limit: 64)) { try framer.nextMessage() }
    }

    @Test("a message longer than the limit is refused when it arrives whole")
    func oversizeWhole() throws {
        var framer = MessageFramer(maximumMessageSize: 8)
        framer.append(contentsOf: Array("{\"ok\":1}\0{\"too\":\"long\"}\0".utf8))
        #expect(text(try framer.nextMessage()) == #"{"ok":1}"#)
        #expect(throws: FramingError.messageTooLarge(limit: 8)) { try framer.nextMessage() }
    }

    @Test("a long stream of small messages keeps the buffer small")
    func compaction() throws {
        var framer = MessageFramer(maximumMessageSize: 64)
        for index in 0..<10_000 {
            framer.append(contentsOf: Array("{\"n\":\(index)}\0".utf8))
            #expect(text(try framer.nextMessage()) == "{\"n\":\(index)}")
        }
        #expect(framer.bufferedByteCount == 0)
    }
}
