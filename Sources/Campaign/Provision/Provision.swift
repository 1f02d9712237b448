import Foundation
import GRDB
import Geo

/// One input file of a campaign, fingerprinted.
public struct SourceFile: Sendable, Equatable {
    public var layer: String
    public var path: String
    /// Hex SHA-256 of the file's bytes; nil for stdin.
    public var sha256: String?
    public var bytes: Int

    public init(layer: String, path: String) {
        self.layer = layer
        self.path = path
        if path == "-" { sha256 = nil; bytes = 0 } else {
            sha256 = FileHash.file(path)
            bytes = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? 0
        }
    }
}

/// Everything a provision writes: the features, their links and orientation, and the record.
public struct ProvisionInput: Sendable {
    public var name: String
    public var type: String
    public var buildings: [Building]
    public var addresses: [Address]
    public var segments: [Segment]
    /// The recipient list's rows, when the campaign was made from one (an address may have several).
    public var recipients: [CampaignRecipient] = []
    public var links: LinkResult
    /// The road each address faces: rows sorted by address id, as `Orienter.orientAddresses`
    /// gives them; an address without a row, or whose row has no orientation, is not oriented.
    public var orientations: [AddressOrientation]
    /// When set, works out the orientations (replacing `orientations`), compact, on other
    /// threads while the rest is written; they are needed only by the address rows.
    public var orientationJob: (@Sendable () throws -> AddressFacings)? = nil
    public var sources: [SourceFile]
    public var bbox: BBox?
    /// Options that change the result (buffer, radius…), part of the inputs' fingerprint.
    public var settings: String
    /// A fault to inject: the write fails once this many address rows are in (to prove that a
    /// failure rolls back). Nil outside tests; each provision has its own.
    var failAfterAddressRows: Int? = nil

    public init(name: String, type: String, buildings: [Building], addresses: [Address], segments: [Segment],
                links: LinkResult, orientations: [AddressOrientation] = [], sources: [SourceFile],
                bbox: BBox?, settings: String) {
        self.name = name; self.type = type; self.buildings = buildings; self.addresses = addresses
        self.segments = segments; self.links = links; self.orientations = orientations; self.sources = sources
        self.bbox = bbox; self.settings = settings
    }

    /// `orientations`, compact: each row matched to its address and segment by id.
    var facingsGiven: AddressFacings {
        let addressIndex = Dictionary(addresses.enumerated().map { ($1.id, Int32($0)) }, uniquingKeysWith: { a, _ in a })
        let segmentIndex = Dictionary(segments.enumerated().map { ($1.id, Int32($0)) }, uniquingKeysWith: { a, _ in a })
        var out = AddressFacings(count: orientations.count)
        for (k, row) in orientations.enumerated() {
            out.address[k] = addressIndex[row.addressID] ?? -1
            guard let o = row.orientation, let s = segmentIndex[o.segmentID] else { continue }
            out.segment[k] = s
            out.roadBearing[k] = o.roadBearing ?? .nan
            out.houseBearing[k] = o.houseBearing ?? .nan
        }
        return out
    }

    public var fingerprint: String? {
        ProvisionInput.fingerprint(name: name, type: type, settings: settings, bbox: bbox, sources: sources)
    }

    /// Bumped whenever flyr writes a campaign differently, so old campaigns re-provision.
    public static let engineVersion = "flyr-provision-2"

    /// SHA-256 over the engine version, name, type, settings, bbox and each source's layer and
    /// hash; nil when a source has no hash (stdin), so such a provision is never taken as unchanged.
    public static func fingerprint(name: String, type: String, settings: String, bbox: BBox?, sources: [SourceFile]) -> String? {
        var text = "engine=\(engineVersion)\nname=\(name)\ntype=\(type)\nsettings=\(settings)\nbbox=\(bbox.map { "\($0.minX),\($0.minY),\($0.maxX),\($0.maxY)" } ?? "")\n"
        for s in sources.sorted(by: { ($0.layer, $0.path) < ($1.layer, $1.path) }) {
            guard let h = s.sha256 else { return nil }
            text += "\(s.layer)=\(h)\n"
        }
        return FileHash.hex(text)
    }
}

public struct ProvisionSummary: Sendable, Equatable {
    public var campaignID: String
    public var addressesSaved: Int
    public var buildingsSaved: Int
    public var roadsSaved: Int
    public var linksCreated: Int
    public var orphanBuildings: Int
    /// The campaign already held exactly these inputs: nothing was written.
    public var unchanged: Bool
}

public enum Provisioner {
    /// Writes the campaign into `path` as one transaction. A new file is built beside the
    /// target and renamed into place, so a failure leaves no file; an existing campaign is
    /// updated in place (same campaign id; statuses, scans, visits and QR slugs kept for the
    /// buildings and addresses that still exist), so a failure leaves the previous campaign,
    /// marked `provision_status = failed` with the reason. A file that is not a flyr campaign
    /// is replaced whole. The caller decides whether an existing file may be touched.
    public static func provision(_ input: ProvisionInput, at path: String,
                                 progress: (String) -> Void = { _ in }) throws -> ProvisionSummary {
        // Rows are numbered in 32-bit slots.
        for (count, what) in [(input.addresses.count, "addresses"), (input.buildings.count, "buildings"), (input.segments.count, "segments")] {
            _ = try CheckedCount.int32(count, what)
        }
        if let same = try unchangedCampaign(at: path, fingerprint: input.fingerprint) { return same }
        if FileManager.default.fileExists(atPath: path), let existing = try existingCampaign(path) {
            // Opening for writing writes too (the WAL, a migration): a full disk here is a
            // write failure like any other, and the campaign is left as it was.
            let db: DatabaseQueue
            do {
                db = try GeoPackage.open(path)
                try CampaignSchema.migrator.migrate(db)
            } catch {
                throw writeFailure(error, path: path)
            }
            do {
                let s = try db.write { db in try write(db, input, campaignID: existing.id, progress: progress) }
                try db.close()
                return s
            } catch {
                let reason = "\(error)"
                try? db.write { db in
                    try db.execute(sql: "UPDATE campaigns SET provision_status = 'failed', provision_error = ? WHERE id = ?",
                                   arguments: [reason, existing.id])
                }
                try? db.close()
                throw writeFailure(error, path: path)
            }
        }
        var summary: ProvisionSummary? = nil
        try buildNewFile(at: path) { db, tableWritten in
            summary = try write(db, input, campaignID: UUID().uuidString.lowercased(), progress: progress,
                                tableWritten: tableWritten)
        }
        return summary!
    }

    /// Builds a new campaign GeoPackage beside `path` (schema, then `fill` in one transaction),
    /// and renames it into place; on failure the temporary file goes and `path` is untouched.
    /// `fill` may call its second argument when a large table is in, to have the kernel start
    /// writing the file out while it goes on (the commit's fsync then has less to wait for).
    static func buildNewFile(at path: String, _ fill: (Database, _ tableWritten: () -> Void) throws -> Void) throws {
        CampaignFile.sweepAbandoned(beside: path)
        let temp = CampaignFile.temporaryPath(for: path)
        try? FileManager.default.removeItem(atPath: temp)
        do {
            let db = try GeoPackage.open(temp, bulkBuild: true)
            try CampaignSchema.migrator.migrate(db)
            let writeBehind = WriteBehind(temp)
            defer { writeBehind.finish() }
            try db.write { db in try fill(db, writeBehind.start) }
            try db.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            try db.close()
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temp + suffix) }
            try CampaignFile.replace(path, with: temp)
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: temp + suffix) }
            throw writeFailure(error, path: path)
        }
    }

    /// A full disk or a file size limit (SQLite reports SQLITE_FULL or an I/O error) as
    /// `GeoPackageError.writeFailed`; any other error as it is.
    static func writeFailure(_ error: Error, path: String) -> Error {
        guard let e = error as? DatabaseError, e.resultCode == .SQLITE_FULL || e.resultCode == .SQLITE_IOERR else {
            if let c = error as? CocoaError, c.code == .fileWriteOutOfSpace { return GeoPackageError.writeFailed(path: path, detail: "the disk is full") }
            return error
        }
        let why = e.resultCode == .SQLITE_FULL ? "the disk is full" : "input/output error (disk full or file size limit?)"
        return GeoPackageError.writeFailed(path: path, detail: "\(why): \(e.message ?? "\(e.resultCode)")")
    }

    struct Existing { var id: String; var fingerprint: String?; var provisionStatus: String }

    /// The summary of the campaign in `path` when it was provisioned from exactly these
    /// inputs (and is ready); nil otherwise. Lets a caller skip reading and linking.
    public static func unchangedCampaign(at path: String, fingerprint: String?) throws -> ProvisionSummary? {
        guard let fingerprint, FileManager.default.fileExists(atPath: path),
              let existing = try existingCampaign(path), existing.fingerprint == fingerprint,
              existing.provisionStatus == "ready" else { return nil }
        let db = try GeoPackage.open(path, readOnly: true)
        defer { try? db.close() }
        return try db.read { db in try summary(db, campaignID: existing.id, unchanged: true) }
    }

    /// The campaign record of a flyr GeoPackage, or nil when the file is certainly not one
    /// (not an SQLite database, or one without a GeoPackage campaigns table). Throws when the
    /// file cannot be read (`GeoPackageError.unreadableCampaign`, or `.inUse` while another
    /// connection locks it): such a file may hold a campaign.
    static func existingCampaign(_ path: String) throws -> Existing? {
        guard try CampaignFile.kind(path) == .sqlite else { return nil }
        do {
            let db = try GeoPackage.open(path, readOnly: true)
            defer { try? db.close() }
            return try db.read { db -> Existing? in
                let app = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                guard app == GeoPackage.applicationID, try db.tableExists("campaigns") else { return nil }
                guard let row = try Row.fetchOne(db, sql: "SELECT id, inputs_sha256, provision_status FROM campaigns ORDER BY created_at LIMIT 1")
                else { throw GeoPackageError.unreadableCampaign(path: path, detail: "its campaigns table is empty") }
                return Existing(id: row["id"], fingerprint: row["inputs_sha256"], provisionStatus: row["provision_status"])
            }
        } catch let e as GeoPackageError {
            throw e
        } catch {
            throw CampaignFile.readFailure(error, path: path)
        }
    }

    static func write(_ db: Database, _ input: ProvisionInput, campaignID: String,
                      progress: (String) -> Void, tableWritten: () -> Void = {}) throws -> ProvisionSummary {
        let now = ISO8601DateFormatter().string(from: Date())
        // Field data to keep across a re-provision.
        var kept: [String: KeptFields] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT gers_id, visited, scans, qr_slug FROM campaign_addresses") {
            kept[row["gers_id"]] = KeptFields(visited: row["visited"], scans: row["scans"], slug: row["qr_slug"])
        }
        let sources = "[" + input.sources.map {
            "{\"layer\":\(LinkTable.jsonString($0.layer)),\"path\":\(LinkTable.jsonString($0.path)),\"sha256\":\($0.sha256.map(LinkTable.jsonString) ?? "null"),\"bytes\":\($0.bytes)}"
        }.joined(separator: ",") + "]"
        var extent = input.bbox ?? .empty
        if input.bbox == nil { for a in input.addresses { extent.expand(a.point) } }
        try db.execute(sql: """
            INSERT INTO campaigns (id, name, type, provision_status, provision_error, bbox_west, bbox_south, bbox_east, bbox_north,
              source_files, inputs_sha256, created_at, provisioned_at)
            VALUES (?, ?, ?, 'ready', NULL, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET name = excluded.name, type = excluded.type, provision_status = 'ready',
              provision_error = NULL, bbox_west = excluded.bbox_west, bbox_south = excluded.bbox_south,
              bbox_east = excluded.bbox_east, bbox_north = excluded.bbox_north, source_files = excluded.source_files,
              inputs_sha256 = excluded.inputs_sha256, provisioned_at = excluded.provisioned_at
            """, arguments: [campaignID, input.name, input.type,
                             extent.isEmpty ? nil : extent.minX, extent.isEmpty ? nil : extent.minY,
                             extent.isEmpty ? nil : extent.maxX, extent.isEmpty ? nil : extent.maxY,
                             sources, input.fingerprint, now, now])

        let tables = ["buildings", "campaign_addresses", "segments"]
        for t in tables { try GeoPackage.dropSpatialIndexTriggers(db, table: t) }
        for t in tables { try db.execute(sql: "DELETE FROM \(t)") }
        try db.execute(sql: "DELETE FROM building_address_links WHERE campaign_id = ?", arguments: [campaignID])
        try db.execute(sql: "DELETE FROM campaign_recipients WHERE campaign_id = ?", arguments: [campaignID])
        let recipient = try db.makeStatement(sql: "INSERT INTO campaign_recipients (campaign_id, address_gers_id, line, fields) VALUES (?, ?, ?, ?)")
        for r in input.recipients { try recipient.execute(arguments: [campaignID, r.addressID, r.line, r.fieldsJSON]) }
        // Indexes on building ids and QR slugs take rows in random key order: sorted once at
        // the end instead of updated row by row.
        for index in lookupIndexes { try db.execute(sql: "DROP INDEX IF EXISTS \(index.name)") }
        func createIndex(_ index: LookupIndex) throws {
            try db.execute(sql: "CREATE \(index.unique ? "UNIQUE " : "")INDEX \(index.name) ON \(index.table)(\(index.column))")
        }
        // The CHECK constraints are `column IN (list)`, which SQLite evaluates by building a
        // temporary index on every row; the values written here come from Swift enums
        // (LinkMethod, the two feature statuses), so the checks are off for the bulk rows.
        try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
        defer { try? db.execute(sql: "PRAGMA ignore_check_constraints = OFF") }
        // Each table's R-tree is packed in one go (RTreeBulkLoad) from the fids and envelopes
        // its rows will have, worked out on another thread; it is written into its shadow
        // tables whenever the writer is free (the triggers are off), and once the rows are in,
        // its triggers come back and the table's extent is set from the same envelopes.
        func startSpatialIndex(_ table: String, count: Int, firstFID: Int64,
                               box: @escaping @Sendable (Int) -> BBox) throws -> Background<(RTreeBulkLoad.Plan, BBox)> {
            let nodeSize = try RTreeBulkLoad.create(db, rtree: "rtree_\(table)_geom")
            return Background {
                var extent = BBox.empty
                for k in 0..<count { extent.expand(box(k)) }
                return (RTreeBulkLoad.plan(count: count, nodeSize: nodeSize, id: { firstFID + Int64($0) }, box: box), extent)
            }
        }
        func writeSpatialIndex(_ table: String, _ job: Background<(RTreeBulkLoad.Plan, BBox)>) throws -> BBox {
            let (plan, extent) = job.take()
            try RTreeBulkLoad.write(db, rtree: "rtree_\(table)_geom", plan)
            return extent
        }
        func finishSpatialIndex(_ table: String, extent: BBox) throws {
            try GeoPackage.createSpatialIndexTriggers(db, table: table)
            try GeoPackage.setExtent(db, table: table, extent)
        }
        // Rows are written with their fids, the ones AUTOINCREMENT would give (one past the
        // largest the table ever had), so that a statement can carry several rows and the
        // R-tree entries are known without asking SQLite row by row.
        func nextFID(_ table: String) throws -> Int64 {
            let last = try Int64.fetchOne(db, sql: """
                SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0), coalesce((SELECT max(fid) FROM \(table)), 0))
                """, arguments: [table]) ?? 0
            return last + 1
        }

        // The orientations, when still to be worked out, on other threads from the start: they
        // are needed only by the address rows, which go in last. A failure here waits for them
        // before it is reported.
        let orientationJob = input.orientationJob.map { job in Background { Result { try job() } } }
        defer { orientationJob?.wait() }

        // Field status: a row per building, kept when it is there already (rows of buildings
        // that no longer exist go once the buildings are in); in id order, as the buildings.
        let buildingOrder = input.links.buildingOrder(of: input.buildings) ?? IDOrder.sortedIndices(input.buildings.map { $0.id })
        let hadStats = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM building_stats)") ?? false
        let insertStats = try BulkInsert(db, into: "building_stats", columns: ["gers_id"], or: "IGNORE")
        for i in buildingOrder {
            insertStats.text(input.buildings[i].id)
            try insertStats.endRow()
        }
        try insertStats.finish()

        progress("writing \(input.segments.count) segments")
        let insertSegment = try BulkInsert(db, into: "segments", columns: [
            "fid", "geom", "gers_id", "subtype", "class", "subclass", "name", "names", "sources"])
        let firstSegmentFID = try nextFID("segments")
        var boxes: [BBox] = []
        var geometry = ByteWriter()
        for (k, i) in IDOrder.sortedIndices(input.segments.map { $0.id }).enumerated() {
            let s = input.segments[i]
            geometry.reset()
            GeoPackageGeometry.lineString(s.line).encode(into: &geometry)
            insertSegment.int(firstSegmentFID + Int64(k))
            insertSegment.blob(geometry.buffer)
            for text in [s.id, s.subtype, s.segmentClass, s.subclass, s.name, s.namesJSON, s.sourcesJSON] { insertSegment.text(text) }
            try insertSegment.endRow()
            boxes.append(s.bbox)
        }
        try insertSegment.finish()
        let segmentIndex = try startSpatialIndex("segments", count: boxes.count, firstFID: firstSegmentFID) { [boxes] in boxes[$0] }
        try finishSpatialIndex("segments", extent: try writeSpatialIndex("segments", segmentIndex))

        // The address rows (walking order, link, QR slug, one-line form) are made on another
        // thread while the buildings go in.
        let keptFields = kept
        let addressRows = Background { Result { try prepareAddressRows(input, kept: keptFields) } }

        // Buildings, sorted by GERS id so fids are stable; their link counts come from
        // `links.buildings`, also sorted by id.
        progress("writing \(input.buildings.count) buildings")
        let insertBuilding = try BulkInsert(db, into: "buildings", columns: [
            "fid", "geom", "gers_id", "height_m", "levels", "subtype", "class", "feature_status", "address_count",
            "is_multi_unit", "names", "sources"])
        let firstBuildingFID = try nextFID("buildings")
        // The rows' values are gathered (geometry encoded, texts copied) on another thread
        // while this one has SQLite write them.
        let orphans = Tally()
        let buildingRows = RowPipe(chunkRows: insertBuilding.rows(filling: 64), columns: insertBuilding.columns) { row in
            var perBuilding = SortedLookup(input.links.buildings.map(\.buildingID))
            let buildingLinks = input.links.buildings
            var geometry = ByteWriter()
            var fid = firstBuildingFID, orphanCount = 0
            for i in buildingOrder {
                // Read in place: a copy of the building would retain each of its texts and arrays.
                let info = perBuilding.next(input.buildings[i].id) ?? -1
                geometry.reset()
                GeoPackageGeometry.encode(input.buildings[i].footprint, into: &geometry,
                                          envelope: input.buildings[i].bbox.isEmpty ? nil : input.buildings[i].bbox)
                let orphan = info < 0 || buildingLinks[info].isOrphan
                if orphan { orphanCount += 1 }
                let made = row { values in
                    values.int(fid)
                    values.blob(geometry.buffer)
                    values.text(input.buildings[i].id)
                    values.double(input.buildings[i].height ?? input.buildings[i].numFloors.map { Double($0) * 3 })
                    values.int(input.buildings[i].numFloors)
                    values.text(input.buildings[i].subtype)
                    values.text(input.buildings[i].buildingClass)
                    values.text(orphan ? "orphan_building" : "matched")
                    values.int(info < 0 ? 0 : buildingLinks[info].addressCount)
                    values.bool(info < 0 ? false : buildingLinks[info].isMultiUnit)
                    values.text(input.buildings[i].namesJSON)
                    values.text(input.buildings[i].sourcesJSON)
                }
                guard made else { return }
                fid += 1
            }
            orphans.count = orphanCount
        }
        try buildingRows.drain { try insertBuilding.write($0[0]) }
        let buildingIndex = try startSpatialIndex("buildings", count: buildingOrder.count, firstFID: firstBuildingFID) {
            input.buildings[buildingOrder[$0]].bbox
        }
        if hadStats {
            try db.execute(sql: "DELETE FROM building_stats WHERE gers_id NOT IN (SELECT gers_id FROM buildings)")
        }

        // The links first: they do not wait for the orientations.
        var prepared = try addressRows.take().get()
        let firstAddressFID = try nextFID("campaign_addresses")
        let addressIndex = try startSpatialIndex("campaign_addresses", count: prepared.rows.count, firstFID: firstAddressFID) {
            [prepared] in input.addresses[Int(prepared.rows[$0].index)].bbox
        }
        let insertLink = try BulkInsert(db, into: "building_address_links", columns: [
            "campaign_id", "address_id", "building_id", "method", "confidence", "distance_m", "street_match"])
        var rows = 0, linksCreated = 0
        let linkRowValues = RowPipe(chunkRows: insertLink.rows(filling: 64), columns: insertLink.columns) { [prepared] row in
            let links = input.links.links
            for r in prepared.rows {
                let i = Int(r.index), j = Int(r.link)
                guard j >= 0, let b = links[j].buildingID else { continue }
                let made = row { values in
                    values.text(campaignID); values.text(input.addresses[i].id); values.text(b)
                    values.text(links[j].method.rawValue)
                    values.double(links[j].confidence); values.double(links[j].distance)
                    values.bool(links[j].streetMatch)
                }
                guard made else { return }
            }
        }
        try linkRowValues.drain { chunk in
            try insertLink.write(chunk[0])
            linksCreated += chunk[0].rows
        }
        // The R-trees and the links' lookup index now: the orientations may still be on their way.
        let buildingExtent = try writeSpatialIndex("buildings", buildingIndex)
        let addressExtent = try writeSpatialIndex("campaign_addresses", addressIndex)
        do {
            // Its sort holds up to the page cache's size in memory (SQLite's sorter), beside the
            // orientation's working data: the cache goes down to 8 MiB meanwhile (its pages
            // freed for the sort to reuse), which caps the sort's own at 16 MiB.
            let cache = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
            try db.execute(sql: "PRAGMA cache_size = -8192")
            for index in lookupIndexes where index.table == "building_address_links" { try createIndex(index) }
            try db.execute(sql: "PRAGMA cache_size = \(cache)")
        }
        tableWritten()

        progress("writing \(input.addresses.count) addresses")
        let facings = try orientationJob?.take().get() ?? input.facingsGiven
        let insertAddress = try BulkInsert(db, into: "campaign_addresses", columns: [
            "fid", "geom", "gers_id", "campaign_id", "number", "street", "unit", "postcode", "postal_city", "country",
            "address_levels", "sources", "formatted", "building_gers_id", "match_method", "confidence", "distance_m",
            "street_match", "segment_gers_id", "road_bearing", "house_bearing", "is_oriented", "visited", "scans", "seq",
            "qr_slug"])
        let addressRowValues = RowPipe(chunkRows: insertAddress.rows(filling: 64), columns: insertAddress.columns) {
            [prepared, kept] row in
            let links = input.links.links
            // Each address's row of `facings` (-1: none).
            var facingOf = [Int32](repeating: -1, count: input.addresses.count)
            for (k, a) in facings.address.enumerated() where a >= 0 { facingOf[Int(a)] = Int32(k) }
            func bearing(_ v: Double) -> Double? { v.isNaN ? nil : v }
            var geometry = ByteWriter(), fid = firstAddressFID
            for (k, r) in prepared.rows.enumerated() {
                let i = Int(r.index), j = Int(r.link)
                let f = Int(facingOf[i]), segment = f < 0 ? -1 : Int(facings.segment[f])
                let old = kept.isEmpty ? nil : kept[input.addresses[i].id]
                geometry.reset()
                GeoPackageGeometry.point(input.addresses[i].point).encode(into: &geometry)
                let made = row { values in
                    values.int(fid)
                    values.blob(geometry.buffer)
                    // One call per column (an array of the values would be allocated for every
                    // row), each read in place (a copy of the address or link would retain all
                    // its texts).
                    values.text(input.addresses[i].id); values.text(campaignID); values.text(input.addresses[i].number)
                    values.text(input.addresses[i].street); values.text(input.addresses[i].unit)
                    values.text(input.addresses[i].postcode); values.text(input.addresses[i].postalCity)
                    values.text(input.addresses[i].country); values.text(input.addresses[i].addressLevelsJSON)
                    values.text(input.addresses[i].sourcesJSON)
                    prepared.formatted(k) { values.text(utf8: $0) }
                    values.text(j < 0 ? nil : links[j].buildingID)
                    values.text((j < 0 ? .none : links[j].method).rawValue)
                    values.double(j < 0 ? 0 : links[j].confidence)
                    values.double(j < 0 ? 0 : links[j].distance)
                    values.bool(j < 0 ? false : links[j].streetMatch)
                    values.text(segment < 0 ? nil : input.segments[segment].id)
                    values.double(segment < 0 ? nil : bearing(facings.roadBearing[f]))
                    values.double(segment < 0 ? nil : bearing(facings.houseBearing[f]))
                    values.bool(segment >= 0)
                    values.bool(old?.visited ?? false)
                    values.int(old?.scans ?? 0)
                    values.int(Int(r.seq))
                    values.text(r.slug)
                }
                guard made else { return }
                fid += 1
            }
        }
        try addressRowValues.drain { chunk in
            try insertAddress.write(chunk[0])
            rows += chunk[0].rows
            if let n = input.failAfterAddressRows, rows >= n { throw ProvisionFault.injected(rows) }
        }
        prepared = AddressRows()
        try finishSpatialIndex("buildings", extent: buildingExtent)
        try finishSpatialIndex("campaign_addresses", extent: addressExtent)
        tableWritten()

        for index in lookupIndexes where index.table != "building_address_links" { try createIndex(index) }

        // What was written, counted as it went in (no scan of the tables).
        return ProvisionSummary(campaignID: campaignID, addressesSaved: rows, buildingsSaved: input.buildings.count,
                                roadsSaved: input.segments.count, linksCreated: linksCreated, orphanBuildings: orphans.count,
                                unchanged: false)
    }

    /// An address row's values that take work to make, in the order rows are written (by id).
    struct AddressRow: Sendable {
        /// Into `input.addresses` and `input.links.links` (-1: none).
        var index: Int32, link: Int32
        var seq: Int32
        var slug: String
    }

    /// The rows, and their one-line forms one after another in one buffer (a string each
    /// would be an allocation each, tens of megabytes at a city's addresses).
    struct AddressRows: Sendable {
        var rows: [AddressRow] = []
        var formattedBytes: [UInt8] = []
        var formattedEnds: [Int32] = []

        func formatted(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
            let start = k == 0 ? 0 : Int(formattedEnds[k - 1])
            formattedBytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<Int(formattedEnds[k])])) }
        }
    }

    struct KeptFields: Sendable { var visited: Bool; var scans: Int; var slug: String? }

    static func prepareAddressRows(_ input: ProvisionInput, kept: [String: KeptFields]) throws -> AddressRows {
        // Walking order: street, house number (numeric, then as written), unit, id. Each text
        // is replaced by its rank among the distinct values (few: streets, numbers, units), and
        // the id by its rank, so the sort compares numbers only.
        func ranks<S: Sequence<String>>(_ texts: S) -> [Int32] {
            var distinct = TextNumbers()
            let numbers = texts.map { distinct.number($0) }
            // Texts distinct byte for byte may still be equal as Strings (composed and
            // decomposed accents): those share a rank.
            var rank = [Int32](repeating: 0, count: distinct.count)
            var r: Int32 = -1, previous: String? = nil
            for n in distinct.texts.indices.sorted(by: { distinct.texts[$0] < distinct.texts[$1] }) {
                if distinct.texts[n] != previous { r += 1; previous = distinct.texts[n] }
                rank[n] = r
            }
            return numbers.map { rank[Int($0)] }
        }
        let ids = input.addresses.map { $0.id }
        let idOrder = input.links.addressOrder(of: input.addresses) ?? IDOrder.sortedIndices(ids)
        struct WalkKey { var street: Int32, number: Double, numberText: Int32, unit: Int32, id: Int32 }
        var keys: [WalkKey] = []
        do {
            let streets = ranks(StreetName.keys(of: input.addresses).lazy.map { $0 ?? "" })
            let numberTexts = ranks(input.addresses.indices.lazy.map { input.addresses[$0].number ?? "" })
            let units = ranks(input.addresses.indices.lazy.map { input.addresses[$0].unit ?? "" })
            var idRank = [Int32](repeating: 0, count: ids.count)
            for (n, i) in idOrder.enumerated() { idRank[i] = Int32(n) }
            keys = input.addresses.indices.map { i in
                WalkKey(street: streets[i], number: HouseNumbers.value(input.addresses[i].number) ?? .infinity,
                        numberText: numberTexts[i], unit: units[i], id: idRank[i])
            }
        }
        let order = input.addresses.indices.sorted { i, j in
            let a = keys[i], b = keys[j]
            if a.street != b.street { return a.street < b.street }
            if a.number != b.number { return a.number < b.number }
            if a.numberText != b.numberText { return a.numberText < b.numberText }
            if a.unit != b.unit { return a.unit < b.unit }
            return a.id < b.id
        }
        keys = []
        var seq = [Int32](repeating: 0, count: input.addresses.count)
        for (n, i) in order.enumerated() { seq[i] = Int32(n + 1) }

        // The slugs in use, as numbers (a kept slug not in this form cannot equal a new one).
        var slugs = Set(kept.values.compactMap { $0.slug.flatMap(QRSlug.code) })
        // One link per address, sorted by address id like the rows made here.
        var links = SortedLookup(input.links.links.map(\.addressID))
        var out = AddressRows()
        out.rows.reserveCapacity(input.addresses.count)
        out.formattedEnds.reserveCapacity(input.addresses.count)
        var random = QRSlug.Source()
        // Each distinct `address_levels` text parsed once.
        var levels = TextMemo<[String]>()
        for i in idOrder {
            let id = ids[i]
            let l = links.next(id) ?? -1
            var slug = kept.isEmpty ? nil : kept[id]?.slug
            if slug == nil {
                var code: UInt64
                repeat { code = QRSlug.makeCode(&random) } while !slugs.insert(code).inserted
                slug = QRSlug.text(code)
            }
            out.rows.append(AddressRow(index: Int32(i), link: Int32(l), seq: seq[i], slug: slug!))
            let addressLevels = input.addresses[i].addressLevelsJSON.map { levels.value($0, AddressFormat.levelValues) } ?? []
            AddressFormat.oneLine(input.addresses[i], levels: addressLevels, into: &out.formattedBytes)
            out.formattedEnds.append(try CheckedCount.int32(out.formattedBytes.count, "bytes of one-line addresses"))
        }
        return out
    }

    /// The secondary indexes (migrations 002 and 004) that a provision drops and builds again
    /// once the rows are in. The slugs are unique by construction; the index checks it.
    typealias LookupIndex = (name: String, table: String, column: String, unique: Bool)
    static let lookupIndexes: [LookupIndex] = [
        ("campaign_addresses_building", "campaign_addresses", "building_gers_id", false),
        ("building_address_links_building", "building_address_links", "building_id", false),
        ("campaign_addresses_qr_slug", "campaign_addresses", "qr_slug", true),
    ]

    static func summary(_ db: Database, campaignID: String, unchanged: Bool) throws -> ProvisionSummary {
        func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql, arguments: [campaignID]) ?? 0 }
        return ProvisionSummary(
            campaignID: campaignID,
            addressesSaved: try count("SELECT count(*) FROM campaign_addresses WHERE campaign_id = ?"),
            buildingsSaved: try count("SELECT count(*) FROM buildings WHERE ? IS NOT NULL"),
            roadsSaved: try count("SELECT count(*) FROM segments WHERE ? IS NOT NULL"),
            linksCreated: try count("SELECT count(*) FROM building_address_links WHERE campaign_id = ?"),
            orphanBuildings: try count("SELECT count(*) FROM buildings WHERE feature_status = 'orphan_building' AND ? IS NOT NULL"),
            unchanged: unchanged)
    }
}

enum ProvisionFault: Error, CustomStringConvertible {
    case injected(Int)
    var description: String {
        switch self { case .injected(let n): return "injected failure after \(n) address rows" }
    }
}

/// QR slugs: 10 characters from a cryptographically secure source (the kernel's generator:
/// /dev/urandom, or getrandom(2) through the standard library), in an alphabet without
/// look-alike characters.
public enum QRSlug {
    static let alphabet = Array("23456789abcdefghjkmnpqrstuvwxyz".utf8)

    public static func make() -> String {
        var source = Source()
        return make(&source)
    }

    static func make(_ source: inout Source) -> String { text(makeCode(&source)) }

    /// A slug as a number: its characters' places in the alphabet, 5 bits each, the first
    /// character lowest.
    static func makeCode(_ source: inout Source) -> UInt64 {
        var code: UInt64 = 0
        var n = 0
        // 5 random bits a character, values 31 rejected (unbiased over the 31 letters).
        while n < 10 {
            var bits = source.next()
            for _ in 0..<12 where n < 10 {
                let v = bits & 31
                bits >>= 5
                if v < UInt64(alphabet.count) { code |= v << (5 * UInt64(n)); n += 1 }
            }
        }
        return code
    }

    /// The slug of a code from `makeCode`.
    static func text(_ code: UInt64) -> String {
        String(unsafeUninitializedCapacity: 10) { out in
            for n in 0..<10 { out[n] = alphabet[Int((code >> (5 * UInt64(n))) & 31)] }
            return 10
        }
    }

    /// The code of a slug in the form `make` gives; nil for any other text.
    static func code(_ slug: String) -> UInt64? {
        guard slug.utf8.count == 10 else { return nil }
        var code: UInt64 = 0
        for (n, c) in slug.utf8.enumerated() {
            guard let v = alphabet.firstIndex(of: c) else { return nil }
            code |= UInt64(v) << (5 * UInt64(n))
        }
        return code
    }

    /// Random words from the system's generator, fetched 512 at a time from /dev/urandom (the
    /// kernel's CSPRNG, as getrandom(2)): a kernel call per word, as SystemRandomNumberGenerator
    /// makes, would be a million calls at a city's addresses. Without /dev/urandom, the system
    /// generator word by word.
    struct Source {
        nonisolated(unsafe) private static let device: Int32 = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        private var words = [UInt64](repeating: 0, count: 512)
        private var at = 512

        mutating func next() -> UInt64 {
            if at == words.count {
                var filled = 0
                if Self.device >= 0 {
                    filled = words.withUnsafeMutableBytes { buffer in
                        var got = 0
                        while got < buffer.count {
                            let n = read(Self.device, buffer.baseAddress! + got, buffer.count - got)
                            if n <= 0 { break }
                            got += n
                        }
                        return got
                    } / 8
                }
                var rng = SystemRandomNumberGenerator()
                for k in filled..<words.count { words[k] = rng.next() }
                at = 0
            }
            defer { at += 1 }
            return words[at]
        }
    }
}

/// One-line postal formatting: "81-42 243rd Street, Unit 2, QUEENS, NY 11426".
public enum AddressFormat {
    public static func oneLine(_ a: Address) -> String {
        var out: [UInt8] = []
        oneLine(a, levels: levelValues(a.addressLevelsJSON), into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The same, its UTF-8 appended to `out`, given the values of the address's
    /// `address_levels`: the parts (number and street; unit; city; region and postcode)
    /// joined by ", ", each left out when it has nothing.
    static func oneLine(_ a: Address, levels: [String], into out: inout [UInt8]) {
        var parts = 0
        func startPart() {
            if parts > 0 { out.append(44); out.append(32) }
            parts += 1
        }
        func append(_ s: String) { var s = s; s.withUTF8 { out.append(contentsOf: $0) } }
        /// Two texts joined by a space (either may be absent), as a part unless that is empty.
        func pair(_ x: String?, _ y: String?) {
            guard x != nil || y != nil else { return }
            if (x ?? "").isEmpty && (y ?? "").isEmpty && (x == nil || y == nil) { return }
            startPart()
            if let x { append(x) }
            if x != nil && y != nil { out.append(32) }
            if let y { append(y) }
        }
        pair(a.number, a.street)
        if let u = a.unit, !u.isEmpty { startPart(); append("Unit "); append(u) }
        if let city = a.postalCity ?? (levels.count > 1 ? levels[1] : nil) { startPart(); append(city) }
        pair(levels.first, a.postcode)
    }

    /// The `value`s of Overture's `address_levels` ([{"value":"NY"},{"value":"QUEENS"}]).
    /// The same few texts repeat over a whole extract, so each is parsed once.
    static func levelValues(_ json: String?) -> [String] {
        guard let json else { return [] }
        return levelCache.value(for: json) {
            guard let data = json.data(using: .utf8),
                  let arr = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
            return arr.compactMap { $0["value"] as? String }
        }
    }
    static let levelCache = MemoCache<String, [String]>()
}

/// Finds ids in a sorted array of ids (those of an array of items), for ids asked in
/// ascending order: one forward pass, no dictionary, no item copied.
struct SortedLookup {
    private let ids: [String]
    private var at = 0

    init(_ ids: [String]) { self.ids = ids }

    /// The index of `wanted`, or nil; `wanted` must not be below the previous one asked.
    mutating func next(_ wanted: String) -> Int? {
        while at < ids.count && ids[at] < wanted { at += 1 }
        return at < ids.count && ids[at] == wanted ? at : nil
    }
}

/// Has the kernel write a file's dirty pages out on another thread (fdatasync on a descriptor
/// of its own) while the writer goes on. Errors are left to the writer's own fsync, which
/// sees them too; a file that cannot be opened is simply not written behind.
final class WriteBehind: @unchecked Sendable {
    private let fd: Int32
    private let queue = DispatchQueue(label: "flyr.write-behind")

    init(_ path: String) { fd = open(path, O_RDONLY) }

    func start() {
        guard fd >= 0 else { return }
        queue.async { _ = fdatasync(self.fd) }
    }

    /// Waits for the writing started and closes the descriptor.
    func finish() {
        guard fd >= 0 else { return }
        queue.sync {}
        close(fd)
    }
}

/// A value made on its own thread from the moment it is created; `value` waits for it.
final class Background<T: Sendable>: @unchecked Sendable {
    private var result: T?
    private let done = DispatchGroup()

    init(_ make: @escaping @Sendable () -> T) {
        done.enter()
        // A thread of its own, not a dispatch queue's: the queue's few threads may all be busy
        // with a parallel loop (the orientation's), and the value would wait for them.
        Thread { self.result = make(); self.done.leave() }.start()
    }

    /// Waits until the value is made (without taking it).
    func wait() { done.wait() }

    /// The value, once: waits for it and lets go of it, so the caller holds the only copy and
    /// it is freed when the caller is done with it.
    func take() -> T {
        done.wait()
        defer { result = nil }
        return result!
    }
}

/// A count made on another thread and read once that thread is known to be done.
final class Tally: @unchecked Sendable { var count = 0 }

/// A small thread-safe memo table.
final class MemoCache<K: Hashable & Sendable, V: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var table: [K: V] = [:]
    func value(for key: K, _ make: () -> V) -> V {
        lock.lock(); defer { lock.unlock() }
        if let v = table[key] { return v }
        let v = make()
        if table.count < 10_000 { table[key] = v }
        return v
    }
}
