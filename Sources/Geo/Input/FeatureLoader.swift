#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which features a load keeps.
public struct LoadOptions: Sendable {
    /// Keep only features whose bounding box intersects this one (touching counts), as the
    /// Overture CLI selects them. Nil keeps everything.
    public var bbox: BBox?
    public init(bbox: BBox? = nil) { self.bbox = bbox }
}

/// The features read from one or more files.
public struct Loaded<T: Sendable>: Sendable {
    /// Features in order of first appearance, each id once.
    public var features: [T]
    /// Repeats of an id with the same geometry (from overlapping extracts) that were dropped.
    public var duplicatesSkipped: Int
    /// Bytes read over all files.
    public var bytesRead: Int

    public init(features: [T] = [], duplicatesSkipped: Int = 0, bytesRead: Int = 0) {
        self.features = features; self.duplicatesSkipped = duplicatesSkipped; self.bytesRead = bytesRead
    }
}

public func loadBuildings(_ paths: [String], options: LoadOptions = .init()) throws(InputError) -> Loaded<Building> {
    try loadFeatures(Building.self, from: paths, options: options)
}

public func loadAddresses(_ paths: [String], options: LoadOptions = .init()) throws(InputError) -> Loaded<Address> {
    try loadFeatures(Address.self, from: paths, options: options)
}

public func loadSegments(_ paths: [String], options: LoadOptions = .init()) throws(InputError) -> Loaded<Segment> {
    try loadFeatures(Segment.self, from: paths, options: options)
}

/// Reads every file in turn and merges them: an id seen again with the same geometry is
/// skipped, with a different geometry it is an `InputError.Kind.conflictingID`.
public func loadFeatures<F: OvertureFeature>(_ type: F.Type, from paths: [String],
                                             options: LoadOptions = .init()) throws(InputError) -> Loaded<F> {
    try loadFeatures(type, from: paths, options: options, chunkSize: ChunkedInput.defaultChunkSize)
}

func loadFeatures<F: OvertureFeature>(_: F.Type, from paths: [String], options: LoadOptions,
                                      chunkSize: Int) throws(InputError) -> Loaded<F> {
    var result = Loaded<F>(features: [], duplicatesSkipped: 0, bytesRead: 0)
    var seen = IDTable()
    // Where each kept feature was read: file number and feature index, for error messages.
    var firstSeen: [(file: Int32, featureIndex: Int32)] = []
    for (fileNumber, path) in paths.enumerated() {
        let reader = try GeoJSONReader<F>(path: path, chunkSize: chunkSize)
        if let size = reader.fileSize {
            // Overture features take a few hundred bytes each; sizing up front avoids regrowing.
            seen.reserve(seen.count + size / 384)
            // Room for more features than the file can hold at 256 bytes each: the array is
            // never copied to a larger one, and the pages of the room left unused are never
            // touched (the system gives them on first write).
            result.features.reserveCapacity(result.features.count + size / 256)
        }
        while let feature = try reader.next() {
            if let bbox = options.bbox, !feature.bbox.intersects(bbox) { continue }
            let next = try CheckedCount.int32(result.features.count, "features in one layer", file: path)
            let slot = seen.insert(feature.id, slot: next) { result.features[Int($0)].id }
            if slot < result.features.count {
                guard result.features[slot].hasSameGeometry(as: feature) else {
                    let first = firstSeen[slot]
                    throw InputError(.conflictingID, file: path, line: reader.featureLine,
                                     featureIndex: reader.featureIndex, featureID: feature.id,
                                     detail: "id also in \(paths[Int(first.file)]) (feature \(first.featureIndex)) with a different geometry")
                }
                result.duplicatesSkipped += 1
                continue
            }
            firstSeen.append((Int32(fileNumber), try CheckedCount.int32(reader.featureIndex, "features in one file", file: path)))
            result.features.append(feature)
        }
        result.bytesRead += reader.bytesRead
    }
    return result
}

/// A set of ids by open addressing: each bucket holds the slot of a kept feature (-1 empty)
/// and the hash of its id, so a probe compares ids only when the hashes agree.
struct IDTable {
    private var buckets: [Int32] = []
    private var hashes: [UInt64] = []
    private var mask = 0
    private(set) var count = 0

    mutating func reserve(_ n: Int) {
        var capacity = 16
        while capacity < 2 * n { capacity <<= 1 }
        guard capacity > buckets.count else { return }
        let old = zip(buckets, hashes).filter { $0.0 >= 0 }
        buckets = [Int32](repeating: -1, count: capacity)
        hashes = [UInt64](repeating: 0, count: capacity)
        mask = capacity - 1
        for (slot, h) in old {
            var i = Int(truncatingIfNeeded: h) & mask
            while buckets[i] >= 0 { i = (i + 1) & mask }
            buckets[i] = slot; hashes[i] = h
        }
    }

    /// The slot already holding `id` (`idOf` gives a slot's id), or `slot` after adding it.
    mutating func insert(_ id: String, slot: Int32, idOf: (Int32) -> String) -> Int {
        insert(hash: IDTable.hash(id), slot: slot) { idOf($0) == id }
    }

    /// The slot already holding a key of hash `h` that `matches` accepts, or `slot` after
    /// adding it.
    mutating func insert(hash h: UInt64, slot: Int32, matches: (Int32) -> Bool) -> Int {
        if 2 * (count + 1) > buckets.count { reserve(max(count + 1, 2 * count)) }
        var i = Int(truncatingIfNeeded: h) & mask
        while buckets[i] >= 0 {
            if hashes[i] == h && matches(buckets[i]) { return Int(buckets[i]) }
            i = (i + 1) & mask
        }
        buckets[i] = slot; hashes[i] = h
        count += 1
        return Int(slot)
    }

    /// The slot holding a key of hash `h` that `matches` accepts; nil when there is none.
    func find(hash h: UInt64, matches: (Int32) -> Bool) -> Int32? {
        guard !buckets.isEmpty else { return nil }
        var i = Int(truncatingIfNeeded: h) & mask
        while buckets[i] >= 0 {
            if hashes[i] == h && matches(buckets[i]) { return buckets[i] }
            i = (i + 1) & mask
        }
        return nil
    }

    /// A 64-bit hash of the id's UTF-8 bytes (see `hash(bytes:)`).
    static func hash(_ id: String) -> UInt64 {
        var id = id
        return id.withUTF8 { hash(bytes: $0) }
    }

    /// A 64-bit hash of bytes, eight at a time.
    static func hash(bytes p: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(p.count)
        var j = 0
        while j + 8 <= p.count {
            h = (h ^ UnsafeRawPointer(p.baseAddress! + j).loadUnaligned(as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 29
            j += 8
        }
        var last: UInt64 = 0
        while j < p.count { last = last << 8 | UInt64(p[j]); j += 1 }
        h = (h ^ last) &* 0xC4CE_B9FE_1A85_EC53
        return h ^ (h >> 32)
    }
}

/// One `String` for each text that recurs from feature to feature (street names,
/// `address_levels`, segment names), so a city's repeats share one buffer instead of holding a
/// copy each. Texts of up to 15 bytes are stored inside the `String` itself and are not kept.
/// At most `limit` distinct texts are kept; later new ones are made as usual.
struct StringInterner {
    static let limit = 1 << 16
    /// The kept texts by hash, each slot an index into `values`.
    private var table = IDTable()
    private var values: [String] = []

    mutating func string(_ text: UnsafeBufferPointer<UInt8>) -> String {
        guard text.count > 15 else { return String(decoding: text, as: UTF8.self) }
        let h = IDTable.hash(bytes: text)
        let kept = values
        func matches(_ k: Int32) -> Bool {
            var value = kept[Int(k)]
            return value.withUTF8 { $0.count == text.count && memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 }
        }
        guard values.count < Self.limit else {
            return table.find(hash: h, matches: matches).map { values[Int($0)] } ?? String(decoding: text, as: UTF8.self)
        }
        let k = table.insert(hash: h, slot: Int32(values.count), matches: matches)
        if k == values.count { values.append(String(decoding: text, as: UTF8.self)) }
        return values[k]
    }
}
