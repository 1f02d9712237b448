#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file (or stdin for `-`) read in fixed-size chunks into one growable buffer.
///
/// Bytes from `mark` (or `pos` when no mark is set) onwards stay in the buffer across refills,
/// so a value that spans chunk boundaries ends up contiguous. Owns its file descriptor.
final class ChunkedInput {
    let file: String
    private let fd: Int32
    private let ownsFD: Bool
    private let chunkSize: Int
    private(set) var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Next byte to read.
    var pos = 0
    /// End of the valid bytes in `buffer`.
    private(set) var end = 0
    /// Start of bytes that must survive a refill, if any.
    var mark: Int?
    /// 1-based line of `pos`, kept up to date by the callers that consume newlines.
    var line = 1
    private(set) var bytesRead = 0
    private(set) var atEOF = false

    static let defaultChunkSize = 4 << 20

    /// The most bytes one value (a feature) may hold in the buffer, from `mark`: 256 MiB. A
    /// larger one is refused (`InputError.Kind.tooLarge`) instead of read into memory whole.
    static let maxValueBytes = 256 << 20
    private let maxValueBytes: Int

    init(path: String, chunkSize: Int = ChunkedInput.defaultChunkSize,
         maxValueBytes: Int = ChunkedInput.maxValueBytes) throws(InputError) {
        precondition(chunkSize > 0)
        file = path
        self.chunkSize = chunkSize
        self.maxValueBytes = maxValueBytes
        if path == "-" {
            fd = 0
            ownsFD = false
        } else {
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            if opened < 0 {
                let code = errno
                let reason = String(cString: strerror(code))
                if code == ENOENT || code == ENOTDIR {
                    throw InputError(.fileNotFound, file: path, detail: reason)
                }
                throw InputError(.unreadable, file: path, detail: reason)
            }
            fd = opened
            ownsFD = true
        }
        capacity = chunkSize
        // malloc'd, so that growing is a realloc: a large block is then remapped, not copied
        // (a copy would hold the old and the new buffer at once).
        guard let memory = malloc(chunkSize) else { fatalError("out of memory") }
        buffer = memory.assumingMemoryBound(to: UInt8.self)
    }

    deinit {
        free(buffer)
        if ownsFD { close(fd) }
    }

    /// Size of a regular file in bytes; nil for anything else.
    var fileSize: Int? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Bytes available from `pos` without reading.
    @inline(__always) var available: Int { end - pos }

    /// True when a byte is available at `pos`, reading more if needed; false at end of input.
    @inline(__always) func ensure() throws(InputError) -> Bool {
        if pos < end { return true }
        return try refill()
    }

    /// Reads one more chunk, keeping bytes from `mark ?? pos`. False when nothing more came.
    func refill() throws(InputError) -> Bool {
        if atEOF { return false }
        let keep = mark ?? pos
        if keep > 0 {
            let tail = end - keep
            if tail > 0 { memmove(buffer, buffer + keep, tail) }
            end = tail
            pos -= keep
            if mark != nil { mark = 0 }
        }
        if let mark, end - mark >= maxValueBytes {
            let limit = maxValueBytes >= 1 << 20 ? "\(maxValueBytes >> 20) MiB" : "\(maxValueBytes) bytes"
            throw InputError(.tooLarge, file: file, detail: "a single feature holds more than \(limit), the most flyr reads as one feature")
        }
        if capacity - end < chunkSize {
            // Doubling, but not past what the largest value allowed needs.
            let newCapacity = Swift.max(Swift.min(capacity * 2, maxValueBytes + chunkSize), end + chunkSize)
            guard let grown = realloc(buffer, newCapacity) else {
                throw InputError(.tooLarge, file: file, detail: "out of memory for a feature of \(end) bytes")
            }
            buffer = grown.assumingMemoryBound(to: UInt8.self)
            capacity = newCapacity
        }
        while true {
            let n = read(fd, buffer + end, chunkSize)
            if n > 0 {
                end += n
                bytesRead += n
                return true
            }
            if n == 0 {
                atEOF = true
                return false
            }
            if errno == EINTR { continue }
            throw InputError(.unreadable, file: file, detail: String(cString: strerror(errno)))
        }
    }

    /// The bytes `from..<pos` (valid until the next refill).
    func bytes(from start: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: buffer + start, count: pos - start)
    }
}
