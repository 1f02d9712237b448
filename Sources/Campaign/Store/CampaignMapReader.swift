import Foundation
import GRDB
import Geo

/// Reads a campaign's buildings for one map view through the buildings' R-tree, a batch at a
/// time, in draw order, over its own read-only connection (one reader per drawing thread).
public final class CampaignMapReader {
    public let path: String
    private let queue: DatabaseQueue
    /// Building rows read so far: those whose R-tree box met a requested area.
    public private(set) var rowsRead = 0

    /// The draw order of a stored file is not its row order: read again with `sortFirst`.
    public struct NotInIDOrder: Error, CustomStringConvertible {
        public var path: String
        public var description: String { "\(path): buildings are not stored in id order" }
    }

    /// Buildings read together: every ring's vertices in degrees one after another, rings as
    /// ranges of `coords`, and each building's rings as a range of `rings`.
    public struct Batch {
        public struct Row {
            /// The row's fid: the key of `houseNumbers(fids:)`.
            public var fid: Int64
            public var gersID: String
            public var rings: Range<Int>
            /// Field status (`not_visited` when none is recorded).
            public var status: String
            public var scansTotal: Int
            /// `matched` or `orphan_building`.
            public var featureStatus: String
        }
        public var coords: [Coord] = []
        public var rings: [Range<Int>] = []
        public var rows: [Row] = []
        public init() {}
        public mutating func clear() {
            coords.removeAll(keepingCapacity: true); rings.removeAll(keepingCapacity: true); rows.removeAll(keepingCapacity: true)
        }
    }

    public init(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw InputError(.fileNotFound, file: path, detail: "no such campaign file")
        }
        self.path = path
        queue = try GeoPackage.open(path, readOnly: true)
    }

    /// Closes the connection; throws when SQLite cannot close it cleanly.
    public func close() throws { try queue.close() }

    /// The buildings' extent in degrees as gpkg_contents records it (exact: provision writes it
    /// from the geometries, not from the R-tree's rounded floats); computed from the geometry
    /// headers when it is not recorded. Empty when there are no buildings.
    public func buildingExtent() throws -> BBox {
        try queue.read { db in
            let sql = "SELECT min_x, min_y, max_x, max_y FROM gpkg_contents WHERE table_name = 'buildings'"
            if let r = try Row.fetchOne(db, sql: sql), let w = r[0] as Double?, let s = r[1] as Double?,
               let e = r[2] as Double?, let n = r[3] as Double? {
                return BBox(minX: w, minY: s, maxX: e, maxY: n)
            }
            let r = try Row.fetchOne(db, sql: "SELECT min(ST_MinX(geom)), min(ST_MinY(geom)), max(ST_MaxX(geom)), max(ST_MaxY(geom)) FROM buildings")
            guard let r, let w = r[0] as Double?, let s = r[1] as Double?, let e = r[2] as Double?, let n = r[3] as Double? else { return .empty }
            return BBox(minX: w, minY: s, maxX: e, maxY: n)
        }
    }

    /// Calls `body` with successive batches of up to `batchSize` buildings whose box meets
    /// `area` (degrees), and perhaps a few that only nearly do. The R-tree picks them: its rows
    /// are read by fid. When it finds more than a quarter of the buildings (a view over most of
    /// the campaign), the table is read straight through instead and rows whose stored envelope
    /// misses `area` are skipped before decoding: one sequential pass costs less than that
    /// many look-ups (`rowsRead` then counts every row). Draw order is ascending id, bytewise:
    /// rows come in fid order and are checked to follow it (flyr provision writes them so); a
    /// file where they do not throws `NotInIDOrder` after some batches, and `sortFirst` has
    /// SQLite sort the matching rows by id first. Rows without geometry, or with a point or line,
    /// are skipped; a blob that cannot be decoded is `GeoPackageError.badGeometry` naming the row.
    public func buildings(in area: BBox, sortFirst: Bool = false, batchSize: Int = 2048, _ body: (inout Batch) throws -> Void) throws {
        guard !area.isEmpty else { return }
        try queue.read { db in
            let box = "minx <= \(area.maxX) AND maxx >= \(area.minX) AND miny <= \(area.maxY) AND maxy >= \(area.minY)"
            let hits = try Int.fetchOne(db, sql: "SELECT count(*) FROM rtree_buildings_geom WHERE \(box)") ?? 0
            guard hits > 0 else { return }
            let all = try Int.fetchOne(db, sql: "SELECT count(*) FROM rtree_buildings_geom") ?? 0
            let scan = 4 * hits > all
            let rows = try RawRows(db, sql: """
                SELECT b.fid, b.geom, b.gers_id, b.feature_status, s.status, s.scans_total
                FROM buildings b LEFT JOIN building_stats s ON s.gers_id = b.gers_id
                \(scan ? "" : "WHERE b.fid IN (SELECT id FROM rtree_buildings_geom WHERE \(box))")
                ORDER BY \(sortFirst ? "b.gers_id" : "b.fid")
                """)
            var batch = Batch()
            // The last id's bytes: rows are checked for order before any string is made.
            var last: [UInt8] = []
            while try rows.next() {
                rowsRead += 1
                guard !rows.isNull(1), !rows.isNull(2) else { continue }
                let idBytes = rows.textBytes(2)
                if !sortFirst {
                    if !last.isEmpty, !last.lexicographicallyPrecedes(idBytes) { throw NotInIDOrder(path: path) }
                    last.removeAll(keepingCapacity: true)
                    last.append(contentsOf: idBytes)
                }
                let blob = rows.blob(1)
                if scan, let e = GeoPackageGeometry.Header(blob)?.envelope, !e.intersects(area) { continue }
                let id = String(decoding: idBytes, as: UTF8.self)
                let decoded: Range<Int>?
                do {
                    decoded = try GeoPackageGeometry.appendRings(bytes: blob, coords: &batch.coords, rings: &batch.rings)
                } catch let GeoPackageError.badGeometry(detail) {
                    throw GeoPackageError.badGeometry("\(path): buildings fid \(rows.int(0)) (\(id)): \(detail)")
                }
                // A point or line where a footprint belongs is left off the map, as when drawn from memory.
                guard let span = decoded else { continue }
                batch.rows.append(Batch.Row(fid: Int64(rows.int(0)), gersID: id, rings: span, status: rows.text(4) ?? "not_visited",
                                            scansTotal: rows.isNull(5) ? 0 : rows.int(5), featureStatus: rows.text(3) ?? "matched"))
                if batch.rows.count >= batchSize {
                    try body(&batch)
                    batch.clear()
                }
            }
            if !batch.rows.isEmpty { try body(&batch) }
        }
    }

    /// The house number of each building's first address (in walking order), by fid; a
    /// building without one is absent.
    public func houseNumbers(fids: [Int64]) throws -> [Int64: String] {
        guard !fids.isEmpty else { return [:] }
        return try queue.read { db in
            let statement = try db.makeStatement(sql: """
                SELECT number FROM campaign_addresses
                WHERE building_gers_id = (SELECT gers_id FROM buildings WHERE fid = ?) ORDER BY seq LIMIT 1
                """)
            var out: [Int64: String] = [:]
            for fid in fids {
                if let n = try String.fetchOne(statement, arguments: [fid]) { out[fid] = n }
            }
            return out
        }
    }
}
