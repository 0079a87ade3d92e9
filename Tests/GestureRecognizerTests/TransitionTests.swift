import Foundation
import GestureRecognizer
import PencilInput
import PencilProtocol
import Testing

/// The diagrams in docs/gestures.md and the code are one to one, and every transition is
/// taken by a script that says what a person did.
@Suite struct TransitionTests {
    /// The `from --> to : label` lines of the document's mermaid blocks, per machine.
    static func documentedEdges() throws -> [String] {
        let docs = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/gestures.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        var edges: [String] = []
        var machine: String?
        var inMermaid = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("### Tap machine") { machine = "tap" }
            if line.hasPrefix("### Squeeze machine") { machine = "squeeze" }
            if line.hasPrefix("```mermaid") { inMermaid = true; continue }
            if line.hasPrefix("```") { inMermaid = false; continue }
            guard inMermaid, let machine else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.contains("-->"), !trimmed.hasPrefix("[*]") else { continue }
            edges.append("\(machine): \(trimmed)")
        }
        return edges
    }

    static func codeEdge(_ transition: GestureTransition) -> String {
        let edge = transition.edge
        return "\(transition.machine.rawValue): \(edge.from) --> \(edge.to) : \(edge.label)"
    }

    @Test func theDiagramsDrawExactlyTheCodesTransitions() throws {
        let documented = try Self.documentedEdges()
        let code = GestureTransition.allCases.map(Self.codeEdge)
        #expect(documented.count == Set(documented).count, "an edge drawn twice")
        #expect(Set(documented).subtracting(code).sorted() == [], "drawn but not in the code")
        #expect(Set(code).subtracting(documented).sorted() == [], "in the code but not drawn")
    }

    /// A script that takes `transition`, and the gestures it must produce.
    static func script(for transition: GestureTransition) throws -> (FrameHarness, [String]) {
        let oneButton = FrameHarness.oneButton
        switch transition {
        case .tapIdlePress, .tapFirstPressClick:
            var pen = try FrameHarness()
            pen.approach()
            pen.click(.stylus)
            return (pen, [])
        case .tapIdleReset, .tapHeldRelease:
            var pen = try FrameHarness()
            pen.approach()
            pen.dropEvents { $0.buttons = .stylus }
            pen.release(.stylus)
            return (pen, [])
        case .tapFirstPressTooLong:
            var pen = try FrameHarness()
            pen.approach()
            pen.click(.stylus, holdingMs: 301)
            return (pen, [])
        case .tapFirstPressMoved, .tapMovedClick:
            var pen = try FrameHarness(device: oneButton)
            pen.approach()
            pen.press(.stylus)
            pen.move(byMillimetersX: 5)
            pen.release(.stylus)
            return (pen, [])
        case .tapFirstPressLongPress, .tapSqueezeChanged, .tapSqueezeEnded:
            var pen = try FrameHarness(device: oneButton)
            pen.approach()
            pen.press(.stylus)
            pen.wait(ms: 500)
            pen.move(byMillimetersX: 5)
            pen.release(.stylus)
            return (pen, ["squeeze began", "squeeze changed", "squeeze ended showContextualPalette"])
        case .tapFirstPressForgotten:
            var pen = try FrameHarness()
            pen.approach()
            pen.press(.stylus)
            pen.leave()
            return (pen, [])
        case .tapFirstPressReset:
            var pen = try FrameHarness()
            pen.approach()
            pen.press(.stylus)
            pen.dropEvents()
            pen.release(.stylus)
            pen.press(.stylus)
            return (pen, [])
        case .tapMovedTooLong:
            var pen = try FrameHarness(device: oneButton)
            pen.approach()
            pen.press(.stylus)
            pen.move(byMillimetersX: 5)
            pen.wait(ms: 900)
            pen.release(.stylus)
            return (pen, [])
        case .tapMovedForgotten:
            var pen = try FrameHarness(device: oneButton)
            pen.approach()
            pen.press(.stylus)
            pen.move(byMillimetersX: 5)
            pen.flip(to: FrameHarness.eraser)
            return (pen, [])
        case .tapMovedReset:
            var pen = try FrameHarness(device: oneButton)
            pen.approach()
            pen.press(.stylus)
            pen.move(byMillimetersX: 5)
            pen.dropEvents()
            return (pen, [])
        case .tapDoubleTap, .tapHeldForgotten:
            var pen = try FrameHarness()
            pen.approach()
            pen.click(.stylus)
            pen.press(.stylus)
            pen.unplug()
            return (pen, ["doubleTap switchEraser"])
        case .tapNewSequence:
            var pen = try FrameHarness()
            pen.approach()
            pen.click(.stylus)
            pen.wait(ms: 500)
            pen.press(.stylus)
            return (pen, [])
        case .tapClickedForgotten:
            var pen = try FrameHarness()
            pen.approach()
            pen.click(.stylus)
            pen.dropEvents()
            pen.press(.stylus)
            return (pen, [])
        case .tapClickedReset:
            var pen = try FrameHarness()
            pen.approach()
            pen.click(.stylus)
            pen.dropEvents { $0.buttons = .stylus }
            return (pen, [])
        case .tapSqueezeCancelled:
            var pen = try FrameHarness(device: oneButton)
            pen.approach()
            pen.press(.stylus)
            pen.wait(ms: 600)
            pen.flip(to: FrameHarness.eraser)
            return (pen, ["squeeze began", "squeeze cancelled"])
        case .tapSqueezeReset:
            var pen = try FrameHarness(device: oneButton)
            pen.approach()
            pen.press(.stylus)
            pen.wait(ms: 600)
            pen.dropEvents()
            pen.release(.stylus)
            return (pen, ["squeeze began", "squeeze cancelled"])
        case .squeezeIdlePress, .squeezeChanged, .squeezeEnded:
            var pen = try FrameHarness()
            pen.approach()
            pen.press(.stylus2)
            pen.move(toX: 0.6, y: 0.6)
            pen.release(.stylus2)
            return (pen, ["squeeze began", "squeeze changed", "squeeze ended showContextualPalette"])
        case .squeezeIdleReset, .squeezeHeldRelease:
            var pen = try FrameHarness()
            pen.approach()
            pen.dropEvents { $0.buttons = .stylus2 }
            pen.release(.stylus2)
            return (pen, [])
        case .squeezeCancelled:
            var pen = try FrameHarness()
            pen.approach()
            pen.press(.stylus2)
            pen.unplug()
            return (pen, ["squeeze began", "squeeze cancelled"])
        case .squeezeReset, .squeezeHeldForgotten:
            var pen = try FrameHarness()
            pen.approach()
            pen.press(.stylus2)
            pen.dropEvents()
            pen.leave()
            return (pen, ["squeeze began", "squeeze cancelled"])
        }
    }

    @Test(arguments: GestureTransition.allCases)
    func everyTransitionIsTaken(_ transition: GestureTransition) throws {
        let (pen, expected) = try Self.script(for: transition)
        #expect(pen.recognizer.transitionsTaken.contains(transition), "\(Self.codeEdge(transition))")
        #expect(pen.summary == expected)
        #expect(pen.recognizer.bugs.isEmpty)
    }

    @Test func everyLabelledInputOfAForgettingEdgeWorks() throws {
        // The combined edges: each input they name, one at a time, from clicked.
        let endings: [(String, (inout FrameHarness) -> Void)] = [
            ("toolLeft", { $0.leave() }),
            ("toolReplaced", { $0.flip(to: FrameHarness.eraser) }),
            ("deviceRemoved", { $0.unplug() }),
            ("reset released", { $0.dropEvents() }),
        ]
        for (name, ending) in endings {
            var pen = try FrameHarness()
            pen.approach()
            pen.click(.stylus)
            ending(&pen)
            #expect(pen.recognizer.transitionsTaken.contains(.tapClickedForgotten), "\(name)")
            var squeeze = try FrameHarness()
            squeeze.approach()
            squeeze.press(.stylus2)
            ending(&squeeze)
            let expected = name == "toolLeft" ? "squeeze ended showContextualPalette" : "squeeze cancelled"
            #expect(squeeze.summary == ["squeeze began", expected], "\(name)")
        }
    }
}
