import GestureRecognizer
import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem
import PencilWacom

protocol DeviceHubDelegate: AnyObject {
    /// Events for the monitors of `uid`, or of every user when nil.
    func deviceHub(_ hub: DeviceHub, emit events: [Event], toUser uid: UInt32?)
    /// Whether replays at full speed may go on: not while a monitor is behind, so that they
    /// go at the pace of their slowest reader and every reader gets every event.
    func deviceHubMayPlayAtFullSpeed(_ hub: DeviceHub) -> Bool
    /// The user whose preferences decide the mirrors of pens on `seat`, whatever they are;
    /// nil when nobody decides (docs/gestures.md, "The mirror").
    func deviceHub(_ hub: DeviceHub, decidingUserForSeat seat: String) -> UInt32?
    /// The mirror a pen on `seat` should have: the deciding user's preferences, when they
    /// have withholdGestureClicks on; nil for no mirror (docs/gestures.md, "The mirror").
    func deviceHub(_ hub: DeviceHub, mirrorWishForSeat seat: String) -> MirrorWish?
    /// Whether pens on `seat` may be read now: a user's daemon reads them only while its user
    /// holds the seat (docs/robustness.md, "The seat's keyboard and the seat's input").
    func deviceHub(_ hub: DeviceHub, mayReadSeat seat: String) -> Bool
}
