import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem

/// A command's failure already reported on stderr, with the exit status it ends with.
public struct ReportedFailure: Error, Equatable {
    public var status: Int32
}
