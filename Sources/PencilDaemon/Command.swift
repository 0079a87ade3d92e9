import PencilProtocol
import PencilSystem
import Varlink

/// What the command line asks for.
public enum Command: Sendable {
    case run(Configuration)
    case help
    case version
}
