@testable import PencilDaemon
import Testing

/// When the loop sets its timerfd: only for a deadline sooner than the armed one, so that a
/// deadline every frame pushes on (the forced proximity-out) costs no system call per frame.
@Suite("The loop's timer")
struct TimerArmingTests {
    @Test("a disarmed timer is armed for the first deadline; with none, it stays as it is")
    func firstDeadline() {
        #expect(Daemon.timerNeedsArming(armed: nil, earliest: 1_000))
        #expect(!Daemon.timerNeedsArming(armed: nil, earliest: nil))
    }

    @Test("a deadline that moved later leaves the timer alone; one that came sooner moves it")
    func movingDeadlines() {
        // A pen's frames push its proximity-out on: the timer fires early, once, instead.
        #expect(!Daemon.timerNeedsArming(armed: 1_000, earliest: 1_500))
        #expect(!Daemon.timerNeedsArming(armed: 1_000, earliest: 1_000))
        // A long press's deadline before it: the timer must move.
        #expect(Daemon.timerNeedsArming(armed: 1_000, earliest: 400))
        // The last deadline went: the armed timer fires once and is not armed again.
        #expect(!Daemon.timerNeedsArming(armed: 1_000, earliest: nil))
    }
}
