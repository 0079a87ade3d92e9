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
