import PencilProtocol

/// Where the tool is and how it is held: the protocol's `Pose` (x and y from 0 to 1 with the
/// origin top-left, pressure from 0 to 1, tilt in degrees, azimuth, altitude and roll in
/// radians; optional fields are nil when the device does not report them).
public typealias PencilPose = Pose
