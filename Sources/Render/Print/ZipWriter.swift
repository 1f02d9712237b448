import CZlib
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A ZIP archive that cannot be written, or an entry it cannot hold.
public struct ZipError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}

/// A ZIP archive written entry by entry, each entry stored as given (PNG and PDF are
/// compressed already) with its CRC-32 from zlib, so that only the central directory (about
/// 70 bytes an entry) stays in memory. ZIP64 records are added when the entries pass 65,535 or
/// an offset passes 4 GiB. Names are UTF-8; every entry is dated 1980-01-01 00:00, so that the
/// same entries make the same bytes. One file descriptor, closed by `finish()` (or by `deinit`
/// after a failure).
public final class ZipWriter {
    public let path: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var central: [UInt8] = []
    private var offset: UInt64 = 0
    public private(set) var count = 0

    /// Creates `path`, which must not exist.
    public init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ZipError(path: path, message: "cannot create: \(String(cString: strerror(errno)))") }
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit { if fd >= 0 { close(fd) } }

    private static let bufferSize = 1 << 20
    private static let stamp: (time: UInt16, date: UInt16) = (0, 1 << 5 | 1)

    /// Appends one stored entry. Names are relative paths without "..".
    public func add(name: String, data: Data) throws {
        let crc = data.withUnsafeBytes { raw in Self.crc(0, raw) }
        try startEntry(name: name, crc: crc, size: data.count)
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws in try write(raw) }
    }

    /// Appends the file at `file` as one stored entry, read twice in chunks (its CRC, then its
    /// bytes), never whole.
    public func add(name: String, file: String) throws {
        var crc: UInt32 = 0, size = 0
        try Self.chunks(of: file) { crc = Self.crc(crc, $0); size += $0.count }
        try startEntry(name: name, crc: crc, size: size)
        try Self.chunks(of: file) { (raw: UnsafeRawBufferPointer) throws in try write(raw) }
    }

    private static func crc(_ start: UInt32, _ raw: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(crc32(uLong(start), raw.bindMemory(to: Bytef.self).baseAddress, uInt(raw.count)))
    }

    private static func chunks(of file: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ZipError(path: file, message: "cannot read: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let n = read(fd, chunk.baseAddress, bufferSize)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw ZipError(path: file, message: "cannot read: \(String(cString: strerror(errno)))") }
            if n == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
        }
    }

    /// Writes an entry's local header and records its central one; its bytes follow.
    private func startEntry(name: String, crc: UInt32, size byteCount: Int) throws {
        let nameBytes = Array(name.utf8)
        guard !nameBytes.isEmpty, nameBytes.count <= 0xFFFF, nameBytes.first != UInt8(ascii: "/"),
              !name.split(separator: "/").contains("..") else {
            throw ZipError(path: path, message: "bad entry name \"\(name)\"")
        }
        guard byteCount < 0xFFFF_FFFF else { throw ZipError(path: path, message: "entry \(name) is 4 GiB or more") }
        let size = UInt32(byteCount)
        let localOffset = offset
        var local: [UInt8] = []
        local.reserveCapacity(30 + nameBytes.count)
        Self.put32(&local, 0x0403_4b50)
        Self.put16(&local, 20)
        Self.putEntryFields(&local, crc: crc, size: size, nameLength: nameBytes.count, extraLength: 0)
        local += nameBytes
        try write(local)

        let big = localOffset >= 0xFFFF_FFFF
        Self.put32(&central, 0x0201_4b50)
        Self.put16(&central, 3 << 8 | 45)
        Self.put16(&central, big ? 45 : 20)
        Self.putEntryFields(&central, crc: crc, size: size, nameLength: nameBytes.count, extraLength: big ? 12 : 0)
        Self.put16(&central, 0)
        Self.put16(&central, 0)
        Self.put16(&central, 0)
        Self.put32(&central, UInt32(0o100644) << 16)
        Self.put32(&central, big ? 0xFFFF_FFFF : UInt32(localOffset))
        central += nameBytes
        if big {
            Self.put16(&central, 1)
            Self.put16(&central, 8)
            Self.put64(&central, localOffset)
        }
        count += 1
    }

    /// Writes the central directory and the end records, flushes the file to disk and closes it.
    public func finish() throws {
        let directoryOffset = offset
        try write(central)
        let directorySize = UInt64(central.count)
        central = []
        var end: [UInt8] = []
        if count >= 0xFFFF || directoryOffset >= 0xFFFF_FFFF || directorySize >= 0xFFFF_FFFF {
            let zip64End = offset
            Self.put32(&end, 0x0606_4b50)
            Self.put64(&end, 44)
            Self.put16(&end, 45)
            Self.put16(&end, 45)
            Self.put32(&end, 0)
            Self.put32(&end, 0)
            Self.put64(&end, UInt64(count))
            Self.put64(&end, UInt64(count))
            Self.put64(&end, directorySize)
            Self.put64(&end, directoryOffset)
            Self.put32(&end, 0x0706_4b50)
            Self.put32(&end, 0)
            Self.put64(&end, zip64End)
            Self.put32(&end, 1)
        }
        Self.put32(&end, 0x0605_4b50)
        Self.put32(&end, 0)
        Self.put16(&end, UInt16(min(count, 0xFFFF)))
        Self.put16(&end, UInt16(min(count, 0xFFFF)))
        Self.put32(&end, UInt32(min(directorySize, 0xFFFF_FFFF)))
        Self.put32(&end, UInt32(min(directoryOffset, 0xFFFF_FFFF)))
        Self.put16(&end, 0)
        try write(end)
        try flush()
        guard fsync(fd) == 0 else { throw failure("cannot sync") }
        let result = close(fd)
        fd = -1
        guard result == 0 else { throw failure("cannot close") }
    }

    /// Fields shared by the local and the central header, from "flags" to "extra length".
    private static func putEntryFields(_ out: inout [UInt8], crc: UInt32, size: UInt32, nameLength: Int, extraLength: Int) {
        put16(&out, 1 << 11)
        put16(&out, 0)
        put16(&out, stamp.time)
        put16(&out, stamp.date)
        put32(&out, crc)
        put32(&out, size)
        put32(&out, size)
        put16(&out, UInt16(nameLength))
        put16(&out, UInt16(extraLength))
    }

    private static func put16(_ out: inout [UInt8], _ v: UInt16) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private static func put32(_ out: inout [UInt8], _ v: UInt32) { for i in 0..<4 { out.append(UInt8(v >> (8 * i) & 0xFF)) } }
    private static func put64(_ out: inout [UInt8], _ v: UInt64) { for i in 0..<8 { out.append(UInt8(v >> (8 * i) & 0xFF)) } }

    private func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws in try write(raw) }
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws {
        offset += UInt64(bytes.count)
        if buffer.count + bytes.count > Self.bufferSize { try flush() }
        if bytes.count >= Self.bufferSize { try writeAll(bytes) } else { buffer.append(contentsOf: bytes) }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws in try writeAll(raw) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw failure("cannot write") }
            done += n
        }
    }

    private func failure(_ what: String) -> ZipError {
        ZipError(path: path, message: "\(what): \(String(cString: strerror(errno)))")
    }
}
