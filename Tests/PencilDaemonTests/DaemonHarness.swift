import Foundation
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
import Varlink

extension RunningDaemon {
    func client(timeoutMilliseconds: Int = 5_000) throws -> VarlinkClient {
        try VarlinkClient(path: socketPath, timeoutMilliseconds: timeoutMilliseconds)
    }
}

/// The remote error of a failed call, for `#expect`.
func remoteError(_ body: () throws -> Void) -> VarlinkError? {
    do {
        try body()
        return nil
    } catch let VarlinkClientError.remote(error) {
        return error
    } catch {
        return VarlinkError(name: "not a remote error: \(error)")
    }
}

/// True when the daemon closes the connection (rather than answering or going silent).
func connectionCloses(_ client: VarlinkClient) -> Bool {
    let result = Result { () throws(VarlinkClientError) -> JSONValue in try client.readMessage() }
    switch result {
    case .success: return false
    case .failure(let error):
        switch error {
        case .closed, .io: return true
        default: return false
        }
    }
}
