import GestureRecognizer
import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem

/// The mirror of one live pen (docs/gestures.md, "What apps receive: gesture clicks withheld"):
/// the uinput device that the compositor reads while pencild holds the pen's node grabbed.
/// Owns the virtual device; `close()` destroys it, which lets the kernel release whatever the
/// mirror held down.
final class PenMirror {
    let device: VirtualDevice
    /// The mirror's kernel name ("event12"), for Device.mirror.
    let kernelName: String?
    /// Its input device's sysfs folder, so that discovery never takes it for a pen.
    let syspath: String?

    /// The seat a mirror belongs to: a uinput device has no parent that udev could take an
    /// `ID_SEAT` from, so its compositor is seat0's whatever the pen's seat.
    static let seat = LogindSeat.main

    /// Declares the pen's pen codes only: a mirror can never type (a tablet's express keys,
    /// or any `KEY_*` a pen node declares, stay off it); and the eraser, without fuzz.
    init(of pen: LiveDevice) throws(Errno) {
        device = try VirtualDevice(description: pen.description.mirrorDescription(), phys: (pen.phys ?? "") + InputNodeFilter.mirrorPhysSuffix)
        kernelName = device.kernelName
        syspath = device.syspath
    }

    func write(_ events: [InputEvent]) throws(Errno) { try device.write(events) }

    func close() { device.close() }
}

/// What a pen's mirror should follow: the deciding user and their preferences.
struct MirrorWish: Equatable {
    var uid: UInt32
    var preferences: Preferences
}

extension DeviceHub {
    /// Each live pen's wish, as its deciding user's preferences have it now, settled at once
    /// where the pen is idle (else after its next frame that leaves it idle). A mirror that
    /// follows a user who no longer decides goes at once, idle or not: the kernel releases
    /// what it held, and the next user's wish is met when the pen is next idle. The deciding
    /// user's own change (withholding turned off included) waits for idle like any other.
    func refreshMirrors() {
        for device in devices where device.live != nil {
            let wanted = delegate?.deviceHub(self, mirrorWishForSeat: device.seat)
            if wanted != device.wantedMirror {
                device.wantedMirror = wanted
                // A new wish gets a new try, even after a failure.
                device.mirrorFailure = nil
            }
            // Who decides, not what they wish: a wish of none is also the owner's own.
            let decider = delegate?.deviceHub(self, decidingUserForSeat: device.seat)
            if device.mirror != nil, let owner = device.mirrorOwner, owner != decider {
                stopMirror(of: device, reason: "uid \(owner), whose preferences it followed, no longer decides for \(device.seat)")
            }
            settleMirror(of: device)
            announceChanges(of: device)
        }
    }

    /// Tells every monitor of a change of the pen's Device (its mirror came or went, or the tip
    /// is reported as another tool) with a deviceChanged.
    func announceChanges(of device: PenDevice) {
        let now = device.tipReportedAs
        guard now != device.announcedTipReportedAs else { return }
        device.announcedTipReportedAs = now
        guard devices.contains(where: { $0 === device }) else { return }
        let time = device.live != nil ? DeviceTime(sameInstantAs: self.now).microseconds : device.lastTime.microseconds
        delegate?.deviceHub(self, emit: [Event(type: .deviceChanged, time: time, device: device.id, deviceInfo: device.info)], toUser: nil)
    }

    /// An app of `uid` holds the focus or not: the mirrors following that user perform no
    /// switch while it does (it acts on gestures itself).
    func setAppHoldsFocus(_ held: Bool, uid: UInt32) {
        if held { focusHolders.insert(uid) } else { focusHolders.remove(uid) }
        for device in devices where device.mirrorOwner == uid {
            device.pipeline.stage.setMirrorOwnerAppHoldsFocus(held)
        }
    }

    /// Brings the pen's mirror to what is wanted, if the pen is idle: no tool in proximity and
    /// no key down, in what pencild has read and in the kernel's state (EVIOCGKEY).
    func settleMirror(of device: PenDevice) {
        guard let live = device.live else { return }
        let current = device.pipeline.stage.mirrorPreferences
        guard device.wantedMirror?.preferences != current || device.wantedMirror?.uid != device.mirrorOwner else { return }
        if device.wantedMirror != nil, device.mirrorFailure != nil { return }
        let state = device.pipeline.tracker.state
        guard state.tool == nil, state.buttons.isEmpty else { return }
        do {
            guard try !live.anyKeyDown() else { return }
        } catch {
            return
        }
        if let wanted = device.wantedMirror {
            guard device.seat == PenMirror.seat else {
                // Its clicks would move seat0's pointer in seat0's session (or its lock screen).
                failMirror(of: device, "the pen is on \(device.seat), and a mirror would belong to \(PenMirror.seat)'s compositor: only pens on \(PenMirror.seat) are mirrored")
                return
            }
            startMirror(of: device, live: live, wish: wanted)
        } else {
            stopMirror(of: device, reason: "withholdGestureClicks is off for the pen's deciding user")
        }
    }

    private func startMirror(of device: PenDevice, live: LiveDevice, wish: MirrorWish) {
        if device.mirror == nil {
            let mirror: PenMirror
            do {
                mirror = try PenMirror(of: live)
            } catch {
                let why: String
                switch error {
                case .permissionDenied, .notPermitted:
                    why = "no write access to /dev/uinput (\(error)): "
                        + (configuration.mode == .user
                           ? "a user's pencild may make mirrors only where an administrator gave that user /dev/uinput; the system service can"
                           : "the service needs DeviceAllow=/dev/uinput and access to the node")
                case .noSuchFile, .noDevice:
                    why = "there is no /dev/uinput (the uinput module is not loaded)"
                default:
                    why = "cannot make a uinput device: \(error)"
                }
                failMirror(of: device, why)
                return
            }
            do {
                try live.grab()
            } catch {
                mirror.close()
                failMirror(of: device, "cannot grab \(live.path): \(error)")
                return
            }
            device.mirror = mirror
            device.pipeline.setMirrorName(mirror.kernelName)
            if let syspath = mirror.syspath { mirrorSyspaths.insert(syspath) }
            logger.info("device \(device.id): gesture clicks withheld; apps read the mirror \(mirror.kernelName ?? "?")")
        }
        do {
            try device.pipeline.stage.setMirror(device: device.pipeline.tracker.deviceInfo, identity: device.identity,
                                                preferences: wish.preferences, owner: wish.uid)
            device.pipeline.stage.setMirrorOwnerAppHoldsFocus(focusHolders.contains(wish.uid))
            device.mirrorOwner = wish.uid
        } catch {
            // Stored preferences were validated: a bug, not the user's mistake.
            stopMirror(of: device, reason: "the preferences cannot make a recogniser: \(error)")
            return
        }
    }

    private func failMirror(of device: PenDevice, _ why: String) {
        device.mirrorFailure = why
        logger.warning("device \(device.id): gesture clicks cannot be withheld: \(why)")
    }

    /// Ungrabs the pen and destroys its mirror (the kernel releases what the mirror held).
    func stopMirror(of device: PenDevice, reason: String) {
        try? device.pipeline.stage.setMirror(device: device.pipeline.tracker.deviceInfo, identity: device.identity, preferences: nil, owner: nil)
        device.mirrorOwner = nil
        guard let mirror = device.mirror else { return }
        try? device.live?.ungrab()
        mirror.close()
        if let syspath = mirror.syspath { mirrorSyspaths.remove(syspath) }
        device.mirror = nil
        device.pipeline.setMirrorName(nil)
        logger.info("device \(device.id): its mirror is gone (\(reason)); apps read the pen again")
    }

    /// Writes what the mirror has for the step, first of all; a write that fails gives the pen
    /// back to every reader at once rather than leave apps without it. True when the step had
    /// frames for the mirror: a switch of the tool is among them, and is told (`announceChanges`)
    /// once the step's events have gone out.
    @discardableResult
    func writeMirror(of device: PenDevice, _ events: inout [InputEvent]) -> Bool {
        guard !events.isEmpty else { return false }
        defer { events.removeAll(keepingCapacity: true) }
        guard let mirror = device.mirror else { return true }
        do {
            try mirror.write(events)
        } catch {
            stopMirror(of: device, reason: "writing to it failed: \(error)")
            failMirror(of: device, "the mirror failed: \(error)")
        }
        return true
    }
}
