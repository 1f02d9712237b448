import Foundation

/// Sorting feature ids in String order (`<`), fast: when every id is ASCII, Swift's order is
/// the byte order, so ids are compared by their first 16 bytes packed into two integers and
/// only ties look at the rest. Otherwise it sorts with `String.<`. Equal ids keep input order.
public enum IDOrder {
    /// Indexes of `ids` in ascending id order; among equal ids, the lower index first.
    public static func sortedIndices(_ ids: [String]) -> [Int] {
        guard let (ascii, bytes) = asciiKeys(ids) else {
            return ids.indices.sorted { ids[$0] != ids[$1] ? ids[$0] < ids[$1] : $0 < $1 }
        }
        var keys = ascii
        bytes.withUnsafeBufferPointer { arena in
            // Captures only a pointer: no reference counting per comparison.
            let base = arena.baseAddress ?? UnsafePointer(bitPattern: 1)!
            keys.sort { a, b in
                if a.head != b.head { return a.head < b.head }
                if a.next != b.next { return a.next < b.next }
                if a.count > 16 && b.count > 16 {
                    let c = memcmp(base + a.offset + 16, base + b.offset + 16, Int(min(a.count, b.count)) - 16)
                    if c != 0 { return c < 0 }
                }
                return a.count != b.count ? a.count < b.count : a.index < b.index
            }
        }
        return keys.map { Int($0.index) }
    }

    /// `ranks[i]` is the position of `ids[i]` in `sortedIndices(ids)`.
    public static func ranks(_ ids: [String]) -> [Int32] {
        var r = [Int32](repeating: 0, count: ids.count)
        for (n, i) in sortedIndices(ids).enumerated() { r[i] = Int32(n) }
        return r
    }

    /// An id's first 16 bytes big-endian (zero-padded), where its bytes start in the arena,
    /// its length and index.
    private struct Key {
        var head: UInt64, next: UInt64
        var offset: Int
        var count: Int32, index: Int32
    }

    /// Keys for every id and the ids' bytes end to end, or nil when an id is not ASCII (byte
    /// order is then not String order).
    private static func asciiKeys(_ ids: [String]) -> ([Key], [UInt8])? {
        var keys: [Key] = []
        keys.reserveCapacity(ids.count)
        var bytes: [UInt8] = []
        for (i, id) in ids.enumerated() {
            var id = id
            let key: Key? = id.withUTF8 { p -> Key? in
                var head: UInt64 = 0, next: UInt64 = 0, high: UInt8 = 0
                for (j, byte) in p.enumerated() {
                    high |= byte
                    if j < 8 { head |= UInt64(byte) << (56 - 8 * j) } else if j < 16 { next |= UInt64(byte) << (56 - 8 * (j - 8)) }
                }
                guard high < 0x80 else { return nil }
                let offset = bytes.count
                if p.count > 16 { bytes.append(contentsOf: p) }
                return Key(head: head, next: next, offset: p.count > 16 ? offset : 0, count: Int32(p.count), index: Int32(i))
            }
            guard let key else { return nil }
            keys.append(key)
        }
        return (keys, bytes)
    }
}
