/// Numbers the distinct texts of a column read many times (street names, house numbers,
/// units: a city's hundreds of thousands of values hold a few thousand distinct ones), each
/// in the order first seen. Texts are told apart by their UTF-8 bytes: two that Swift takes as
/// equal (a composed and a decomposed accent) get two numbers. Open addressing over a seeded multiply-rotate hash of the UTF-8
/// bytes, eight at a time: a `Dictionary<String, _>` hashes each look-up with SipHash through
/// the `Hasher` protocol, several times the cost at these lengths. The seed is random per
/// table, so texts chosen to collide cannot be prepared in advance.
public struct TextNumbers {
    /// The distinct texts, by number.
    public private(set) var texts: [String] = []
    private var hashes: [UInt64] = []
    /// By slot: the number of the text there, -1 when empty.
    private var slots: [Int32]
    private var mask: Int
    private let seed: UInt64

    public init(capacity: Int = 64) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        seed = UInt64.random(in: 1...UInt64.max) | 1
    }

    public var count: Int { texts.count }

    /// The number of `text`, given it (the next number) when it is new.
    public mutating func number(_ text: String) -> Int32 {
        let h = hash(text)
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let n = slots[i]
            if n < 0 { break }
            if hashes[Int(n)] == h && texts[Int(n)] == text { return n }
            i = (i + 1) & mask
        }
        let n = Int32(texts.count)
        slots[i] = n
        texts.append(text); hashes.append(h)
        if texts.count * 2 > slots.count { grow() }
        return n
    }

    /// The number of `text` when it has one, without giving it one.
    public func existing(_ text: String) -> Int32? {
        let h = hash(text)
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let n = slots[i]
            if n < 0 { return nil }
            if hashes[Int(n)] == h && texts[Int(n)] == text { return n }
            i = (i + 1) & mask
        }
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        mask = slots.count - 1
        for (n, h) in hashes.enumerated() {
            var i = Int(truncatingIfNeeded: h) & mask
            while slots[i] >= 0 { i = (i + 1) & mask }
            slots[i] = Int32(n)
        }
    }

    private func hash(_ text: String) -> UInt64 {
        if let h = text.utf8.withContiguousStorageIfAvailable({ hashBytes(UnsafeRawBufferPointer($0)) }) { return h }
        return Array(text.utf8).withUnsafeBytes { hashBytes($0) }
    }

    private func hashBytes(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let m: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = seed ^ UInt64(bytes.count) &* m
        var at = 0
        while at + 8 <= bytes.count {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) &* m
            h ^= h >> 29
            at += 8
        }
        if at < bytes.count {
            var tail: UInt64 = 0
            for k in at..<bytes.count { tail |= UInt64(bytes[k]) << (8 * UInt64(k - at)) }
            h = (h ^ tail) &* m
        }
        h ^= h >> 32
        h = h &* 0xD6E8_FEB8_6659_FD93
        return h ^ (h >> 32)
    }
}

/// A value worked out once per distinct text (`TextNumbers` telling the texts apart), for a
/// column whose few distinct values each cost something to turn into it.
public struct TextMemo<Value> {
    private var numbers = TextNumbers()
    private var values: [Value] = []

    public init() {}

    /// The value of `text`: `make(text)` the first time it is seen, the same value after.
    public mutating func value(_ text: String, _ make: (String) -> Value) -> Value {
        let n = Int(numbers.number(text))
        if n == values.count { values.append(make(text)) }
        return values[n]
    }
}
