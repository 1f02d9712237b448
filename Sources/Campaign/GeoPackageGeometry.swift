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
        case .point(let c): return BBox(minX: c.x, minY: c.y, maxX: c.x, maxY: c.y)
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
        w.byte(0x47); w.byte(0x50); w.byte(0x00)  // "GP", version 0
        let empty: Bool
        switch self {
        case .point: empty = false
        case .lineString(let l): empty = l.isEmpty
        case .multiPolygon(let p): empty = p.isEmpty
        }
        // flags: bit0 little-endian, bits1-3 envelope code (1 = minx,maxx,miny,maxy), bit4 empty.
        w.byte(empty ? 0b0001_0001 : 0b0000_0011)
        w.int32(srsID)
        if !empty {
            let e = known ?? envelope
            w.double(e.minX); w.double(e.maxX); w.double(e.minY); w.double(e.maxY)
        }
        writeWKB(&w)
    }

    func writeWKB(_ w: inout ByteWriter) {
        w.byte(1)
        switch self {
        case .point(let c):
            w.uint32(Self.wkbPoint); w.double(c.x); w.double(c.y)
        case .lineString(let l):
            w.uint32(Self.wkbLineString); w.uint32(UInt32(l.count))
            for c in l { w.double(c.x); w.double(c.y) }
        case .multiPolygon(let ps):
            w.uint32(Self.wkbMultiPolygon); w.uint32(UInt32(ps.count))
            for p in ps {
                w.byte(1); w.uint32(Self.wkbPolygon); w.uint32(UInt32(p.rings.count))
                for r in p.rings {
                    w.uint32(UInt32(r.count))
                    for c in r { w.double(c.x); w.double(c.y) }
                }
            }
        }
    }

    /// The envelope stored in a GeoPackage geometry header, or computed from its WKB when the
    /// header has none; nil for an empty geometry or a blob that is not a GeoPackage geometry.
    public static func envelope(ofBlob data: Data) -> BBox? {
        guard let h = Header(data), !h.empty else { return nil }
        if let e = h.envelope { return e }
        return (try? decode(data))?.envelope
    }

    public static func isEmpty(blob data: Data) -> Bool { Header(data)?.empty ?? true }

    /// Decodes a GeoPackage geometry blob (Point, LineString, Polygon, MultiPolygon).
    public static func decode(_ data: Data) throws -> GeoPackageGeometry {
        guard let h = Header(data) else { throw GeoPackageError.badGeometry("not a GeoPackage geometry blob") }
        var r = ByteReader(data: data, offset: h.wkbOffset)
        return try readWKB(&r)
    }

    static func readWKB(_ r: inout ByteReader) throws -> GeoPackageGeometry {
        let little = try r.byte() == 1
        r.littleEndian = little
        let type = try r.uint32() % 1000  // ISO Z/M codes fold to the 2D type
        func coords() throws -> [Coord] {
            let n = Int(try r.uint32())
            guard n <= r.remaining / 16 else { throw GeoPackageError.badGeometry("coordinate count \(n) exceeds the blob") }
            return try (0..<n).map { _ in Coord(try r.double(), try r.double()) }
        }
        func polygon() throws -> PolygonCoords {
            let rings = Int(try r.uint32())
            return PolygonCoords(rings: try (0..<rings).map { _ in try coords() })
        }
        switch type {
        case wkbPoint: return .point(Coord(try r.double(), try r.double()))
        case wkbLineString: return .lineString(try coords())
        case wkbPolygon: return .multiPolygon([try polygon()])
        case wkbMultiPolygon:
            let n = Int(try r.uint32())
            var parts: [PolygonCoords] = []
            for _ in 0..<n {
                r.littleEndian = try r.byte() == 1
                _ = try r.uint32()
                parts.append(try polygon())
            }
            return .multiPolygon(parts)
        default: throw GeoPackageError.badGeometry("unsupported WKB type \(type)")
        }
    }

    struct Header {
        var empty: Bool
        var envelope: BBox?
        var wkbOffset: Int

        init?(_ d: Data) {
            guard d.count >= 8 else { return nil }
            let b = d.startIndex
            guard d[b] == 0x47, d[b + 1] == 0x50 else { return nil }
            let flags = d[b + 3]
            empty = flags & 0b0001_0000 != 0
            let code = (flags >> 1) & 0b111
            let sizes: [UInt8: Int] = [0: 0, 1: 32, 2: 48, 3: 48, 4: 64]
            guard let envSize = sizes[code], d.count >= 8 + envSize else { return nil }
            wkbOffset = 8 + envSize
            if envSize > 0 {
                var r = ByteReader(data: d, offset: 8)
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

    public var description: String {
        switch self {
        case .badGeometry(let s): return "bad GeoPackage geometry: \(s)"
        case .notAGeoPackage(let s): return "\(s) is not a GeoPackage"
        case .notACampaign(let s): return "\(s) holds no flyr campaign"
        case .unknownBuilding(let s): return "no building with GERS id '\(s)' in this campaign"
        case .badStatus(let s): return "bad status '\(s)': use hot, visited or not_visited"
        case .olderSchema(let s): return s
        case .writeFailed(let path, let detail): return "cannot write \(path): \(detail)"
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

struct ByteReader {
    let data: Data
    var offset: Int
    var littleEndian = true
    var remaining: Int { data.count - offset }

    init(data: Data, offset: Int) { self.data = data; self.offset = offset }

    mutating func byte() throws -> UInt8 {
        guard remaining >= 1 else { throw GeoPackageError.badGeometry("truncated WKB") }
        defer { offset += 1 }
        return data[data.startIndex + offset]
    }
    mutating func uint32() throws -> UInt32 {
        guard remaining >= 4 else { throw GeoPackageError.badGeometry("truncated WKB") }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(data[data.startIndex + offset + i]) << (8 * i) }
        offset += 4
        return littleEndian ? v : v.byteSwapped
    }
    mutating func double() throws -> Double {
        guard remaining >= 8 else { throw GeoPackageError.badGeometry("truncated WKB") }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(data[data.startIndex + offset + i]) << (8 * i) }
        offset += 8
        return Double(bitPattern: littleEndian ? v : v.byteSwapped)
    }
}
