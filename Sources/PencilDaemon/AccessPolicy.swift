import CSystemd
import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// Decides who may use the interface (protocol.md, "Who may connect").
public protocol AccessPolicy {
    /// nil when `peer` may connect, else why not (for the log).
    func refusal(for peer: PeerCredentials) -> String?
}

/// Root, the daemon's own user, members of the access group, and users with an active session
/// on a local seat (sd-login).
public struct SystemAccessPolicy: AccessPolicy {
    public var daemonUID: UInt32
    public var accessGroup: UInt32?

    public init(daemonUID: UInt32 = ProcessIdentity.userID, accessGroup: UInt32?) {
        self.daemonUID = daemonUID
        self.accessGroup = accessGroup
    }

    public func refusal(for peer: PeerCredentials) -> String? {
        if peer.uid == 0 || peer.uid == daemonUID { return nil }
        if let group = accessGroup {
            let groups = peer.groups.isEmpty ? ProcessIdentity.groups(ofUser: peer.uid, primaryGroup: peer.gid) : peer.groups
            if peer.gid == group || groups.contains(group) { return nil }
        }
        if Self.hasActiveLocalSession(uid: peer.uid) { return nil }
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
