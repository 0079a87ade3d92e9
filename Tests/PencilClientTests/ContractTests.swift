import PencilProtocol
import PencilTestSupport
import Testing
@testable import PencilClient

/// The contract's close-out cases (tests/contract, docs/protocol.md "When pencild goes
/// away"), run on the client's decoding and `OpenState`, as the C and Python libraries run them.
@Suite("The contract's close-out cases")
struct ContractTests {
    static func canonical(_ event: PencilEvent) -> JSONValue {
        ContractCase.canonical(type: event.type.rawValue, time: event.time, device: event.device,
                               tool: event.tool.map { ($0.type.rawValue, $0.serial, $0.id) }, pose: event.pose,
                               button: event.button?.rawValue, phase: event.phase?.rawValue,
                               action: event.action?.rawValue, focus: event.focus?.rawValue)
    }

    /// What differs from the case: empty when it passes.
    static func differences(_ test: ContractCase) -> [String] {
        var problems: [String] = []
        var state = OpenState()
        // A refused line ends the stream: the lines after it are decoded, not followed.
        var ended = false
        for (index, line) in test.stream.enumerated() {
            let event = try? PencilEvent(json: line)
            let got = event.map(Self.canonical) ?? ContractCase.rejected
            let expected = index < test.decoded.count ? test.decoded[index] : ContractCase.rejected
            if got != expected { problems.append("line \(index): decoded \(got), expected \(expected)") }
            ended = ended || event == nil
            if !ended, let event { state.observe(event) }
        }
        let closing = state.closeAll()
        if !closing.allSatisfy(\.isSynthesized) { problems.append("a closing event is not marked synthesized") }
        let got = closing.map(Self.canonical)
        if got != test.closing { problems.append("closing \(got), expected \(test.closing)") }
        return problems
    }

    @Test("every case", arguments: try ContractCase.load())
    func everyCase(_ test: ContractCase) {
        #expect(Self.differences(test) == [], "\(test.name)")
    }

    @Test("the cases are there, and a wrong expectation fails")
    func positiveControl() throws {
        let cases = try ContractCase.load()
        #expect(cases.count > 10)
        var test = try #require(cases.first { $0.name.hasPrefix("drawing") })
        #expect(Self.differences(test) == [])
        test.closing.swapAt(1, 2)
        #expect(!Self.differences(test).isEmpty, "the buttons' order")
        test.closing.swapAt(1, 2)
        test.decoded[0] = ContractCase.rejected
        #expect(!Self.differences(test).isEmpty, "a decoded value")
    }

    @Test("the daemon is asked for what the close-out needs, as the C and Python libraries ask")
    func subscription() {
        #expect(EventSubscription.subscription(for: [.tipUp]) == ["proximityIn", "proximityOut", "tipDown", "tipUp"])
        #expect(EventSubscription.subscription(for: [.deviceRemoved]) == ["deviceAdded", "deviceRemoved"])
        #expect(EventSubscription.subscription(for: [.motion, .doubleTap]) == ["doubleTap", "motion"], "nothing to close")
    }
}

extension ContractCase: CustomTestStringConvertible {
    public var testDescription: String { name }
}
