/// logind's seat0, spelled once: the seat logind always has while it runs, and the seat of
/// every device whose udev entry names none (uinput devices, pencild's mirrors and keyboard
/// among them, and replays, which have no udev entry at all).
enum LogindSeat {
    static let main = "seat0"
}
