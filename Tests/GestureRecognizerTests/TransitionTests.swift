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
            // "### Tap machine": the machine named "tap".
            if line.hasPrefix("### "), line.hasSuffix(" machine") {
                machine = line.dropFirst(4).dropLast(8).lowercased()
            } else if line.hasPrefix("#") {
                machine = nil
            }
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
        "\(transition.machine): \(transition.from) --> \(transition.to) : \(transition.label)"
    }

    @Test func theDiagramsDrawExactlyTheCodesTransitions() throws {
        let documented = try Self.documentedEdges()
        let code = GestureTransition.allCases.map(Self.codeEdge)
        #expect(documented.count == Set(documented).count, "an edge drawn twice")
        #expect(Set(documented).subtracting(code).sorted() == [], "drawn but not in the code")
        #expect(Set(code).subtracting(documented).sorted() == [], "in the code but not drawn")
    }

    /// The machines each of whose transitions has a script here; a machine added since is
    /// covered by MachineExplorationTests until its scripts are written.
    static let scriptedMachines: Set = ["tap", "squeeze"]

    /// A script that takes `transition`, and the gestures it must produce.
    static func script(for transition: GestureTransition) throws -> (FrameHarness, [String])? {
        let oneButton = FrameHarness.oneButton
        switch transition.description {
        case "tap.idlePress", "tap.firstPressClick":
            var pen = try FrameHarness()
            pen.approach()
            pen.click(.stylus)
            return (pen, [])
        case "tap.idleReset", "tap.heldRelease":
            var pen = try FrameHarness()
            pen.approach()
            pen.dropEvents { $0.buttons = .stylus }
            pen.release(.stylus)
            return (pen, [])
        case "tap.firstPressTooLong":
            var pen = try FrameHarness()
            pen.approach()
            pen.click(.stylus, holdingMs: 301)
            return (pen, [])
        case "tap.firstPressMoved", "tap.movedClick":
            var pen = try FrameHarness(device: oneButton)
            pen.approach()
            pen.press(.stylus)
            pen.move(byMillimetersX: 5)
            pen.release(.stylus)
            return (pen, [])
        case "tap.firstPressLongPress", "tap.squeezeChanged", "tap.squeezeEnded":
            var pen = try FrameHarness(device: oneButton)
            pen.approach()
            pen.press(.stylus)
            pen.wait(ms: 500)
            pen.move(byMillimetersX: 5)
            pen.release(.stylus)
            return (pen, ["squeeze began", "squeeze changed", "squeeze ended showContextualPalette"])
        case "tap.firstPressForgotten":
            var pen = try FrameHarness()
            pen.approach()
            pen.press(.stylus)
            pen.leave()
            return (pen, [])
        case "tap.firstPressReset":
            var pen = try FrameHarness()
            pen.approach()
            pen.press(.stylus)
            pen.dropEvents()
            pen.release(.stylus)
            pen.press(.stylus)
            return (pen, [])
        case "tap.movedTooLong":
            var pen = try FrameHarness(device: oneButton)
            pen.approach()
            pen.press(.stylus)
            pen.move(byMillimetersX: 5)
            pen.wait(ms: 900)
            pen.release(.stylus)
            return (pen, [])
        case "tap.movedForgotten":
            var pen = try FrameHarness(device: oneButton)
            pen.approach()
            pen.press(.stylus)
            pen.move(byMillimetersX: 5)
            pen.flip(to: FrameHarness.eraser)
            return (pen, [])
        case "tap.movedReset":
            var pen = try FrameHarness(device: oneButton)
            pen.approach()
            pen.press(.stylus)
            pen.move(byMillimetersX: 5)
            pen.dropEvents()
            return (pen, [])
        case "tap.doubleTap", "tap.heldForgotten":
            var pen = try FrameHarness()
            pen.approach()
            pen.click(.stylus)
            pen.press(.stylus)
            pen.unplug()
            return (pen, ["doubleTap switchEraser"])
        case "tap.newSequence":
            var pen = try FrameHarness()
            pen.approach()
            pen.click(.stylus)
            pen.wait(ms: 500)
            pen.press(.stylus)
            return (pen, [])
        case "tap.clickedForgotten":
            var pen = try FrameHarness()
            pen.approach()
            pen.click(.stylus)
            pen.dropEvents()
            pen.press(.stylus)
            return (pen, [])
        case "tap.clickedReset":
            var pen = try FrameHarness()
            pen.approach()
            pen.click(.stylus)
            pen.dropEvents { $0.buttons = .stylus }
            return (pen, [])
        case "tap.squeezeCancelled":
            var pen = try FrameHarness(device: oneButton)
            pen.approach()
            pen.press(.stylus)
            pen.wait(ms: 600)
            pen.flip(to: FrameHarness.eraser)
            return (pen, ["squeeze began", "squeeze cancelled"])
        case "tap.squeezeReset":
            var pen = try FrameHarness(device: oneButton)
            pen.approach()
            pen.press(.stylus)
            pen.wait(ms: 600)
            pen.dropEvents()
            pen.release(.stylus)
            return (pen, ["squeeze began", "squeeze cancelled"])
        case "squeeze.idlePress", "squeeze.changed", "squeeze.ended":
            var pen = try FrameHarness()
            pen.approach()
            pen.press(.stylus2)
            pen.move(toX: 0.6, y: 0.6)
            pen.release(.stylus2)
            return (pen, ["squeeze began", "squeeze changed", "squeeze ended showContextualPalette"])
        case "squeeze.idleReset", "squeeze.heldRelease":
            var pen = try FrameHarness()
            pen.approach()
            pen.dropEvents { $0.buttons = .stylus2 }
            pen.release(.stylus2)
            return (pen, [])
        case "squeeze.cancelled":
            var pen = try FrameHarness()
            pen.approach()
            pen.press(.stylus2)
            pen.unplug()
            return (pen, ["squeeze began", "squeeze cancelled"])
        case "squeeze.reset", "squeeze.heldForgotten":
            var pen = try FrameHarness()
            pen.approach()
            pen.press(.stylus2)
            pen.dropEvents()
            pen.leave()
            return (pen, ["squeeze began", "squeeze cancelled"])
        default:
            return nil
        }
    }

    @Test(arguments: GestureTransition.allCases)
    func everyTransitionIsTaken(_ transition: GestureTransition) throws {
        guard let (pen, expected) = try Self.script(for: transition) else {
            #expect(!Self.scriptedMachines.contains(transition.machine), "no script takes \(transition)")
            return
        }
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
            #expect(pen.recognizer.transitionsTaken.contains { $0.description == "tap.clickedForgotten" }, "\(name)")
            var squeeze = try FrameHarness()
            squeeze.approach()
            squeeze.press(.stylus2)
            ending(&squeeze)
            let expected = name == "toolLeft" ? "squeeze ended showContextualPalette" : "squeeze cancelled"
            #expect(squeeze.summary == ["squeeze began", expected], "\(name)")
        }
    }
}
