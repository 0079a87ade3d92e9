import PencilActions
@testable import PencilDevices
import Testing

@Suite struct ChordTests {
    @Test func namesAreEvdevsWithShortModifiers() throws {
        #expect(KeyNames.code(of: "e") == 18)
        #expect(KeyNames.code(of: "KEY_E") == 18)
        #expect(KeyNames.code(of: "F5") == 63)
        #expect(KeyNames.code(of: "ctrl") == 29)
        #expect(KeyNames.code(of: "rightctrl") == 97)
        #expect(KeyNames.code(of: "super") == 125)
        #expect(KeyNames.code(of: "rightsuper") == 126)
        #expect(KeyNames.code(of: "altgr") == 100)
        #expect(KeyNames.code(of: "slash") == 53)
        #expect(KeyNames.code(of: "reserved") == nil)
        #expect(KeyNames.code(of: "btn_left") == nil)
        #expect(KeyNames.code(of: "") == nil)
        #expect(KeyNames.code(of: "e e") == nil)
        #expect(KeyNames.name(of: 42) == "leftshift")
    }

    @Test func aChordIsModifiersDownKeyDownKeyUpModifiersUpOneFrameEach() throws {
        let chord = try KeyChord.parse("ctrl + Shift+z").get()
        #expect(chord == KeyChord(modifiers: [29, 42], key: 44))
        #expect(chord.description == "leftctrl+leftshift+z")
        #expect(chord.frames == [
            KeyFrame(code: 29, down: true), KeyFrame(code: 42, down: true),
            KeyFrame(code: 44, down: true), KeyFrame(code: 44, down: false),
            KeyFrame(code: 42, down: false), KeyFrame(code: 29, down: false),
        ])
        #expect(try KeyChord.parse("e").get().frames == [KeyFrame(code: 18, down: true), KeyFrame(code: 18, down: false)])
        // A modifier alone is a key like any other.
        #expect(try KeyChord.parse("shift").get() == KeyChord(modifiers: [], key: 42))
    }

    @Test func thePlayerSpacesFramesAndQueuesChords() throws {
        var player = ChordPlayer(interval: 10_000, maximumQueued: 1)
        let first = try KeyChord.parse("shift+e").get()
        let second = try KeyChord.parse("f5").get()
        #expect(player.isIdle)
        let accepted = [player.enqueue(first, now: 1_000), player.enqueue(second, now: 1_000), player.enqueue(second, now: 1_000)]
        #expect(accepted == [true, true, false], "a full queue refuses")
        var frames: [KeyFrame?] = [player.next(now: 1_000), player.next(now: 1_000)]
        #expect(frames == [KeyFrame(code: 42, down: true), nil], "the next frame waits for its time")
        #expect(player.nextDeadline == 11_000)
        frames = [player.next(now: 11_000)]
        #expect(player.held == [42, 18])
        frames += [player.next(now: 21_000), player.next(now: 31_000)]
        #expect(player.held.isEmpty)
        frames += [player.next(now: 41_000), player.next(now: 51_000)]
        #expect(frames == [
            KeyFrame(code: 18, down: true), KeyFrame(code: 18, down: false), KeyFrame(code: 42, down: false),
            KeyFrame(code: 63, down: true), KeyFrame(code: 63, down: false),
        ])
        #expect(player.isIdle && player.nextDeadline == nil)
    }

    @Test func releasingMidChordLetsGoOfEveryHeldKeyLastFirst() throws {
        var player = ChordPlayer(interval: 10_000)
        _ = player.enqueue(try KeyChord.parse("ctrl+shift+z").get(), now: 0)
        _ = player.enqueue(try KeyChord.parse("e").get(), now: 0)
        _ = player.next(now: 0)
        _ = player.next(now: 10_000)
        #expect(player.held == [29, 42])
        let releases = player.releaseAll()
        #expect(releases == [KeyFrame(code: 42, down: false), KeyFrame(code: 29, down: false)])
        #expect(player.isIdle)
        let after = player.next(now: 1_000_000)
        #expect(after == nil, "what waited is dropped")
        let again = player.releaseAll()
        #expect(again.isEmpty)
    }
}
