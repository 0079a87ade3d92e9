import GestureRecognizer
import PencilInput
import PencilProtocol
import PencilTestSupport
import Testing

/// The contract's close-out cases that the daemon can play (tests/contract, the lines with
/// `evdev`): the whole pipeline of one device (tracker and recogniser, default preferences)
/// reports the case's stream, and its close-out when the device goes away (docs/gestures.md,
/// "When a device goes away") is the closing events every client library makes up.
@Suite("The contract's close-out cases, on the daemon's pipeline")
struct ContractCloseOutTests {
    /// The cases' test pen (tests/contract/README.md).
    static let device: DeviceDescription = {
        var d = DeviceDescription(name: "Contract Pen", bus: 3, vendor: 0x56a, product: 0x1)
        d.enableAbs(EventCode.ABS_X, AbsInfo(minimum: 0, maximum: 1000))
        d.enableAbs(EventCode.ABS_Y, AbsInfo(minimum: 0, maximum: 1000))
        d.enableAbs(EventCode.ABS_PRESSURE, AbsInfo(minimum: 0, maximum: 1000))
        for key in [EventCode.BTN_TOOL_PEN, EventCode.BTN_TOOL_RUBBER, EventCode.BTN_TOUCH, EventCode.BTN_STYLUS, EventCode.BTN_STYLUS2] {
            d.enable(type: EventCode.EV_KEY, code: key)
        }
        return d
    }()

    /// The names the cases use; any other is an error in the case.
    static let codes: [String: UInt16] = [
        "EV_KEY": EventCode.EV_KEY, "EV_ABS": EventCode.EV_ABS,
        "BTN_TOOL_PEN": EventCode.BTN_TOOL_PEN, "BTN_TOOL_RUBBER": EventCode.BTN_TOOL_RUBBER,
        "BTN_TOUCH": EventCode.BTN_TOUCH, "BTN_STYLUS": EventCode.BTN_STYLUS, "BTN_STYLUS2": EventCode.BTN_STYLUS2,
        "ABS_X": EventCode.ABS_X, "ABS_Y": EventCode.ABS_Y, "ABS_PRESSURE": EventCode.ABS_PRESSURE,
    ]

    static func canonical(_ event: Event) -> JSONValue {
        let value = ContractCase.canonical(type: event.type.rawValue, time: event.time, device: event.device,
                                           tool: event.tool.map { ($0.type.rawValue, $0.serial, $0.id) }, pose: event.pose,
                                           button: event.button?.rawValue, phase: event.phase?.rawValue,
                                           action: event.action?.rawValue, focus: event.focus?.rawValue)
        return ContractCase.removing("focus", from: value)
    }

    /// The pipeline's events for the frames: before the device goes, and its close-out.
    static func play(_ frames: [JSONValue]) throws -> (stream: [Event], closing: [Event]) {
        var pipeline = try GesturePipeline(description: device, id: "event7")
        var stream: [Event] = []
        for (index, frame) in frames.enumerated() {
            let parts = try #require(frame.arrayValue)
            let time = try #require(parts.first?.intValue) * 1000
            if index == 0 { pipeline.start(at: time, into: &stream) }
            pipeline.advance(to: time, into: &stream)
            for raw in parts.last?.arrayValue ?? [] {
                let members = try #require(raw.arrayValue)
                let type = try #require(members[0].stringValue.flatMap { codes[$0] }, "\(members[0])")
                let code = try #require(members[1].stringValue.flatMap { codes[$0] }, "\(members[1])")
                let value = try #require(members[2].intValue)
                pipeline.feed(InputEvent(time: time, type: type, code: code, value: Int32(value)), into: &stream)
            }
            pipeline.feed(InputEvent(time: time, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0), into: &stream)
        }
        var closing: [Event] = []
        pipeline.finish(into: &closing)
        return (stream, closing)
    }

    static let playable: [ContractCase] = ((try? ContractCase.load()) ?? []).filter { $0.evdev != nil }

    @Test("every case the daemon can play", arguments: playable)
    func everyCase(_ test: ContractCase) throws {
        let (stream, closing) = try Self.play(test.evdev ?? [])
        #expect(stream.map(Self.canonical) == test.stream.map { ContractCase.removing("focus", from: ContractCase.comparedPart($0)) },
                "\(test.name)")
        #expect(closing.map(Self.canonical) == test.closing.map { ContractCase.removing("focus", from: $0) }, "\(test.name)")
    }

    @Test("there are such cases, and a wrong expectation fails")
    func positiveControl() throws {
        #expect(Self.playable.count >= 3)
        let test = try #require(Self.playable.first { $0.name.hasPrefix("drawing") })
        let (_, closing) = try Self.play(test.evdev ?? [])
        var expected = test.closing.map { ContractCase.removing("focus", from: $0) }
        #expect(closing.map(Self.canonical) == expected)
        expected.swapAt(1, 2)
        #expect(closing.map(Self.canonical) != expected, "the buttons' order")
        #expect(closing.first?.type == .tipUp && closing.first?.pose?.pressure == 0)
    }
}

extension ContractCase: CustomTestStringConvertible {
    public var testDescription: String { name }
}
