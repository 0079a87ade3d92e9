import PencilActions
#if canImport(Glibc)
import Glibc
#endif

exit(ActionsService.main(arguments: Array(CommandLine.arguments.dropFirst())))
