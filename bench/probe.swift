// probe: the benchmarks' measuring readers. One small program, built with swiftc -O by
// bench/run.sh, so that every reader measured costs the same and little:
//
//   probe evdev NODE OUT             every frame of an evdev node: kernel time, receipt time,
//                                    tip state; until the tool leaves proximity
//   probe monitor SOCKET OUT         pencild's Monitor stream: type, event time, receipt time;
//                                    until a proximityOut
//   probe lines OUT                  lines on stdin (libinput debug-events through a pipe):
//                                    receipt time and the line; until end of input
//   probe count SOCKET CLIENTS OUT   CLIENTS Monitor streams at once: messages and bytes each,
//                                    and the time until every one has seen deviceRemoved
//
// Times are CLOCK_MONOTONIC microseconds, the clock the kernel stamps evdev events with.
// Samples are kept in memory and written to OUT at the end, so measuring does no file I/O.
// Every mode gives up after 120 s without input.
#if canImport(Glibc)
import Glibc
#endif

func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1_000
}

func fail(_ message: String) -> Never {
    let text = "probe: \(message)\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(1)
}

func writeFile(_ path: String, _ text: String) {
    guard let file = fopen(path, "w") else { fail("cannot write \(path): \(String(cString: strerror(errno)))") }
    fputs(text, file)
    fclose(file)
}

/// Waits until `fd` is readable; false after `seconds` of nothing.
func waitReadable(_ fd: Int32, seconds: Int32 = 120) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while true {
        let result = poll(&entry, 1, seconds * 1000)
        if result < 0 && errno == EINTR { continue }
        return result > 0
    }
}

func connectUnix(_ path: String) -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { fail("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { fail("socket path too long: \(path)") }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in bytes.enumerated() { raw[index] = byte }
    }
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard result == 0 else { fail("connect \(path): \(String(cString: strerror(errno)))") }
    return fd
}

func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let sent = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if sent < 0 && errno == EINTR { continue }
        guard sent > 0 else { fail("write: \(String(cString: strerror(errno)))") }
        offset += sent
    }
}

let monitorCall = Array(#"{"method":"org.pencild.Pen.Monitor","parameters":{},"more":true}"#.utf8) + [0]

/// The value of `"key":` in a JSON message: a string's contents or a number's digits.
func field(_ key: String, in message: ArraySlice<UInt8>) -> String? {
    let pattern = Array("\"\(key)\":".utf8)
    guard message.count >= pattern.count else { return nil }
    var index = message.startIndex
    while index <= message.endIndex - pattern.count {
        if message[index] == pattern[0] && message[index..<(index + pattern.count)].elementsEqual(pattern) {
            var start = index + pattern.count
            if start < message.endIndex && message[start] == UInt8(ascii: "\"") {
                start += 1
                var end = start
                while end < message.endIndex && message[end] != UInt8(ascii: "\"") { end += 1 }
                return String(decoding: message[start..<end], as: UTF8.self)
            }
            var end = start
            while end < message.endIndex, message[end] == UInt8(ascii: "-") || (message[end] >= 48 && message[end] <= 57) { end += 1 }
            return String(decoding: message[start..<end], as: UTF8.self)
        }
        index += 1
    }
    return nil
}

// MARK: Modes

/// struct input_event on 64-bit Linux: timeval (two longs), type, code, value.
func evdevMode(node: String, out: String) {
    let fd = open(node, O_RDONLY)
    guard fd >= 0 else { fail("open \(node): \(String(cString: strerror(errno)))") }
    // evdev stamps with CLOCK_REALTIME unless asked (EVIOCSCLOCKID, _IOW('E', 0xa0, int)); the
    // receipt times are CLOCK_MONOTONIC, as libevdev in pencild and libinput ask for.
    var clock = CLOCK_MONOTONIC
    let setClock: UInt = (1 << 30) | (UInt(MemoryLayout<Int32>.size) << 16) | (UInt(UInt8(ascii: "E")) << 8) | 0xa0
    guard ioctl(fd, setClock, &clock) == 0 else { fail("EVIOCSCLOCKID on \(node): \(String(cString: strerror(errno)))") }
    let eventSize = 24
    var buffer = [UInt8](repeating: 0, count: eventSize * 256)
    var lines: [String] = []
    lines.reserveCapacity(8192)
    var touching = 0
    var tool = 0
    var seenTool = false
    reading: while waitReadable(fd) {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        let receipt = now()
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        for offset in stride(from: 0, to: count - eventSize + 1, by: eventSize) {
            let (seconds, microseconds, type, code, value) = buffer.withUnsafeBytes { raw in
                (raw.load(fromByteOffset: offset, as: Int.self), raw.load(fromByteOffset: offset + 8, as: Int.self),
                 raw.load(fromByteOffset: offset + 16, as: UInt16.self), raw.load(fromByteOffset: offset + 18, as: UInt16.self),
                 raw.load(fromByteOffset: offset + 20, as: Int32.self))
            }
            if type == 1 && code == 0x14a { touching = Int(value) }
            if type == 1 && code == 0x140 { tool = Int(value); if value == 1 { seenTool = true } }
            if type == 0 && code == 0 {
                let kernel = Int64(seconds) * 1_000_000 + Int64(microseconds)
                lines.append("\(kernel) \(receipt) \(touching)")
                if seenTool && tool == 0 { break reading }
            }
        }
    }
    writeFile(out, lines.joined(separator: "\n") + "\n")
}

func monitorMode(socketPath: String, out: String) {
    let fd = connectUnix(socketPath)
    sendAll(fd, monitorCall)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var pending: [UInt8] = []
    var lines: [String] = []
    lines.reserveCapacity(8192)
    reading: while waitReadable(fd) {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        let receipt = now()
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        pending.append(contentsOf: buffer[0..<count])
        var start = 0
        while let end = pending[start...].firstIndex(of: 0) {
            let message = pending[start..<end]
            start = end + 1
            if field("error", in: message) != nil { fail("Monitor: \(String(decoding: message, as: UTF8.self))") }
            let type = field("type", in: message) ?? "?"
            let time = field("time", in: message) ?? "0"
            lines.append("\(type) \(time) \(receipt)")
            if type == "proximityOut" { break reading }
        }
        pending.removeFirst(start)
    }
    writeFile(out, lines.joined(separator: "\n") + "\n")
}

func linesMode(out: String) {
    var lines: [String] = []
    lines.reserveCapacity(8192)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var pending: [UInt8] = []
    while waitReadable(0) {
        let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        let receipt = now()
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        pending.append(contentsOf: buffer[0..<count])
        var start = 0
        while let end = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[start..<end], as: UTF8.self)
            start = end + 1
            lines.append("\(receipt)\t\(line)")
        }
        pending.removeFirst(start)
    }
    writeFile(out, lines.joined(separator: "\n") + "\n")
}

func countMode(socketPath: String, clients: Int, out: String) {
    let marker = Array("\"deviceRemoved\"".utf8)
    var fds: [Int32] = []
    for _ in 0..<clients { fds.append(connectUnix(socketPath)) }
    let start = now()
    for fd in fds { sendAll(fd, monitorCall) }
    var messages = [Int](repeating: 0, count: clients)
    var bytes = [Int](repeating: 0, count: clients)
    var tails = [[UInt8]](repeating: [], count: clients)
    var finishedAt = [Int64?](repeating: nil, count: clients)
    var firstByte: Int64?
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var polls = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    while finishedAt.contains(where: { $0 == nil }) {
        let ready = poll(&polls, nfds_t(polls.count), 120_000)
        if ready < 0 && errno == EINTR { continue }
        guard ready > 0 else { fail("no input for 120 s") }
        for index in polls.indices where polls[index].revents != 0 {
            let count = buffer.withUnsafeMutableBytes { read(fds[index], $0.baseAddress, $0.count) }
            if count <= 0 {
                if finishedAt[index] == nil { fail("client \(index): the daemon closed the connection early") }
                polls[index].fd = -1
                continue
            }
            if firstByte == nil { firstByte = now() }
            bytes[index] += count
            for byte in buffer[0..<count] where byte == 0 { messages[index] += 1 }
            // deviceRemoved may straddle two reads: search the previous read's tail too.
            let window = tails[index] + buffer[0..<count]
            if finishedAt[index] == nil, window.count >= marker.count,
               (0...(window.count - marker.count)).contains(where: { window[$0..<($0 + marker.count)].elementsEqual(marker) }) {
                finishedAt[index] = now()
                polls[index].fd = -1
            }
            tails[index] = Array(window.suffix(marker.count))
        }
    }
    let end = finishedAt.compactMap { $0 }.max() ?? now()
    var text = "clients \(clients)\nelapsed_us \(end - start)\nfirst_byte_us \((firstByte ?? end) - start)\n"
    text += "messages_min \(messages.min() ?? 0)\nmessages_max \(messages.max() ?? 0)\nbytes_total \(bytes.reduce(0, +))\n"
    writeFile(out, text)
    for fd in fds { close(fd) }
}

// MARK: Main

let arguments = Array(CommandLine.arguments.dropFirst())
switch (arguments.first, arguments.count) {
case ("evdev", 3): evdevMode(node: arguments[1], out: arguments[2])
case ("monitor", 3): monitorMode(socketPath: arguments[1], out: arguments[2])
case ("lines", 2): linesMode(out: arguments[1])
case ("count", 4):
    guard let clients = Int(arguments[2]), clients > 0, clients <= 1024 else { fail("CLIENTS: 1 to 1024") }
    countMode(socketPath: arguments[1], clients: clients, out: arguments[3])
default:
    fail("usage: probe evdev NODE OUT | monitor SOCKET OUT | lines OUT | count SOCKET CLIENTS OUT")
}
