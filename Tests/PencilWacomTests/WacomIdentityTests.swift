import Foundation
import GestureRecognizer
import PencilDevices
import PencilInput
import PencilProtocol
import PencilTestSupport
import PencilWacom
import Testing

/// libwacom's own data files, read as text: what the tests compare pencild's look-ups with.
/// A `.tablet` file names a tablet and its matches (`usb:056a:005b`); its `Styli=` lists ids
/// and `@group`s of `libwacom.stylus`, whose sections are `[0x802]` with `Name=` and `Group=`.
struct LibwacomDataFiles {
    struct Tablet {
        var name: String
        var styli: Set<Int64>
    }

    var tablets: [String: Tablet] = [:]
    var styliNames: [Int64: String] = [:]
    /// The styli whose section has `EraserType=`: an eraser tool (or a pen whose eraser is a button).
    var erasers: Set<Int64> = []
    var paired: [Int64: [Int64]] = [:]

    /// The name pencild gives a tool: its own, or for an eraser end the name of the pen it is
    /// paired with (`PairedStylusIds=`).
    func penName(of id: Int64) -> String? {
        if erasers.contains(id), let pen = paired[id]?.first(where: { styliNames[$0] != nil && !erasers.contains($0) }) {
            return styliNames[pen]
        }
        return styliNames[id]
    }

    init(directory: String) throws {
        var groups: [String: Set<Int64>] = [:]
        var section: Int64?
        for line in try String(contentsOfFile: "\(directory)/libwacom.stylus", encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("["), line.hasSuffix("]"), let id = Int64(line.dropFirst(3).dropLast(), radix: 16) {
                section = id
            } else if let section, line.hasPrefix("Name=") {
                styliNames[section] = String(line.dropFirst(5))
            } else if let section, line.hasPrefix("Group=") {
                groups[String(line.dropFirst(6)), default: []].insert(section)
            } else if let section, line.hasPrefix("EraserType=") {
                erasers.insert(section)
            } else if let section, line.hasPrefix("PairedStylusIds=") {
                paired[section] = line.dropFirst(16).split(separator: ";").compactMap { Int64($0.dropFirst(2), radix: 16) }
            }
        }
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) where file.hasSuffix(".tablet") {
            var name = "", matches: [String] = [], styli = Set<Int64>()
            for line in try String(contentsOfFile: "\(directory)/\(file)", encoding: .utf8).split(separator: "\n") {
                if line.hasPrefix("Name=") { name = String(line.dropFirst(5)) }
                if line.hasPrefix("DeviceMatch=") {
                    matches = line.dropFirst(12).split(separator: ";").map { $0.split(separator: ":").prefix(3).joined(separator: ":").lowercased() }
                }
                if line.hasPrefix("Styli=") {
                    for entry in line.dropFirst(6).split(separator: ";") {
                        if entry.hasPrefix("@") { styli.formUnion(groups[String(entry.dropFirst())] ?? []) }
                        else if entry.hasPrefix("0x"), let id = Int64(entry.dropFirst(2), radix: 16) { styli.insert(id) }
                    }
                }
            }
            for match in matches where tablets[match] == nil { tablets[match] = Tablet(name: name, styli: styli) }
        }
    }

    func tablet(bus: Int, vendor: Int, product: Int) -> Tablet? {
        let busName: String
        switch bus {
        case 0x03: busName = "usb"
        case 0x05: busName = "bluetooth"
        case 0x18: busName = "i2c"
        default: return nil
        }
        return tablets[String(format: "%@:%04x:%04x", busName, vendor, product)]
    }
}

@Suite("libwacom: which tablet, which pen", .requires(.libwacomData))
struct WacomIdentityTests {
    static let database = WacomDatabase.load()

    @Test("every shared recording's tablet and tools have the names libwacom's data files give",
          .requires(.recordings, .libwacomData), arguments: SharedRecordings.all.map(\.events))
    func recordingsHaveLibwacomsNames(file: String) throws {
        let desc = SharedRecordings.all.first { $0.events == file }?.desc
        let recording = try EvemuRecording.load(path: SharedRecordings.path(file), descriptionPath: desc.map(SharedRecordings.path))
        let device = recording.description
        let files = try LibwacomDataFiles(directory: Prerequisite.libwacomDataDirectory)
        let database = try #require(Self.database)
        let identity = database.identity(of: device)
        let expected = files.tablet(bus: device.bus, vendor: device.vendor, product: device.product)
        #expect(identity.model == expected?.name)

        let events = try PenPipeline.events(of: recording.events, description: device, identity: identity)
        let entered = events.filter { $0.type == .proximityIn }
        #expect(!entered.isEmpty)
        for event in entered {
            let tool = try #require(event.tool)
            // A tool the tablet's Styli list names has that stylus's name (an eraser end, its
            // pen's); any other, none.
            let expectedName = expected.flatMap { $0.styli.contains(tool.id) ? files.penName(of: tool.id) : nil }
            #expect(event.stylus?.name == expectedName, "tool id \(String(tool.id, radix: 16)) at \(event.time)")
        }
        // Events other than proximityIn never carry a stylus.
        #expect(events.allSatisfy { $0.type == .proximityIn || $0.stylus == nil })
    }

    @Test("the Cintiq 22HDT is the Cintiq 22HD touch, and its pens are named")
    func cintiqIsNamed() throws {
        let database = try #require(Self.database)
        let identity = database.identity(node: nil, bus: 0x03, vendor: 0x056a, product: 0x005b)
        #expect(identity.model == "Wacom Cintiq 22HD touch")
        #expect(identity.styli[0x100802] == Stylus(name: "Grip Pen", kind: .general, buttons: 2, eraser: .invert))
        #expect(!identity.eraserIsButton)
    }

    @Test("an eraser end is its pen, not a pen of its own (a Cintiq's Grip Pen turned round)")
    func eraserEndIsItsPen() throws {
        let database = try #require(Self.database)
        let cintiq = database.identity(node: nil, bus: 0x03, vendor: 0x056a, product: 0x005b)
        let pen = Stylus(name: "Grip Pen", kind: .general, buttons: 2, eraser: .invert)
        // libwacom lists the eraser end apart, as "Grip Pen Eraser", paired with the pen.
        #expect(cintiq.styli[0x10080a] == pen)
        #expect(cintiq.styli[0x100802] == pen)
        // A pen used at both ends is one stylus seen, and each end's proximityIn names it.
        let device = TestDevice.intuos5Pen.description
        let identity = database.identity(of: device)
        var script = PenScript(device: device)
        script.approach()
        script.wait(ms: 20)
        script.leave()
        script.wait(ms: 200)
        script.approach(tool: .eraser)
        script.wait(ms: 20)
        script.leave()
        var tracker = PenTracker(description: device, id: "event7", identity: identity)
        var frame = PenFrame()
        var entered: [Event] = []
        tracker.start(at: 0, into: &frame)
        for event in script.events where tracker.feed(event, into: &frame) {
            entered += frame.events.filter { $0.type == .proximityIn }
        }
        #expect(entered.map(\.tool?.type) == [.pen, .eraser])
        #expect(entered.map(\.stylus) == [pen, pen])
        #expect(tracker.listedDeviceInfo.styli == [pen])
        // An eraser that is a button (AES) has no pen to be paired with: it stays itself.
        #expect(database.stylus(id: 0x1)?.name == "AES Pen")
    }

    @Test("an AES tablet's pens have an eraser that is a button, and it is among the device's buttons")
    func aesEraserIsAButton() throws {
        let device = TestDevice.hid4800Pen.description
        let identity = try #require(Self.database).identity(of: device)
        #expect(identity.model == "Wacom ISDv4 4800")
        #expect(identity.eraserIsButton)
        #expect(device.penDeviceInfo(id: "event9", identity: identity).buttons.contains(.eraser))
        // Positive control beside it: without libwacom the same device has no eraser button.
        #expect(!device.penDeviceInfo(id: "event9").buttons.contains(.eraser))
    }

    @Test("a tool id of 0 and libwacom's generic styli are no stylus")
    func genericStyliAreNone() throws {
        let database = try #require(Self.database)
        #expect(database.stylus(id: 0) == nil)
        #expect(database.stylus(id: 0xfffff) == nil)
        #expect(database.stylus(id: 0xffffe) == nil)
        #expect(database.stylus(id: 0xffffd) == nil)
        // The positive control: a real pen's id is one.
        #expect(database.stylus(id: 0x802)?.name == "Grip Pen")
    }

    @Test("a Pro Pen 3 has three buttons")
    func proPen3() throws {
        let device = TestDevice.cintiqPro27Pen.description
        let identity = try #require(Self.database).identity(of: device)
        #expect(identity.model == "Wacom Cintiq Pro 27")
        #expect(identity.styli[0x200] == Stylus(name: "Pro Pen 3", kind: .general, buttons: 3, eraser: .none))
    }

    @Test("an empty data directory is a database that knows nothing")
    func emptyDatabase() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pencild-wacom-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = WacomDatabase.load(dataDirectory: directory.path)
        let identity = database?.identity(node: nil, bus: 0x03, vendor: 0x056a, product: 0x005b) ?? .unknown
        #expect(identity == .unknown)
        #expect(database?.stylus(id: 0x802) == nil)
    }
}
