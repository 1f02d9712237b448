import Foundation
import GRDB
import Testing
@testable import Campaign
import Geo

/// The map reader: the R-tree's buildings for an area, in id order, every one that meets it.
@Suite struct CampaignMapReaderTests {
    /// Every building read for `area` with its envelope, in reading order, and the rows read.
    static func read(_ path: String, _ area: BBox, sortFirst: Bool = false) throws -> (ids: [String], boxes: [BBox], rowsRead: Int) {
        let reader = try CampaignMapReader(path: path)
        var ids: [String] = [], boxes: [BBox] = []
        try reader.buildings(in: area, sortFirst: sortFirst, batchSize: 100) { batch in
            for r in batch.rows {
                ids.append(r.gersID)
                boxes.append(BBox(covering: r.rings.flatMap { batch.coords[batch.rings[$0]] }))
            }
        }
        let n = reader.rowsRead
        try reader.close()
        return (ids, boxes, n)
    }

    @Test func aSmallAreaReadsItsBuildingsThroughTheRTreeInIDOrder() throws {
        let path = try Fixtures.tempDir().appendingPathComponent("c.gpkg").path
        _ = try Provisioner.provision(try Fixtures.sampleInput(), at: path)
        let (all, allBoxes) = try DatabaseQueue(path: path).read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT gers_id, geom FROM buildings ORDER BY gers_id")
            return (rows.map { $0[0] as String }, try rows.map { try GeoPackageGeometry.decode($0[1] as Data).envelope })
        }
        let reader = try CampaignMapReader(path: path)
        let extent = try reader.buildingExtent()
        try reader.close()
        #expect(extent == allBoxes.reduce(BBox.empty) { var b = $0; b.expand($1); return b })

        // The whole extent: every building, in id order (a straight pass over the table).
        let whole = try Self.read(path, extent)
        #expect(whole.ids == all && whole.rowsRead == all.count)

        // A corner of a few percent: only the R-tree's hits are read, every building meeting it among them.
        let area = BBox(minX: extent.minX, minY: extent.minY, maxX: extent.minX + (extent.maxX - extent.minX) / 5,
                        maxY: extent.minY + (extent.maxY - extent.minY) / 5)
        let part = try Self.read(path, area)
        let meeting = zip(all, allBoxes).filter { $0.1.intersects(area) }.map(\.0)
        #expect(!meeting.isEmpty && part.rowsRead < all.count / 4, "read \(part.rowsRead) of \(all.count)")
        #expect(Set(meeting).isSubset(of: Set(part.ids)) && part.ids.count == part.rowsRead)
        #expect(part.ids == part.ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(part.boxes.allSatisfy { $0.expanded(by: 1e-5).intersects(area) })
        #expect(try Self.read(path, BBox(minX: 10, minY: 10, maxX: 11, maxY: 11)).rowsRead == 0)
    }

    @Test func aPointWhereAFootprintBelongsIsLeftOffAndABadBlobNamesItsRow() throws {
        let path = try Fixtures.tempDir().appendingPathComponent("c.gpkg").path
        _ = try Provisioner.provision(try Fixtures.sampleInput(), at: path)
        let (pointID, badID) = try GeoPackage.open(path).write { db in
            try db.execute(sql: "UPDATE buildings SET geom = ? WHERE fid = 3", arguments: [GeoPackageGeometry.point(Coord(-73.74, 40.717)).encode()])
            return (try String.fetchOne(db, sql: "SELECT gers_id FROM buildings WHERE fid = 3")!,
                    try String.fetchOne(db, sql: "SELECT gers_id FROM buildings WHERE fid = 7")!)
        }
        let reader = try CampaignMapReader(path: path)
        let extent = try reader.buildingExtent()
        try reader.close()
        let read = try Self.read(path, extent)
        #expect(!read.ids.contains(pointID) && read.ids.contains(badID))
        // A blob cut short: refused, naming the file, the fid and the id.
        try GeoPackage.open(path).write { db in
            let blob = try Data.fetchOne(db, sql: "SELECT geom FROM buildings WHERE fid = 7")!
            try db.execute(sql: "UPDATE buildings SET geom = ? WHERE fid = 7", arguments: [blob.prefix(blob.count - 9)])
        }
        #expect {
            _ = try Self.read(path, extent)
        } throws: { error in
            "\(error)".contains("fid 7 (\(badID))") && "\(error)".contains(path)
        }
    }

    @Test func rowsOutOfIDOrderAreRefusedUnlessSortedFirst() throws {
        let path = try Fixtures.tempDir().appendingPathComponent("c.gpkg").path
        _ = try Provisioner.provision(try Fixtures.sampleInput(), at: path)
        // A building renamed past every other (as an edit elsewhere could leave it): fid order is no longer id order.
        try GeoPackage.open(path).write { db in
            try db.execute(sql: "UPDATE buildings SET gers_id = 'ffff' || gers_id WHERE fid = 10")
        }
        let reader = try CampaignMapReader(path: path)
        let extent = try reader.buildingExtent()
        try reader.close()
        #expect(throws: CampaignMapReader.NotInIDOrder.self) { try Self.read(path, extent) }
        let sorted = try Self.read(path, extent, sortFirst: true)
        #expect(sorted.ids == sorted.ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } && sorted.ids.last?.hasPrefix("ffff") == true)
    }
}
