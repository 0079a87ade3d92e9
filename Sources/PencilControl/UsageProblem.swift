import PencilClient
import PencilProtocol
import PencilSystem
import Varlink
#if canImport(Glibc)
import Glibc
#endif

struct UsageProblem: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}
