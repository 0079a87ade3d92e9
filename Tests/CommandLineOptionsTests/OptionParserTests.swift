import CommandLineOptions
import Testing

/// A small command with every kind of option and operand, as a person would type to it.
private struct Play: Equatable {
    var file = ""
    var speed = 1.0
    var loop = false
    var devices: [String] = []
    var extra: [String] = []
}

private let play = OptionParser<Play>(command: "play", options: [
    .value("--speed", valueName: "FACTOR", help: ["how fast"]) { options, text throws(UsageError) in
        guard let factor = Double(text), factor > 0 else { throw UsageError("--speed: expected a positive number, not '\(text)'") }
        options.speed = factor
    },
    .flag("--loop", "-l", help: ["play again at the end"]) { $0.loop = true },
    .value("--device", valueName: "ID", repeats: true, help: ["only this device", "(repeatable)"]) { $0.devices.append($1) },
    .flag("--secret") { _ in },
], operands: [
    Operand("FILE", missing: "which file?") { $0.file = $1 },
    Operand("EXTRA", count: 0...2) { $0.extra.append($1) },
])

private func parsed(_ arguments: [String]) -> Result<Play, UsageError> { play.parse(arguments, into: Play()) }

@Suite struct OptionParserTests {
    @Test func aValueComesAfterASpaceOrAnEqualsSign() throws {
        #expect(try parsed(["a.events", "--speed", "2"]).get().speed == 2)
        #expect(try parsed(["--speed=2.5", "a.events"]).get().speed == 2.5)
        // A value that starts with "=" or "-" is taken whole when it follows a space.
        #expect(try parsed(["a.events", "--device", "-x"]).get().devices == ["-x"])
        #expect(try parsed(["a.events", "--device==x"]).get().devices == ["=x"])
    }

    @Test func flagsTakeNoValueAndAnAliasIsTheSameFlag() throws {
        #expect(try parsed(["a.events", "--loop"]).get().loop)
        #expect(try parsed(["a.events", "-l"]).get().loop)
        #expect(try parsed(["a.events"]).get().loop == false)
        #expect(parsed(["a.events", "--loop=yes"]) == .failure(UsageError("--loop takes no value")))
    }

    @Test func repeatedOptionsAndOperandsKeepTheirOrder() throws {
        let result = try parsed(["--device", "b", "a.events", "one", "--device=c", "two"]).get()
        #expect(result == Play(file: "a.events", devices: ["b", "c"], extra: ["one", "two"]))
    }

    @Test func mistakesAreNamed() {
        #expect(parsed([]) == .failure(UsageError("which file?")))
        #expect(parsed(["a.events", "--speed"]) == .failure(UsageError("--speed needs a value")))
        #expect(parsed(["a.events", "--speed", "fast"]) == .failure(UsageError("--speed: expected a positive number, not 'fast'")))
        #expect(parsed(["a.events", "--fast"]) == .failure(UsageError("unknown option --fast")))
        #expect(parsed(["a.events", "--fast=1"]) == .failure(UsageError("unknown option --fast")))
        #expect(parsed(["a.events", "1", "2", "3"]) == .failure(UsageError("unexpected argument 3")))
    }

    @Test func doubleDashEndsTheOptionsAndALoneDashIsAnOperand() throws {
        #expect(try parsed(["--", "--loop"]).get() == Play(file: "--loop"))
        #expect(try parsed(["-"]).get().file == "-")
        #expect(play.asksForHelp(["a", "--help"]))
        #expect(play.asksForHelp(["-h"]))
        #expect(play.asksForHelp(["--", "--help"]) == false)
        #expect(play.asksForHelp(["a.events", "--loop"]) == false)
    }

    @Test func valuesOfOneOptionAreFoundWithoutApplyingAny() {
        #expect(play.values(of: "--device", in: ["a", "--device", "x", "--speed=9", "--device=y"]) == .success(["x", "y"]))
        #expect(play.values(of: "--device", in: ["--device"]) == .failure(UsageError("--device needs a value")))
    }

    @Test func usageAndHelpAreWrittenFromTheTable() {
        #expect(play.usage == "play FILE [EXTRA] [--speed FACTOR] [--loop] [--device ID]...")
        let help = play.help(about: ["Plays a file."])
        #expect(help == """
            usage: play FILE [EXTRA] [--speed FACTOR] [--loop] [--device ID]...

            Plays a file.

            options:
              --speed FACTOR  how fast
              --loop          play again at the end
              --device ID     only this device
                              (repeatable)
              --help          print this help and exit

            """)
        // An option without help is accepted but not shown.
        #expect(!help.contains("--secret"))
        #expect((try? parsed(["a", "--secret"]).get()) != nil)
    }
}
