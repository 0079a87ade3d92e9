import PencilProtocol

/// Where an input happened: the time, and the tool and pose its gesture events carry.
struct GestureContext {
    var time: Int64
    var device: String
    var tool: Tool?
    var pose: Pose
}
