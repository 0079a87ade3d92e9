import PencilProtocol
import Testing
@testable import PencilControl

@Suite("pencilctl actions: arguments")
struct ActionsCommandTests {
    @Test func showAndTestTakeAConfigFile() {
        #expect(ActionsCommand.parse([], defaultConfig: "/d") == .success(.show(config: "/d")))
        #expect(ActionsCommand.parse(["--config", "/c"], defaultConfig: "/d") == .success(.show(config: "/c")))
        #expect(ActionsCommand.parse(["test", "switchEraser"], defaultConfig: "/d") == .success(.test(.switchEraser, config: "/d")))
        #expect(ActionsCommand.parse(["test", "--config", "/c", "runSystemShortcut"], defaultConfig: "/d")
                == .success(.test(.runSystemShortcut, config: "/c")))
    }

    @Test func mistakesAreNamed() {
        #expect(ActionsCommand.parse(["test"], defaultConfig: "/d").failureMessage?.hasPrefix("actions test needs one ACTION") == true)
        #expect(ActionsCommand.parse(["test", "erase"], defaultConfig: "/d").failureMessage?.hasPrefix("unknown action \"erase\"") == true)
        #expect(ActionsCommand.parse(["--config"], defaultConfig: "/d").failureMessage == "--config needs a file")
        #expect(ActionsCommand.parse(["--json"], defaultConfig: "/d").failureMessage == "unknown option --json")
        #expect(ActionsCommand.parse(["list"], defaultConfig: "/d").failureMessage == "unknown word \"list\" (actions, or actions test ACTION)")
    }

    @Test func aBrokenBindingsFileIsReportedByLine() throws {
        let io = CommandIO.capturing()
        let path = "/nonexistent-dir/actions.conf"
        // A missing file is no bindings, not an error; the daemon is then asked (and absent).
        let status = ActionsCommand.show(config: path, io: io, socket: "/nonexistent-dir/pencild.sock")
        #expect(status == ExitCode.unavailable)
        #expect(io.output.capturedText.contains("bindings: \(path) (none: the file does not exist)"))
        #expect(io.output.capturedText.contains("  switchEraser           nothing"))
    }
}

extension Result where Failure == UsageProblem {
    var failureMessage: String? {
        if case .failure(let problem) = self { return problem.message }
        return nil
    }
}
