@testable import GestureRecognizer
import PencilInput
import PencilProtocol
import PencilTestSupport
import Testing

/// Every machine, whatever gesture it makes, driven the way the recogniser drives it: its
/// button pressed, held, moved and released at random, the tool leaving or replaced, events
/// lost, the device unplugged, each deadline delivered when due. Such inputs are never a bug,
/// and every transition of every machine is reached: a machine added with no scripts of its
/// own in TransitionTests is covered from the day it is added.
@Suite struct MachineExplorationTests {
    /// A pen with every barrel button (so a dedicated squeeze button and any other machine's
    /// button are there), and one with a single button (the squeeze is a long press).
    static let devices = [
        DeviceInfo(id: "event9", name: "Every-button Pen", bus: 3, vendor: 0x56a, product: 0x5b, direct: true,
                   tools: [.pen, .eraser], axes: [.pressure], buttons: [.stylus, .stylus2, .stylus3]),
        FrameHarness.oneButton,
    ]

    /// A person's doings, one step at a time, turned into one machine's inputs.
    struct Walk<Machine: GestureMachine> {
        let settings: GestureSettings
        let button: PenButton
        var machine = Machine()
        var random: SplitMix64
        var time: Int64 = 1_000_000
        var down = false
        var pose = FrameHarness.pose(x: 0.5, y: 0.5)
        var log = GestureLog()
        var events: [Event] = []
        /// Transitions taken by the machines an unplug ended.
        var taken: UInt64 = 0

        mutating func deliver(_ input: GestureInput, tool: Tool = FrameHarness.pen) {
            let context = GestureContext(time: time, device: "event9", tool: tool, pose: pose)
            machine.handle(input, context, settings, into: &events, log: &log)
        }

        mutating func step() {
            // A pause, with the deadline delivered if it falls within it.
            let pause = [Int64(20_000), 150_000, 350_000, 700_000][Int(random.next() % 4)]
            if let deadline = machine.deadline(settings), deadline <= time + pause {
                time = deadline
                deliver(.timeout)
            }
            time += pause
            switch random.next() % 10 {
            case 0...3:
                down.toggle()
                if let input = ButtonView(down: down ? ButtonSet(button) : [], resynchronised: false, moved: false)
                    .input(for: button, holding: machine.isHoldingButton) {
                    deliver(input)
                }
            case 4, 5:
                // A little or a long way.
                let reach = random.next() % 2 == 0 ? 0.002 : 0.05
                pose = FrameHarness.pose(x: 0.5 + reach, y: 0.5)
                if machine.isHoldingButton, down { deliver(.motion) }
            case 6:
                down = false
                deliver(.toolLeft)
            case 7:
                deliver(.toolReplaced, tool: FrameHarness.eraser)
                down = false
            case 8:
                down = random.next() % 2 == 0
                deliver(.reset(buttonHeld: down))
            default:
                deliver(.deviceRemoved)
                taken |= machine.taken
                machine = Machine()
                down = false
            }
            pose = FrameHarness.pose(x: 0.5, y: 0.5)
        }
    }

    struct Explorer: GestureMachineTypeVisitor {
        var reached: Set<GestureTransition> = []
        var bugs: [GestureBug] = []

        mutating func visit<Machine: GestureMachine>(_: Machine.Type) {
            for (index, device) in MachineExplorationTests.devices.enumerated() {
                let settings = GestureSettings(preferences: .defaults, device: device)
                guard let button = Machine.button(in: settings), device.buttons.contains(button) else { continue }
                var walk = Walk<Machine>(settings: settings, button: button, random: SplitMix64(seed: UInt64(index + 1)))
                for _ in 0..<20_000 { walk.step() }
                reached.formUnion(Machine.transitions(in: walk.taken | walk.machine.taken))
                bugs += walk.log.bugs
            }
        }
    }

    @Test func everyMachineReachesEveryTransitionAndNoPlausibleInputIsABug() {
        var explorer = Explorer()
        GestureMachines.visitTypes(&explorer)
        #expect(explorer.bugs == [])
        let missed = GestureTransition.allCases.filter { !explorer.reached.contains($0) }
        #expect(missed.map(\.description) == [])
    }

    @Test func everyMachineHasTransitionsAndAtMostOneHoldsClicksBack() {
        struct Census: GestureMachineTypeVisitor {
            var names: [String] = []
            var holdingBack = 0
            var empty: [String] = []
            mutating func visit<Machine: GestureMachine>(_: Machine.Type) {
                names.append(Machine.name)
                if case .heldBackUntilKnown = Machine.mirror { holdingBack += 1 }
                if Machine.Transition.allCases.isEmpty { empty.append(Machine.name) }
            }
        }
        var census = Census()
        GestureMachines.visitTypes(&census)
        #expect(census.names.count == Gesture.allCases.count)
        #expect(Set(census.names).count == census.names.count, "two machines of one name")
        #expect(census.holdingBack <= 1)
        #expect(census.empty == [])
        // One bit each in a machine's `taken`.
        #expect(GestureTransition.allCases.count <= 64 * census.names.count)
    }
}
