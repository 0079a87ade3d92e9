import PencilActions
#if canImport(Glibc)
import Glibc
#endif

exit(ActionsAgent.main(arguments: Array(CommandLine.arguments.dropFirst())))
