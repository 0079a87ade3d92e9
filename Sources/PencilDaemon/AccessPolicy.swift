import CSystemd
import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// Decides who may use the interface (docs/protocol.md, "Who may connect").
public protocol AccessPolicy {
    /// nil when `peer` may connect, else why not (for the log).
    func refusal(for peer: PeerCredentials) -> String?
    /// Readable when answers may have changed (a session started, ended, or another became
    /// active): the daemon then asks again for every client that streams. nil when they never
    /// change.
    var changeNotifier: FileDescriptor? { get }
    /// The notifier was readable: take what it has, before the daemon asks again.
    func acknowledgeChanges()
    /// Whether `peer` reads every seat's pens; others read only the pens of the seat they
    /// hold (docs/protocol.md, "Who sees which pen").
    func seesEverySeat(_ peer: PeerCredentials) -> Bool
    /// Whether `peer`'s user has an active session on a local seat: places are kept for them.
    func isAtASeat(_ peer: PeerCredentials) -> Bool
}

extension AccessPolicy {
    public var changeNotifier: FileDescriptor? { nil }
    public func acknowledgeChanges() {}
    /// A policy that does not tell lets everyone it admits read every seat.
    public func seesEverySeat(_ peer: PeerCredentials) -> Bool { true }
    /// A policy that does not tell counts everyone it admits as at a seat.
    public func isAtASeat(_ peer: PeerCredentials) -> Bool { true }
}

/// Root, the daemon's own user, members of the access group, and users with an active session
/// on a local seat (sd-login).
/// Session changes come from sd-login's monitor.
public struct SystemAccessPolicy: AccessPolicy {
    public var daemonUID: UInt32
    public var accessGroup: UInt32?
    private let sessions: SessionMonitor?
    /// sd-login's answers per uid, kept until logind says something changed; without its
    /// monitor nothing is kept.
    private let seatedUsers = SeatedUsers()

    /// `watchingSessions`: follow logind's sessions (nil notifier when logind is not there).
    public init(daemonUID: UInt32 = ProcessIdentity.userID, accessGroup: UInt32?, watchingSessions: Bool = true) {
        self.daemonUID = daemonUID
        self.accessGroup = accessGroup
        sessions = watchingSessions ? try? SessionMonitor() : nil
    }

    public var changeNotifier: FileDescriptor? { sessions?.descriptor }
    public func acknowledgeChanges() {
        sessions?.flush()
        seatedUsers.forget()
    }

    public func seesEverySeat(_ peer: PeerCredentials) -> Bool {
        if peer.uid == 0 || peer.uid == daemonUID { return true }
        // The kernel's answer only: a process that dropped its groups is not a member, and
        // the user database is never asked on the loop's thread.
        if let group = accessGroup, peer.gid == group || peer.groups.contains(group) { return true }
        return false
    }

    /// A refused uid's next connection costs no sd-login read: a connect flood is refused from
    /// memory until logind reports a change.
    public func isAtASeat(_ peer: PeerCredentials) -> Bool {
        guard sessions != nil else { return Self.hasActiveLocalSession(uid: peer.uid) }
        return seatedUsers.answer(for: peer.uid) { Self.hasActiveLocalSession(uid: $0) }
    }

    public func refusal(for peer: PeerCredentials) -> String? {
        if seesEverySeat(peer) { return nil }
        if isAtASeat(peer) { return nil }
        let groupText = accessGroup.map { "not in group \($0), " } ?? ""
        return "uid \(peer.uid) is not root, not the daemon's user, \(groupText)and has no active session on a local seat"
    }

    /// sd-login: an active, non-remote session of `uid` attached to a seat.
    static func hasActiveLocalSession(uid: UInt32) -> Bool {
        var sessions: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_uid_get_sessions(uid, 1, &sessions)
        guard count > 0, let sessions else { return false }
        defer {
            for index in 0..<Int(count) { free(sessions[index]) }
            free(sessions)
        }
        for index in 0..<Int(count) {
            guard let session = sessions[index] else { continue }
            guard sd_session_is_active(session) > 0, sd_session_is_remote(session) == 0 else { continue }
            var seat: UnsafeMutablePointer<CChar>?
            if sd_session_get_seat(session, &seat) >= 0, let seat {
                free(seat)
                return true
            }
        }
        return false
    }
}

/// Whether each uid has an active session on a local seat, as sd-login last said; bounded.
final class SeatedUsers {
    private var answers: [UInt32: Bool] = [:]
    static let capacity = 1024

    func answer(for uid: UInt32, _ ask: (UInt32) -> Bool) -> Bool {
        if let known = answers[uid] { return known }
        if answers.count >= Self.capacity { answers.removeAll(keepingCapacity: true) }
        let answer = ask(uid)
        answers[uid] = answer
        return answer
    }

    func forget() { answers.removeAll(keepingCapacity: true) }
}

/// The seats' active sessions (sd-login).
enum SeatSessions {
    /// The user of the active session on `seat`, if there is one.
    static func activeUser(onSeat seat: String) -> UInt32? {
        var uid = uid_t()
        guard sd_seat_get_active(seat, nil, &uid) >= 0 else { return nil }
        return UInt32(uid)
    }

    /// Whether logind keeps seats here at all: it always has seat0 while it runs. Without it
    /// nobody is known to be at a seat, and nobody is known to have left it.
    static var areTracked: Bool { sd_get_seats(nil) > 0 }

    /// Whether process `pid` of `uid` acts for the person at `seat`: it belongs to the seat's
    /// active session, or it runs under that user's own service manager (a user service such
    /// as pencil-actions), and is in no other session (an SSH login, a cron job).
    static func processActsForSeat(pid: Int32, uid: UInt32, seat: String) -> Bool {
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
            return ControlGroups.contains(pid: pid, path: "\(slice)/session-\(String(cString: active)).scope")
                || ControlGroups.contains(pid: pid, path: "\(slice)/user@\(uid).service", orBelow: true)
        }
        var unit: UnsafeMutablePointer<CChar>?
        guard sd_pid_get_user_unit(pid, &unit) >= 0, let unit else { return false }
        free(unit)
        var owner = uid_t()
        return sd_pid_get_owner_uid(pid, &owner) >= 0 && UInt32(owner) == uid
    }

    /// Whether `uid` holds `seat`: it is the user of the seat's active session, or logind
    /// keeps no seats (a machine without it, where the user's own daemon is all there is).
    static func userHolds(seat: String, uid: UInt32) -> Bool {
        guard areTracked else { return true }
        return activeUser(onSeat: seat) == uid
    }
}

/// sd-login's monitor of sessions and seats: its descriptor is readable when one changes.
/// Owns the sd_login_monitor; the descriptor is the monitor's and closes with it.
final class SessionMonitor {
    private let monitor: OpaquePointer
    let descriptor: FileDescriptor

    /// Fails where logind keeps no state (no /run/systemd: a container, a system without logind).
    init() throws(Errno) {
        var created: OpaquePointer?
        let status = sd_login_monitor_new(nil, &created)
        guard status >= 0, let created else { throw Errno(rawValue: status < 0 ? -status : EINVAL) }
        let fd = sd_login_monitor_get_fd(created)
        guard fd >= 0 else {
            _ = sd_login_monitor_unref(created)
            throw Errno(rawValue: -fd)
        }
        monitor = created
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { _ = sd_login_monitor_unref(monitor) }

    /// Takes the pending notifications, so that the descriptor is quiet until the next change.
    func flush() { _ = sd_login_monitor_flush(monitor) }
}
