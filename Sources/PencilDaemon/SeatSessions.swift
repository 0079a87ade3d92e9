import CSystemd
import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// Who is at which seat, as the service asks it: who reads a seat's pens (SeatReaders), whose
/// preferences decide a pen's mirror, who may have keys pressed (PressChord). Behind a
/// protocol, as AccessPolicy is, so that a test seats its users as it likes; the daemon asks
/// logind (`LogindSeatSessions`).
protocol SeatSessions {
    /// The user of the active session on `seat`, if there is one.
    func activeUser(onSeat seat: String) -> UInt32?
    /// Whether logind keeps seats here at all. Without it nobody is known to be at a seat,
    /// and nobody is known to have left it.
    var areTracked: Bool { get }
    /// Whether process `pid` of `uid` acts for the person at `seat` (`SeatCaller`): it belongs
    /// to the seat's active session, or it is that user's pencil-actions.service; not another
    /// session (an SSH login, a cron job), nor another unit of the user's service manager
    /// (`systemd-run --user` from elsewhere, a timer).
    func processActsForSeat(pid: Int32, uid: UInt32, seat: String) -> Bool
}

/// Who may act for the person at a seat (PressChord; PlayGesture on the system service):
/// docs/robustness.md, "The seat's keyboard".
enum SeatCaller {
    /// The one unit of a user's service manager that acts for them at the seat: the program
    /// that turns their gestures into chords.
    static let userUnit = "pencil-actions.service"
}

extension SeatSessions {
    /// Whether `uid` holds `seat`: it is the user of the seat's active session, or logind
    /// keeps no seats (a machine without it, where the user's own daemon is all there is).
    func userHolds(seat: String, uid: UInt32) -> Bool {
        guard areTracked else { return true }
        return activeUser(onSeat: seat) == uid
    }
}

/// The seats' active sessions as sd-login reads them from logind's state files.
struct LogindSeatSessions: SeatSessions {
    func activeUser(onSeat seat: String) -> UInt32? {
        var uid = uid_t()
        guard sd_seat_get_active(seat, nil, &uid) >= 0 else { return nil }
        return UInt32(uid)
    }

    /// logind always has seat0 while it runs.
    var areTracked: Bool { sd_get_seats(nil) > 0 }

    func processActsForSeat(pid: Int32, uid: UInt32, seat: String) -> Bool {
        var active: UnsafeMutablePointer<CChar>?
        guard sd_seat_get_active(seat, &active, nil) >= 0, let active else { return false }
        defer { free(active) }
        var session: UnsafeMutablePointer<CChar>?
        let found = sd_pid_get_session(pid, &session)
        if found >= 0, let session {
            defer { free(session) }
            return strcmp(session, active) == 0
        }
        // The system service may not see other users' processes in /proc (ProtectProc=
        // invisible), where sd-login reads a process's group: the groups list their processes.
        if found == -ESRCH || found == -ENOENT || found == -EACCES {
            let slice = "user.slice/user-\(uid).slice"
            if ControlGroups.contains(pid: pid, path: "\(slice)/session-\(String(cString: active)).scope") { return true }
            let group = ControlGroups.group(of: pid, at: "\(slice)/user@\(uid).service")
            return group?.hasSuffix("/" + SeatCaller.userUnit) == true
        }
        var unit: UnsafeMutablePointer<CChar>?
        guard sd_pid_get_user_unit(pid, &unit) >= 0, let unit else { return false }
        defer { free(unit) }
        var owner = uid_t()
        return strcmp(unit, SeatCaller.userUnit) == 0 && sd_pid_get_owner_uid(pid, &owner) >= 0 && UInt32(owner) == uid
    }
}
