import Foundation
import GestureRecognizer
import PencilInput
import PencilProtocol
import Testing

/// The real recordings (PENCILD_RECORDINGS, a directory holding them), with default
/// preferences, by the contract: what a person did on real hardware gives the gestures the
/// contract promises.
enum Recordings {
    static let directory: String? = {
        guard let path = ProcessInfo.processInfo.environment["PENCILD_RECORDINGS"], !path.isEmpty else { return nil }
        return path
    }()

    static func available(_ file: String) -> Bool {
        guard let directory else {
            print("note: PENCILD_RECORDINGS is not set; the real-recording gesture tests are skipped")
            return false
        }
        guard FileManager.default.isReadableFile(atPath: directory + "/" + file) else {
            print("note: \(file) is not in PENCILD_RECORDINGS (\(directory)); its gesture test is skipped")
            return false
        }
        return true
    }

    static func events(_ file: String) throws -> [Event] {
        let recording = try MinimalEvemu.load(path: (directory ?? "") + "/" + file)
        return try PenPipeline.events(of: recording.events, description: recording.description)
    }
}

/// A stopgap evemu reader (header and `E:` lines only) until PencilInput's lands.
enum MinimalEvemu {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func load(path: String) throws -> (description: DeviceDescription, events: [InputEvent]) {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var description = DeviceDescription(name: "")
        var bits: [UInt16: [UInt8]] = [:]
        var events: [InputEvent] = []
        for (index, line) in text.split(separator: "\n").enumerated() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let tag = fields.first else { continue }
            switch tag {
            case "N:": description.name = fields.dropFirst().joined(separator: " ")
            case "B:":
                guard fields.count >= 2, let type = UInt16(fields[1], radix: 16) else { throw Failure(description: "\(path):\(index + 1): bad B: line") }
                bits[type, default: []] += fields.dropFirst(2).compactMap { UInt8($0, radix: 16) }
            case "A:":
                let numbers = fields.dropFirst().prefix(6)
                guard numbers.count >= 5, let code = UInt16(numbers.first!, radix: 16) else { throw Failure(description: "\(path):\(index + 1): bad A: line") }
                let values = numbers.dropFirst().compactMap { Int32($0) }
                description.enableAbs(code, AbsInfo(minimum: values[0], maximum: values[1], fuzz: values[2], flat: values[3],
                                                    resolution: values.count > 4 ? values[4] : 0))
            case "E:":
                guard fields.count >= 5 else { throw Failure(description: "\(path):\(index + 1): bad E: line") }
                let time = fields[1].split(separator: ".")
                guard time.count == 2, let seconds = Int64(time[0]), let micros = Int64(time[1]),
                      let type = UInt16(fields[2], radix: 16), let code = UInt16(fields[3], radix: 16), let value = Int32(fields[4]) else {
                    throw Failure(description: "\(path):\(index + 1): bad E: line")
                }
                events.append(InputEvent(time: seconds * 1_000_000 + micros, type: type, code: code, value: value))
            default:
                continue
            }
        }
        for (type, bytes) in bits where type != EventCode.EV_SYN && type != EventCode.EV_ABS {
            for (offset, byte) in bytes.enumerated() {
                for bit in 0..<8 where byte & (1 << bit) != 0 {
                    description.enable(type: type, code: UInt16(offset * 8 + bit))
                }
            }
        }
        return (description, events)
    }
}

@Suite struct RecordingTests {
    @Test(.enabled(if: Recordings.available("Wacom Cintiq 22HDT Pen.events")))
    func theCintiqRecordingHasOneDoubleTapAndSevenSqueezes() throws {
        let events = try Recordings.events("Wacom Cintiq 22HDT Pen.events")
        let doubleTaps = events.filter { $0.type == .doubleTap }
        let squeezes = events.filter { $0.type == .squeeze }
        #expect(doubleTaps.count == 1)
        #expect(doubleTaps.allSatisfy { $0.action == .switchEraser })
        #expect(squeezes.filter { $0.phase == .began }.count == 7)
        #expect(squeezes.filter { $0.phase == .ended }.count == 7)
        #expect(squeezes.filter { $0.phase == .cancelled }.count == 0)
        #expect(squeezes.filter { $0.phase == .ended }.allSatisfy { $0.action == .showContextualPalette })
    }

    @Test(.enabled(if: Recordings.available("dell_canvas_pen.evemu")))
    func theDellCanvasRecordingHasOneSqueezeAndNoDoubleTap() throws {
        let events = try Recordings.events("dell_canvas_pen.evemu")
        #expect(events.filter { $0.type == .doubleTap }.count == 0)
        #expect(events.filter { $0.type == .squeeze && $0.phase == .began }.count == 1)
        #expect(events.filter { $0.type == .squeeze && $0.phase == .ended }.count == 1)
    }
}
