import CEvdev
import PencilInput
import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// A live evdev device node, read through libevdev. All of pencild's libevdev pointer code
/// lives in this type.
///
/// The node is opened read-only, non-blocking and close-on-exec. It is grabbed only while a
/// mirror stands in for it (`grab()`); otherwise other readers (the compositor) see the pen too. Timestamps are CLOCK_MONOTONIC. Used from
/// one thread, the event loop's. The device owns its descriptor and its libevdev context:
/// `close()` (or deinit) frees both, once.
public final class LiveDevice: PenEventSource {
    public typealias ReadError = Errno

    public let path: String
    public let description: DeviceDescription
    /// The kernel's phys of the device ("usb-0000:00:14.0-1/input0"), if it has one: the
    /// mirror's is this followed by `-pencild`.
    public let phys: String?
    /// The descriptor to watch for readability; invalid after `close()`.
    public let fileDescriptor: FileDescriptor

    private var device: OpaquePointer?

    /// Opens `path` and reads what the device is. Errors are the system's: `.noSuchFile`,
    /// `.permissionDenied`, ENOTTY for a node that is not an evdev device, ...
    public init(path: String) throws(Errno) {
        let descriptor = try FileDescriptor.open(path, [.readOnly, .nonBlocking, .closeOnExec])
        var context: OpaquePointer?
        let created = libevdev_new_from_fd(descriptor.rawValue, &context)
        guard created == 0, let context else {
            descriptor.close()
            throw Errno(rawValue: created < 0 ? -created : EINVAL)
        }
        let clock = libevdev_set_clock_id(context, CLOCK_MONOTONIC)
        guard clock == 0 else {
            libevdev_free(context)
            descriptor.close()
            throw Errno(rawValue: clock < 0 ? -clock : EINVAL)
        }
        self.path = path
        self.fileDescriptor = descriptor
        self.device = context
        self.description = Self.describe(context)
        self.phys = libevdev_get_phys(context).map { String(cString: $0) }
    }

    /// Takes the node for pencild alone (EVIOCGRAB): while grabbed, the kernel hands its
    /// events to no other reader. The grab ends with the descriptor, whoever closes it.
    public func grab() throws(Errno) {
        guard let context = device else { throw Errno.noDevice }
        let result = libevdev_grab(context, LIBEVDEV_GRAB)
        if result < 0 { throw Errno(rawValue: -result) }
    }

    /// Gives the node back to every reader.
    public func ungrab() throws(Errno) {
        guard let context = device else { throw Errno.noDevice }
        let result = libevdev_grab(context, LIBEVDEV_UNGRAB)
        if result < 0 { throw Errno(rawValue: -result) }
    }

    /// Whether a key or button of the device is down now, as the kernel has it (EVIOCGKEY,
    /// not libevdev's copy, which lags behind unread events).
    public func anyKeyDown() throws(Errno) -> Bool {
        guard isOpen else { throw Errno.noDevice }
        let result = pencild_any_key_down(fileDescriptor.rawValue)
        if result < 0 { throw Errno(rawValue: -result) }
        return result == 1
    }

    deinit {
        close()
    }

    /// Frees libevdev's context and closes the descriptor; later calls do nothing.
    public func close() {
        guard let context = device else { return }
        device = nil
        libevdev_free(context)
        fileDescriptor.close()
    }

    public var isOpen: Bool { device != nil }

    /// Reads what the kernel has queued, up to `limit` items (`hostTime` is not needed: the
    /// kernel stamps the events). After SYN_DROPPED it hands out `.resynchronisation`, then
    /// the device's real state from libevdev's sync mode, ending with a SYN_REPORT; a sync
    /// is always read to its end, whatever the limit. Returns `.drained` at EAGAIN; throws
    /// ENODEV when the device was unplugged, and any other read error.
    public func read(at hostTime: HostTime = HostTime(microseconds: 0), limit: Int, _ handle: (SourceItem) -> Void) throws(Errno) -> SourceStatus {
        guard let context = device else { throw Errno.noDevice }
        var event = input_event()
        return try Self.drain(limit: limit, next: { sync in
            let flags = sync ? LIBEVDEV_READ_FLAG_SYNC : LIBEVDEV_READ_FLAG_NORMAL
            let status = libevdev_next_event(context, flags.rawValue, &event)
            let time = Int64(event.time.tv_sec) * 1_000_000 + Int64(event.time.tv_usec)
            return (status, InputEvent(time: time, type: event.type, code: event.code, value: event.value))
        }, handle)
    }

    /// The read loop, apart from libevdev so that tests can script it. `next(sync)` is
    /// libevdev_next_event in normal or sync mode: a status (0 an event, 1 a sync event or
    /// SYN_DROPPED, negative an errno) and the event.
    static func drain(limit: Int, next: (_ sync: Bool) -> (status: Int32, event: InputEvent),
                      _ handle: (SourceItem) -> Void) throws(Errno) -> SourceStatus {
        let success = Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue)
        let sync = Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue)
        var handed = 0
        while handed < limit {
            let (status, event) = next(false)
            if status == success {
                handle(.event(event))
                handed += 1
            } else if status == sync {
                // The event is SYN_DROPPED itself: the state follows in sync mode.
                handle(.resynchronisation)
                handed += 1
                while true {
                    let (syncStatus, syncEvent) = next(true)
                    if syncStatus == sync {
                        handle(.event(syncEvent))
                        handed += 1
                    } else if syncStatus == -EAGAIN {
                        break
                    } else if syncStatus < 0 {
                        throw Errno(rawValue: -syncStatus)
                    } else {
                        // libevdev documents only SYNC and -EAGAIN here; anything else ends the sync.
                        break
                    }
                }
            } else if status == -EAGAIN {
                return .drained
            } else if status < 0 {
                throw Errno(rawValue: -status)
            } else {
                throw Errno.invalidArgument
            }
        }
        return .more
    }

    /// Everything libevdev knows about the device, as plain data.
    private static func describe(_ context: OpaquePointer) -> DeviceDescription {
        let name = libevdev_get_name(context).map { String(cString: $0) } ?? ""
        var device = DeviceDescription(
            name: name,
            bus: Int(libevdev_get_id_bustype(context)), vendor: Int(libevdev_get_id_vendor(context)),
            product: Int(libevdev_get_id_product(context)), version: Int(libevdev_get_id_version(context)))
        for property in 0..<UInt32(INPUT_PROP_CNT) where libevdev_has_property(context, property) != 0 {
            device.properties.insert(UInt16(property))
        }
        for type in 0...UInt32(EventCode.EV_MAX) where libevdev_has_event_type(context, type) != 0 {
            if type == UInt32(EventCode.EV_SYN) {
                device.codes[EventCode.EV_SYN] = DeviceDescription.synchronisationCodes
                continue
            }
            let maximum = libevdev_event_type_get_max(type)
            guard maximum >= 0 else { continue }
            var codes = Set<UInt16>()
            for code in 0...UInt32(maximum) where libevdev_has_event_code(context, type, code) != 0 {
                codes.insert(UInt16(code))
            }
            device.codes[UInt16(type)] = codes
        }
        for code in device.codes[EventCode.EV_ABS] ?? [] {
            guard let info = libevdev_get_abs_info(context, UInt32(code))?.pointee else { continue }
            device.absInfo[code] = AbsInfo(minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz,
                                           flat: info.flat, resolution: info.resolution)
        }
        return device
    }
}
