import Dispatch
import PencilProtocol
import Synchronization
import Varlink

/// The events of a `Monitor` subscription, as an `AsyncSequence`:
///
///     for try await event in client.events(types: [.doubleTap, .squeeze]) { ... }
///
/// Each iteration (each `makeAsyncIterator()`) is its own subscription on its own
/// connection, made when iteration starts. Reading happens on a dispatch queue of the
/// subscription's own with a non-blocking socket: neither the caller's thread nor the
/// cooperative thread pool ever waits for the daemon. Ending the iteration (leaving the loop,
/// or cancelling the task that iterates) stops reading and closes the connection.
///
/// Events wait in a bounded buffer: when the consumer falls `bufferLimit` events behind,
/// the subscription stops reading until it has caught up, and the daemon's own limits apply
/// (it coalesces motion for a client that stays behind, and disconnects one that stops
/// reading; the sequence then closes what was open and reconnects).
///
/// Errors thrown are `PencilClientError`: `.permissionDenied` and other refusals end the
/// sequence whatever the policy; with `.throw`, so does a lost connection.
public struct PencilEvents: AsyncSequence, Sendable {
    public typealias Element = PencilEvent
    public typealias Failure = PencilClientError

    let configuration: EventSubscription.Configuration

    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<PencilEvent, any Error>.makeStream()
        let subscription = EventSubscription(configuration, continuation: continuation)
        continuation.onTermination = { _ in subscription.stop() }
        subscription.start()
        return Iterator(base: stream.makeAsyncIterator(), subscription: subscription)
    }

    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = PencilEvent
        public typealias Failure = PencilClientError

        var base: AsyncThrowingStream<PencilEvent, any Error>.AsyncIterator
        let subscription: EventSubscription

        public mutating func next() async throws(PencilClientError) -> PencilEvent? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(PencilClientError) -> PencilEvent? {
            do {
                guard let event = try await base.next(isolation: actor) else { return nil }
                subscription.consumed()
                return event
            } catch let error as PencilClientError {
                throw error
            } catch {
                throw .disconnected(reason: "\(error)")
            }
        }
    }
}
