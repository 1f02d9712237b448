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
    public static let engineVersion = "flyr-provision-3"

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
    /// When the campaign had turfs: they were cut again over the new addresses with the same
    /// target (`target` doors), giving `turfs` turfs; their ids and walking order are new.
    public var turfsRecut: (target: Int, turfs: Int)? {
        get { recutTarget.map { ($0, recutTurfs) } }
        set { recutTarget = newValue?.target; recutTurfs = newValue?.turfs ?? 0 }
    }
    var recutTarget: Int? = nil
    var recutTurfs = 0
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
