import Dispatch
import PencilProtocol
import Synchronization
import Varlink

/// What an event sequence does when its connection to pencild ends (the daemon stopped,
/// restarted or crashed).
public enum DisconnectPolicy: Sendable, Equatable {
    /// Close what was open (the sequence yields the closing events), then connect again with
    /// growing pauses and subscribe again with the same filters. The sequence never ends on
    /// its own: the new daemon's stream starts with `deviceAdded` for each device. This is
    /// also how a daemon that is not there yet at the start is waited for.
    case reconnect
    /// Close what was open, then end the sequence by throwing
    /// `PencilClientError.disconnected` (or the connection error when the first connection
    /// fails).
    case `throw`
}
