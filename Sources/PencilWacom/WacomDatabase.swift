import CWacom
import PencilInput
import PencilProtocol
#if canImport(Glibc)
import Glibc
#endif

/// libwacom's database of tablets and styli, loaded once per process (it reads a few hundred
/// small files: milliseconds, about a megabyte) and asked when a device appears. What it
/// knows reaches the pure core as a `PenIdentity`; nothing is looked up per event.
///
/// The database owns every tablet and stylus it returns; this class owns the database and
/// frees it when it goes.
public final class WacomDatabase: @unchecked Sendable {
    private let database: OpaquePointer
    /// Every tablet's (bus, vendor, product) matches, for devices without a node (recordings)
    /// and nodes libwacom cannot place.
    private let tabletsByMatch: [Match: OpaquePointer]
    /// The list libwacom hands out, freed with the database.
    private let deviceList: UnsafeMutablePointer<OpaquePointer?>?

    /// A tablet's ids as libwacom matches them, the bus as the kernel numbers it.
    struct Match: Hashable {
        var bus: Int
        var vendor: Int
        var product: Int
    }

    /// Styli that libwacom uses when it knows nothing ("General Pen"): no tool is one of them.
    static let genericStylusIDs: Set<Int64> = [0xfffff, 0xffffe, 0xffffd]

    private init(database: OpaquePointer) {
        self.database = database
        var matches: [Match: OpaquePointer] = [:]
        let list = libwacom_list_devices_from_database(database, nil)
        var index = 0
        while let list, let device = list[index] {
            index += 1
            guard let tabletMatches = libwacom_get_matches(device) else { continue }
            var matchIndex = 0
            while let match = tabletMatches[matchIndex] {
                matchIndex += 1
                guard let bus = Self.kernelBus(libwacom_match_get_bustype(match)) else { continue }
                let key = Match(bus: bus, vendor: Int(libwacom_match_get_vendor_id(match)), product: Int(libwacom_match_get_product_id(match)))
                // The first tablet that claims the ids keeps them, as libwacom's own look-up does.
                if matches[key] == nil { matches[key] = device }
            }
        }
        deviceList = list
        tabletsByMatch = matches
    }

    deinit {
        free(deviceList)
        libwacom_database_destroy(database)
    }

    /// Loads the system's database, or the one in `dataDirectory` (tests; an empty folder is a
    /// database that knows nothing). Nil when none can be loaded: pencild then serves without
    /// models and styli.
    public static func load(dataDirectory: String? = nil) -> WacomDatabase? {
        let database: OpaquePointer?
        if let dataDirectory {
            database = libwacom_database_new_for_path(dataDirectory)
        } else {
            database = libwacom_database_new()
        }
        return database.map(WacomDatabase.init(database:))
    }

    /// How many tablets the database knows.
    public var tabletCount: Int { Set(tabletsByMatch.values.map { UInt(bitPattern: $0) }).count }

    /// What libwacom knows of a recorded device, by its ids (a recording has no node).
    public func identity(of recorded: DeviceDescription) -> PenIdentity {
        identity(node: nil, bus: recorded.bus, vendor: recorded.vendor, product: recorded.product)
    }

    /// What libwacom knows of a device: matched from its node when it has one, then from its
    /// ids. A device libwacom does not know gets `.unknown`.
    public func identity(node: String?, bus: Int, vendor: Int, product: Int) -> PenIdentity {
        if let node, let tablet = libwacom_new_from_path(database, node, WFALLBACK_NONE, nil) {
            defer { libwacom_destroy(tablet) }
            return identity(of: tablet)
        }
        guard let tablet = tabletsByMatch[Match(bus: bus, vendor: vendor, product: product)] else { return .unknown }
        return identity(of: tablet)
    }

    /// The stylus libwacom has for a tool id (any tablet's), or nil for 0, an unknown id or
    /// a generic stylus. An eraser end is the pen it belongs to (libwacom lists it apart, as
    /// "Grip Pen Eraser", paired with the pen): one pen, whose tool type says which end.
    public func stylus(id: Int64) -> Stylus? {
        guard let stylus = libwacomStylus(id: id) else { return nil }
        if libwacom_stylus_is_eraser(stylus) != 0, let pen = pairedPen(of: stylus) {
            return Self.stylus(pen)
        }
        return Self.stylus(stylus)
    }

    private func libwacomStylus(id: Int64) -> OpaquePointer? {
        guard id > 0, id <= Int64(Int32.max), !Self.genericStylusIDs.contains(id) else { return nil }
        return libwacom_stylus_get_for_id(database, Int32(id))
    }

    /// The first pen (not another eraser) an eraser tool is paired with.
    private func pairedPen(of eraser: OpaquePointer) -> OpaquePointer? {
        var count: Int32 = 0
        guard let ids = libwacom_stylus_get_paired_ids(eraser, &count) else { return nil }
        for index in 0..<Int(count) {
            if let pen = libwacomStylus(id: Int64(ids[index])), libwacom_stylus_is_eraser(pen) == 0 { return pen }
        }
        return nil
    }

    private func identity(of tablet: OpaquePointer) -> PenIdentity {
        var count: Int32 = 0
        var styli: [Int64: Stylus] = [:]
        var eraserIDs: [Int64: Int64] = [:]
        if let ids = libwacom_get_supported_styli(tablet, &count) {
            for index in 0..<Int(count) {
                let id = Int64(ids[index])
                if let stylus = stylus(id: id) { styli[id] = stylus }
                if let eraser = eraserID(ofPen: id) { eraserIDs[id] = eraser }
            }
        }
        let model = libwacom_get_name(tablet).map { String(cString: $0) }
        return PenIdentity(model: model, styli: styli, eraserIDs: eraserIDs)
    }

    /// The tool id of a pen's eraser end: the first eraser libwacom pairs with it.
    public func eraserID(ofPen id: Int64) -> Int64? {
        guard let pen = libwacomStylus(id: id), libwacom_stylus_is_eraser(pen) == 0 else { return nil }
        var count: Int32 = 0
        guard let ids = libwacom_stylus_get_paired_ids(pen, &count) else { return nil }
        for index in 0..<Int(count) {
            if let eraser = libwacomStylus(id: Int64(ids[index])), libwacom_stylus_is_eraser(eraser) != 0 {
                return Int64(ids[index])
            }
        }
        return nil
    }

    private static func stylus(_ stylus: OpaquePointer) -> Stylus {
        let name = libwacom_stylus_get_name(stylus).map { String(cString: $0) } ?? ""
        let kind: StylusKind
        switch libwacom_stylus_get_type(stylus) {
        case WSTYLUS_GENERAL, WSTYLUS_3D: kind = .general
        case WSTYLUS_INKING: kind = .inking
        case WSTYLUS_AIRBRUSH: kind = .airbrush
        case WSTYLUS_CLASSIC: kind = .classic
        case WSTYLUS_MARKER: kind = .marker
        case WSTYLUS_STROKE: kind = .stroke
        case WSTYLUS_PUCK: kind = .puck
        case WSTYLUS_MOBILE: kind = .mobile
        default: kind = .unknown
        }
        // A pen paired with an eraser tool has one at the other end; an eraser tool says of
        // itself which kind it is.
        let eraser: EraserKind
        switch libwacom_stylus_get_eraser_type(stylus) {
        case WACOM_ERASER_BUTTON: eraser = .button
        case WACOM_ERASER_INVERT: eraser = .invert
        default: eraser = libwacom_stylus_has_eraser(stylus) != 0 ? .invert : .none
        }
        return Stylus(name: name, kind: kind, buttons: Int(libwacom_stylus_get_num_buttons(stylus)), eraser: eraser)
    }

    /// libwacom's bus as linux/input.h numbers it.
    private static func kernelBus(_ bus: WacomBusType) -> Int? {
        switch bus {
        case WBUSTYPE_USB: return 0x03
        case WBUSTYPE_BLUETOOTH: return 0x05
        case WBUSTYPE_SERIAL: return 0x13
        case WBUSTYPE_I2C: return 0x18
        default: return nil
        }
    }
}
