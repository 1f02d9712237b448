import Foundation
import GRDB
import Geo

/// The provision's writer: one campaign's rows, inside the caller's transaction. SQLite writes
/// on this one thread; the work that does not need it (the orientation, the address rows, the
/// rows' values, the R-tree plans) runs on other threads so that the writer never waits long.
extension Provisioner {
    /// Writes the campaign, step by step in the order below. The orientation, when still to be
    /// worked out, runs from the start beside the writing: only the address rows need it, so
    /// everything else goes in before the wait for it.
    static func write(_ db: Database, _ input: ProvisionInput, campaignID: String,
                      progress: (String) -> Void, tableWritten: () -> Void = {}) throws -> ProvisionSummary {
        let kept = try keptFieldData(db)
        try writeCampaignRow(db, input, campaignID: campaignID)
        try clearCampaign(db, campaignID: campaignID)
        try writeRecipients(db, input, campaignID: campaignID)
        // The CHECK constraints are `column IN (list)`, which SQLite evaluates by building a
        // temporary index on every row; the values written here come from Swift enums
        // (LinkMethod, the two feature statuses), so the checks are off for the bulk rows.
        try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
        defer { try? db.execute(sql: "PRAGMA ignore_check_constraints = OFF") }

        // A failure while the orientation runs waits for it before it is reported.
        let orientationJob = input.orientationJob.map { job in Background { Result { try job() } } }
        defer { orientationJob?.wait() }

        let buildingOrder = input.links.buildingOrder(of: input.buildings) ?? IDOrder.sortedIndices(input.buildings.map { $0.id })
        let hadStats = try writeStatuses(db, input, order: buildingOrder)
        progress("writing \(input.segments.count) segments")
        try writeSegments(db, input)
        // The address rows (walking order, link, QR slug, one-line form) are made on another
        // thread while the buildings go in.
        let addressRows = Background { Result { try prepareAddressRows(input, kept: kept) } }
        progress("writing \(input.buildings.count) buildings")
        let buildings = try writeBuildings(db, input, order: buildingOrder)
        if hadStats {
            try db.execute(sql: "DELETE FROM building_stats WHERE gers_id NOT IN (SELECT gers_id FROM buildings)")
        }

        // The links, the R-trees and the links' lookup index need no orientation: they go in
        // while the orientations may still be on their way.
        var prepared = try addressRows.take().get()
        let firstAddressFID = try nextFID(db, "campaign_addresses")
        let addressIndex = try startSpatialIndex(db, "campaign_addresses", count: prepared.rows.count, firstFID: firstAddressFID) {
            [prepared] in input.addresses[Int(prepared.rows[$0].index)].bbox
        }
        let linksCreated = try writeLinks(db, input, prepared, campaignID: campaignID)
        let buildingExtent = try writeSpatialIndex(db, "buildings", buildings.index)
        let addressExtent = try writeSpatialIndex(db, "campaign_addresses", addressIndex)
        try createLinksIndex(db)
        tableWritten()

        progress("writing \(input.addresses.count) addresses")
        let facings = try orientationJob?.take().get() ?? input.facingsGiven
        let rows = try writeAddresses(db, input, prepared, facings: facings, kept: kept,
                                      campaignID: campaignID, firstFID: firstAddressFID)
        prepared = AddressRows()
        try finishSpatialIndex(db, "buildings", extent: buildingExtent)
        try finishSpatialIndex(db, "campaign_addresses", extent: addressExtent)
        tableWritten()
        for index in lookupIndexes where index.table != "building_address_links" { try createIndex(db, index) }

        // Turfs cut before would number addresses that are gone or moved: cut them again.
        let recutTarget = try CampaignStore.storedTurfTarget(db)
        let recut = try recutTarget.map { target in
            progress("cutting the turfs again (\(target) doors each)")
            return try CampaignStore.cutTurfs(db, target: target).turfs.count
        }

        // What was written, counted as it went in (no scan of the tables).
        var summary = ProvisionSummary(campaignID: campaignID, addressesSaved: rows, buildingsSaved: input.buildings.count,
                                       roadsSaved: input.segments.count, linksCreated: linksCreated, orphanBuildings: buildings.orphans,
                                       unchanged: false)
        if let recutTarget, let recut { summary.turfsRecut = (recutTarget, recut) }
        return summary
    }

    // MARK: The steps, in order

    /// The field data to keep across a re-provision, by address id.
    static func keptFieldData(_ db: Database) throws -> [String: KeptFields] {
        var kept: [String: KeptFields] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT gers_id, visited, scans, qr_slug FROM campaign_addresses") {
            kept[row["gers_id"]] = KeptFields(visited: row["visited"], scans: row["scans"], slug: row["qr_slug"])
        }
        return kept
    }

    /// The campaign's row: inserted, or updated in place (same id) on a re-provision.
    static func writeCampaignRow(_ db: Database, _ input: ProvisionInput, campaignID: String) throws {
        let now = ISO8601DateFormatter().string(from: Date())
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
    }

    /// The recipient list's rows, when the campaign was made from one.
    static func writeRecipients(_ db: Database, _ input: ProvisionInput, campaignID: String) throws {
        let recipient = try db.makeStatement(sql: "INSERT INTO campaign_recipients (campaign_id, address_gers_id, line, fields) VALUES (?, ?, ?, ?)")
        for r in input.recipients { try recipient.execute(arguments: [campaignID, r.addressID, r.line, r.fieldsJSON]) }
    }

    /// Empties the feature tables and the campaign's links (and recipients), with the R-tree triggers and the
    /// lookup indexes off: indexes on building ids and QR slugs take rows in random key order,
    /// so they are sorted once at the end instead of updated row by row.
    static func clearCampaign(_ db: Database, campaignID: String) throws {
        let tables = ["buildings", "campaign_addresses", "segments"]
        for t in tables { try GeoPackage.dropSpatialIndexTriggers(db, table: t) }
        for t in tables { try db.execute(sql: "DELETE FROM \(t)") }
        try db.execute(sql: "DELETE FROM building_address_links WHERE campaign_id = ?", arguments: [campaignID])
        try db.execute(sql: "DELETE FROM campaign_recipients WHERE campaign_id = ?", arguments: [campaignID])
        for index in lookupIndexes { try db.execute(sql: "DROP INDEX IF EXISTS \(index.name)") }
    }

    /// Field statuses: a row per building, in id order, kept when it is there already (rows of
    /// buildings that no longer exist go once the buildings are in). True when the table had rows.
    static func writeStatuses(_ db: Database, _ input: ProvisionInput, order: [Int]) throws -> Bool {
        let hadStats = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM building_stats)") ?? false
        let insertStats = try BulkInsert(db, into: "building_stats", columns: ["gers_id"], or: "IGNORE")
        for i in order {
            insertStats.text(input.buildings[i].id)
            try insertStats.endRow()
        }
        try insertStats.finish()
        return hadStats
    }

    /// Segments in id order, then their R-tree and extent.
    static func writeSegments(_ db: Database, _ input: ProvisionInput) throws {
        let insertSegment = try BulkInsert(db, into: "segments", columns: [
            "fid", "geom", "gers_id", "subtype", "class", "subclass", "name", "names", "sources"])
        let firstSegmentFID = try nextFID(db, "segments")
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
        let segmentIndex = try startSpatialIndex(db, "segments", count: boxes.count, firstFID: firstSegmentFID) { [boxes] in boxes[$0] }
        try finishSpatialIndex(db, "segments", extent: try writeSpatialIndex(db, "segments", segmentIndex))
    }

    /// Buildings in id order (so fids are stable), their link counts from `links.buildings`
    /// (also in id order); the rows' values are gathered (geometry encoded, texts copied) on
    /// another thread while this one has SQLite write them. Returns their R-tree, being
    /// planned, and the number of orphans.
    static func writeBuildings(_ db: Database, _ input: ProvisionInput, order buildingOrder: [Int])
        throws -> (index: Background<(RTreeBulkLoad.Plan, BBox)>, orphans: Int) {
        let insertBuilding = try BulkInsert(db, into: "buildings", columns: [
            "fid", "geom", "gers_id", "height_m", "levels", "subtype", "class", "feature_status", "address_count",
            "is_multi_unit", "names", "sources"])
        let firstBuildingFID = try nextFID(db, "buildings")
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
        let index = try startSpatialIndex(db, "buildings", count: buildingOrder.count, firstFID: firstBuildingFID) {
            input.buildings[buildingOrder[$0]].bbox
        }
        return (index, orphans.count)
    }

    /// The link of each linked address, in address id order; returns how many.
    static func writeLinks(_ db: Database, _ input: ProvisionInput, _ prepared: AddressRows, campaignID: String) throws -> Int {
        let insertLink = try BulkInsert(db, into: "building_address_links", columns: [
            "campaign_id", "address_id", "building_id", "method", "confidence", "distance_m", "street_match"])
        var linksCreated = 0
        let linkRowValues = RowPipe(chunkRows: insertLink.rows(filling: 64), columns: insertLink.columns) { row in
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
        return linksCreated
    }

    /// The links' lookup index. Its sort holds up to the page cache's size in memory (SQLite's
    /// sorter), beside the orientation's working data: the cache goes down to 8 MiB meanwhile
    /// (its pages freed for the sort to reuse), which caps the sort's own at 16 MiB.
    static func createLinksIndex(_ db: Database) throws {
        let cache = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        try db.execute(sql: "PRAGMA cache_size = -8192")
        for index in lookupIndexes where index.table == "building_address_links" { try createIndex(db, index) }
        try db.execute(sql: "PRAGMA cache_size = \(cache)")
    }

    /// The address rows in id order, with their orientation and kept field data; the values
    /// are gathered on another thread. Returns how many rows went in.
    static func writeAddresses(_ db: Database, _ input: ProvisionInput, _ prepared: AddressRows, facings: AddressFacings,
                               kept: [String: KeptFields], campaignID: String, firstFID firstAddressFID: Int64) throws -> Int {
        let insertAddress = try BulkInsert(db, into: "campaign_addresses", columns: [
            "fid", "geom", "gers_id", "campaign_id", "number", "street", "unit", "postcode", "postal_city", "country",
            "address_levels", "sources", "formatted", "building_gers_id", "match_method", "confidence", "distance_m",
            "street_match", "segment_gers_id", "road_bearing", "house_bearing", "is_oriented", "visited", "scans", "seq",
            "qr_slug"])
        var rows = 0
        let addressRowValues = RowPipe(chunkRows: insertAddress.rows(filling: 64), columns: insertAddress.columns) { row in
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
        return rows
    }

    // MARK: Spatial and lookup indexes

    /// The secondary indexes (migrations 002 and 004) that a provision drops and builds again
    /// once the rows are in. The slugs are unique by construction; the index checks it.
    typealias LookupIndex = (name: String, table: String, column: String, unique: Bool)
    static let lookupIndexes: [LookupIndex] = [
        ("campaign_addresses_building", "campaign_addresses", "building_gers_id", false),
        ("building_address_links_building", "building_address_links", "building_id", false),
        ("campaign_addresses_qr_slug", "campaign_addresses", "qr_slug", true),
    ]

    static func createIndex(_ db: Database, _ index: LookupIndex) throws {
        try db.execute(sql: "CREATE \(index.unique ? "UNIQUE " : "")INDEX \(index.name) ON \(index.table)(\(index.column))")
    }

    // Each table's R-tree is packed in one go (RTreeBulkLoad) from the fids and envelopes its
    // rows will have, worked out on another thread; it is written into its shadow tables
    // whenever the writer is free (the triggers are off), and once the rows are in, its
    // triggers come back and the table's extent is set from the same envelopes.

    /// Creates the table's R-tree and starts planning it on another thread.
    static func startSpatialIndex(_ db: Database, _ table: String, count: Int, firstFID: Int64,
                                  box: @escaping @Sendable (Int) -> BBox) throws -> Background<(RTreeBulkLoad.Plan, BBox)> {
        let nodeSize = try RTreeBulkLoad.create(db, rtree: "rtree_\(table)_geom")
        return Background {
            var extent = BBox.empty
            for k in 0..<count { extent.expand(box(k)) }
            return (RTreeBulkLoad.plan(count: count, nodeSize: nodeSize, id: { firstFID + Int64($0) }, box: box), extent)
        }
    }

    /// Writes the planned R-tree into its shadow tables; returns the table's extent.
    static func writeSpatialIndex(_ db: Database, _ table: String, _ job: Background<(RTreeBulkLoad.Plan, BBox)>) throws -> BBox {
        let (plan, extent) = job.take()
        try RTreeBulkLoad.write(db, rtree: "rtree_\(table)_geom", plan)
        return extent
    }

    /// The R-tree's triggers back on, and the table's extent set.
    static func finishSpatialIndex(_ db: Database, _ table: String, extent: BBox) throws {
        try GeoPackage.createSpatialIndexTriggers(db, table: table)
        try GeoPackage.setExtent(db, table: table, extent)
    }

    /// The next fid of `table`, the one AUTOINCREMENT would give (one past the largest the
    /// table ever had): rows are written with their fids, so that a statement can carry
    /// several rows and the R-tree entries are known without asking SQLite row by row.
    static func nextFID(_ db: Database, _ table: String) throws -> Int64 {
        let last = try Int64.fetchOne(db, sql: """
            SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0), coalesce((SELECT max(fid) FROM \(table)), 0))
            """, arguments: [table]) ?? 0
        return last + 1
    }
}

enum ProvisionFault: Error, CustomStringConvertible {
    case injected(Int)
    var description: String {
        switch self { case .injected(let n): return "injected failure after \(n) address rows" }
    }
}
