import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem

/// sysexits codes the commands exit with.
public enum ExitCode {
    public static let success: Int32 = 0
    public static let usage: Int32 = 64
    public static let dataError: Int32 = 65
    public static let noInput: Int32 = 66
    public static let unavailable: Int32 = 69
    public static let software: Int32 = 70
}
