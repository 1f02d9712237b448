import Foundation
import Geo

/// A geometry as stored in a GeoPackage: the "GP" header (version 0, little-endian, an XY
/// envelope, SRS id) followed by ISO WKB (little-endian). GeoPackage 1.4, clause 2.1.3.
public enum GeoPackageGeometry: Equatable, Sendable {
    case point(Coord)
    case lineString([Coord])
    case multiPolygon([PolygonCoords])

    static let wkbPoint: UInt32 = 1, wkbLineString: UInt32 = 2, wkbPolygon: UInt32 = 3, wkbMultiPolygon: UInt32 = 6

    public var envelope: BBox {
        switch self {
        case .point(let c): return BBox(around: c, radius: 0)
        case .lineString(let l): return BBox(covering: l)
        case .multiPolygon(let ps):
            var b = BBox.empty
            for p in ps { if let shell = p.rings.first { for c in shell { b.expand(c) } } }
            return b
        }
    }

    /// The GeoPackage binary: header with envelope, then ISO WKB.
    public func encode(srsID: Int32 = 4326) -> Data {
        var w = ByteWriter()
        encode(into: &w, srsID: srsID)
        return w.data
    }

    /// Appends the GeoPackage binary to `w`; `envelope`, when the caller knows it, saves a pass
    /// over the coordinates.
    func encode(into w: inout ByteWriter, srsID: Int32 = 4326, envelope known: BBox? = nil) {
        let empty: Bool
        switch self {
        case .point: empty = false
        case .lineString(let l): empty = l.isEmpty
        case .multiPolygon(let p): empty = p.isEmpty
        }
        Self.writeHeader(&w, srsID: srsID, envelope: empty ? nil : known ?? envelope)
        writeWKB(&w)
    }

    /// A building's footprint as a MultiPolygon, the same bytes as `.multiPolygon(f.polygons)`
    /// without making the nested arrays.
    static func encode(_ f: Footprint, into w: inout ByteWriter, srsID: Int32 = 4326, envelope known: BBox? = nil) {
        writeHeader(&w, srsID: srsID, envelope: f.partCount == 0 ? nil : known ?? f.shellBox)
        writeMultiPolygonWKB(&w, parts: f.partCount) { f.partRings($0).lazy.map { f.coords[f.ringRange($0)] } }
    }

    /// "GP", version 0, flags, SRS id and the envelope (nil: an empty geometry).
    private static func writeHeader(_ w: inout ByteWriter, srsID: Int32, envelope e: BBox?) {
        w.byte(0x47); w.byte(0x50); w.byte(0x00)  // "GP", version 0
        // flags: bit0 little-endian, bits1-3 envelope code (1 = minx,maxx,miny,maxy), bit4 empty.
        w.byte(e == nil ? 0b0001_0001 : 0b0000_0011)
        w.int32(srsID)
        if let e { w.double(e.minX); w.double(e.maxX); w.double(e.minY); w.double(e.maxY) }
    }

    /// A MultiPolygon's WKB from its parts' rings, whatever holds them.
    private static func writeMultiPolygonWKB<Rings: Collection>(_ w: inout ByteWriter, parts: Int, rings: (Int) -> Rings)
        where Rings.Element: Collection<Coord> {
        w.byte(1)
        w.uint32(wkbMultiPolygon); w.uint32(UInt32(parts))
        for p in 0..<parts {
            let r = rings(p)
            w.byte(1); w.uint32(wkbPolygon); w.uint32(UInt32(r.count))
            for ring in r {
                w.uint32(UInt32(ring.count))
                for c in ring { w.double(c.x); w.double(c.y) }
            }
        }
    }

    func writeWKB(_ w: inout ByteWriter) {
        switch self {
        case .point(let c):
            w.byte(1); w.uint32(Self.wkbPoint); w.double(c.x); w.double(c.y)
        case .lineString(let l):
            w.byte(1); w.uint32(Self.wkbLineString); w.uint32(UInt32(l.count))
            for c in l { w.double(c.x); w.double(c.y) }
        case .multiPolygon(let ps):
            Self.writeMultiPolygonWKB(&w, parts: ps.count) { ps[$0].rings }
        }
    }

    /// The envelope stored in a GeoPackage geometry header, or computed from its WKB when the
    /// header has none; nil for an empty geometry or a blob that is not a GeoPackage geometry.
    public static func envelope(ofBlob data: Data) -> BBox? {
        data.withUnsafeBytes { bytes in
            guard let h = Header(bytes), !h.empty else { return nil }
            if let e = h.envelope { return e }
            return (try? decode(bytes: bytes))?.envelope
        }
    }

    public static func isEmpty(blob data: Data) -> Bool { data.withUnsafeBytes { Header($0)?.empty ?? true } }

    /// Decodes a GeoPackage geometry blob (Point, LineString, Polygon, MultiPolygon).
    public static func decode(_ data: Data) throws -> GeoPackageGeometry {
        try data.withUnsafeBytes { try decode(bytes: $0) }
    }

    /// Decodes a GeoPackage geometry blob in place (as SQLite hands a column's bytes out).
    public static func decode(bytes: UnsafeRawBufferPointer) throws -> GeoPackageGeometry {
        guard let h = Header(bytes) else { throw GeoPackageError.badGeometry("not a GeoPackage geometry blob") }
        var r = ByteReader(bytes: bytes, offset: h.wkbOffset)
        return try r.geometry()
    }

    struct Header {
        var empty: Bool
        var envelope: BBox?
        var wkbOffset: Int

        init?(_ d: UnsafeRawBufferPointer) {
            guard d.count >= 8, d[0] == 0x47, d[1] == 0x50 else { return nil }
            let flags = d[3]
            empty = flags & 0b0001_0000 != 0
            let code = (flags >> 1) & 0b111
            let envSize: Int
            switch code {
            case 0: envSize = 0
            case 1: envSize = 32
            case 2, 3: envSize = 48
            case 4: envSize = 64
            default: return nil
            }
            guard d.count >= 8 + envSize else { return nil }
            wkbOffset = 8 + envSize
            if envSize > 0 {
                var r = ByteReader(bytes: d, offset: 8)
                r.littleEndian = flags & 1 == 1
                guard let minX = try? r.double(), let maxX = try? r.double(),
                      let minY = try? r.double(), let maxY = try? r.double() else { return nil }
                envelope = BBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
            } else {
                envelope = nil
            }
        }
    }
}

public enum GeoPackageError: Error, CustomStringConvertible, Sendable {
    case badGeometry(String)
    case notAGeoPackage(String)
    case notACampaign(String)
    case unknownBuilding(String)
    case badStatus(String)
    case olderSchema(String)
    /// The disk is full, a file size limit was hit, or the device failed while writing `path`.
    case writeFailed(path: String, detail: String)
    /// Another connection holds a lock on the campaign file, so it cannot be replaced or read now.
    case inUse(String)
    /// The file is an SQLite database that cannot be read (corrupt, locked out, an I/O error):
    /// it may be a campaign, so it is never replaced.
    case unreadableCampaign(path: String, detail: String)

    public var description: String {
        switch self {
        case .badGeometry(let s): return "bad GeoPackage geometry: \(s)"
        case .notAGeoPackage(let s): return "\(s) is not a GeoPackage"
        case .notACampaign(let s): return "\(s) holds no flyr campaign"
        case .unknownBuilding(let s): return "no building with GERS id '\(s)' in this campaign"
        case .badStatus(let s): return "bad status '\(s)': use hot, visited or not_visited"
        case .olderSchema(let s): return s
        case .writeFailed(let path, let detail): return "cannot write \(path): \(detail)"
        case .inUse(let path):
            return "\(path) is in use by another program (QGIS, another flyr command…); close it there and run again"
        case .unreadableCampaign(let path, let detail):
            return "cannot read \(path) (\(detail)); it may hold a campaign, so it is left as it is"
        }
    }
}

/// Little-endian bytes appended to a reusable buffer.
struct ByteWriter {
    var buffer: [UInt8] = []
    var data: Data { Data(buffer) }
    mutating func reset() { buffer.removeAll(keepingCapacity: true) }
    mutating func byte(_ b: UInt8) { buffer.append(b) }
    mutating func uint32(_ v: UInt32) { append(v.littleEndian) }
    mutating func int32(_ v: Int32) { append(v.littleEndian) }
    mutating func double(_ v: Double) { append(v.bitPattern.littleEndian) }
    private mutating func append<T: FixedWidthInteger>(_ v: T) {
        withUnsafeBytes(of: v) { buffer.append(contentsOf: $0) }
    }
}

/// Reads WKB from bytes it does not own (valid while the caller keeps them).
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset: Int
    var littleEndian = true
    var remaining: Int { bytes.count - offset }

    init(bytes: UnsafeRawBufferPointer, offset: Int) { self.bytes = bytes; self.offset = offset }

    mutating func byte() throws -> UInt8 {
        guard remaining >= 1 else { throw GeoPackageError.badGeometry("truncated WKB") }
        defer { offset += 1 }
        return bytes[offset]
    }
    mutating func uint32() throws -> UInt32 {
        guard remaining >= 4 else { throw GeoPackageError.badGeometry("truncated WKB") }
        let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return littleEndian ? UInt32(littleEndian: v) : UInt32(bigEndian: v)
    }
    mutating func double() throws -> Double {
        guard remaining >= 8 else { throw GeoPackageError.badGeometry("truncated WKB") }
        let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return Double(bitPattern: littleEndian ? UInt64(littleEndian: v) : UInt64(bigEndian: v))
    }

    /// A WKB geometry: Point, LineString, Polygon (as a one-part MultiPolygon) or MultiPolygon;
    /// ISO Z/M type codes fold to the 2D type.
    mutating func geometry() throws -> GeoPackageGeometry {
        littleEndian = try byte() == 1
        let type = try uint32() % 1000
        switch type {
        case GeoPackageGeometry.wkbPoint: return .point(Coord(try double(), try double()))
        case GeoPackageGeometry.wkbLineString: return .lineString(try coords())
        case GeoPackageGeometry.wkbPolygon: return .multiPolygon([try polygon()])
        case GeoPackageGeometry.wkbMultiPolygon:
            let n = Int(try uint32())
            guard n <= remaining / 9 else { throw GeoPackageError.badGeometry("polygon count \(n) exceeds the blob") }
            var parts: [PolygonCoords] = []
            parts.reserveCapacity(n)
            for _ in 0..<n {
                littleEndian = try byte() == 1
                _ = try uint32()
                parts.append(try polygon())
            }
            return .multiPolygon(parts)
        default: throw GeoPackageError.badGeometry("unsupported WKB type \(type)")
        }
    }

    mutating func coords() throws -> [Coord] {
        let n = Int(try uint32())
        guard n <= remaining / 16 else { throw GeoPackageError.badGeometry("coordinate count \(n) exceeds the blob") }
        var out = [Coord]()
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(Coord(try double(), try double())) }
        return out
    }

    mutating func polygon() throws -> PolygonCoords {
        let rings = Int(try uint32())
        guard rings <= remaining / 4 else { throw GeoPackageError.badGeometry("ring count \(rings) exceeds the blob") }
        var out: [[Coord]] = []
        out.reserveCapacity(rings)
        for _ in 0..<rings { out.append(try coords()) }
        return PolygonCoords(rings: out)
    }
}

extension GeoPackageGeometry {
    /// Appends the rings of a Polygon or MultiPolygon blob to `coords` (one after another)
    /// and their ranges to `rings`, without nested arrays; returns the ranges' span in
    /// `rings`, or nil for a Point or LineString (nothing appended). A blob `decode` refuses is
    /// `badGeometry` (nothing appended).
    public static func appendRings(bytes: UnsafeRawBufferPointer, coords: inout [Coord], rings: inout [Range<Int>]) throws -> Range<Int>? {
        guard let h = Header(bytes) else { throw GeoPackageError.badGeometry("not a GeoPackage geometry blob") }
        return try appendRings(wkb: bytes, offset: h.wkbOffset, coords: &coords, rings: &rings)
    }

    /// `appendRings(bytes:coords:rings:)` for plain WKB (as PostGIS's ST_AsBinary gives it)
    /// starting at `offset`.
    public static func appendRings(wkb bytes: UnsafeRawBufferPointer, offset: Int = 0, coords: inout [Coord],
                                   rings: inout [Range<Int>]) throws -> Range<Int>? {
        var r = ByteReader(bytes: bytes, offset: offset)
        let (c0, r0) = (coords.count, rings.count)
        do {
            guard try r.appendRings(coords: &coords, rings: &rings) else { return nil }
        } catch {
            coords.removeSubrange(c0...); rings.removeSubrange(r0...)
            throw error
        }
        return r0..<rings.count
    }
}

extension ByteReader {
    /// The rings of a WKB Polygon or MultiPolygon, appended flat; false for a Point or
    /// LineString (checked whole, nothing appended).
    mutating func appendRings(coords: inout [Coord], rings: inout [Range<Int>]) throws -> Bool {
        let start = offset
        littleEndian = try byte() == 1
        let type = try uint32() % 1000
        switch type {
        case GeoPackageGeometry.wkbPoint, GeoPackageGeometry.wkbLineString:
            offset = start
            _ = try geometry()
            return false
        case GeoPackageGeometry.wkbPolygon: try appendPolygon(coords: &coords, rings: &rings)
        case GeoPackageGeometry.wkbMultiPolygon:
            let n = Int(try uint32())
            guard n <= remaining / 9 else { throw GeoPackageError.badGeometry("polygon count \(n) exceeds the blob") }
            for _ in 0..<n {
                littleEndian = try byte() == 1
                _ = try uint32()
                try appendPolygon(coords: &coords, rings: &rings)
            }
        default: throw GeoPackageError.badGeometry("unsupported WKB type \(type)")
        }
        return true
    }

    private mutating func appendPolygon(coords: inout [Coord], rings: inout [Range<Int>]) throws {
        let count = Int(try uint32())
        guard count <= remaining / 4 else { throw GeoPackageError.badGeometry("ring count \(count) exceeds the blob") }
        for _ in 0..<count {
            let n = Int(try uint32())
            guard n <= remaining / 16 else { throw GeoPackageError.badGeometry("coordinate count \(n) exceeds the blob") }
            let start = coords.count
            for _ in 0..<n { coords.append(Coord(try double(), try double())) }
            rings.append(start..<coords.count)
        }
    }
}
