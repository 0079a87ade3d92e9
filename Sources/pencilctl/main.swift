import PencilControl
#if canImport(Glibc)
import Glibc
#endif

exit(PencilControl.run(arguments: Array(CommandLine.arguments.dropFirst())))
