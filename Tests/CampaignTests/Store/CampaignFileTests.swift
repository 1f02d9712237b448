import Foundation
import GRDB
import Testing
@testable import Campaign
import Geo

/// Replacing a campaign file: nothing of the old file leaks into the new one, a file in use or
/// unreadable is never replaced, and what killed provisions left behind is swept.
@Suite(.serialized) struct CampaignFileTests {
    /// An SQLite database that is not a campaign, in WAL mode with 64 KiB pages (as flyr's new
    /// files), whose last writes are still in its write-ahead log, as a crash leaves it.
    func databaseWithLeftoverLog(_ path: String) throws {
        var config = Configuration()
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA page_size = 65536")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        }
        let db = try DatabaseQueue(path: path, configuration: config)
        try db.write { db in
            try db.execute(sql: "CREATE TABLE junk (k INTEGER PRIMARY KEY, v TEXT)")
            for k in 0..<2000 { try db.execute(sql: "INSERT INTO junk VALUES (?, ?)", arguments: [k, String(repeating: "x", count: 300)]) }
        }
        let log = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        #expect(log.count > 65536)
        try db.close()
        try log.write(to: URL(fileURLWithPath: path + "-wal"))
    }

    func sha256(_ path: String) -> String? { FileHash.file(path) }

    /// Another process (the sqlite3 shell) holding `path` open inside a read transaction,
    /// until `release` is called.
    final class Holder {
        let process = Process()
        let input = Pipe()
        init(_ path: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = [path]
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try input.fileHandleForWriting.write(contentsOf: Data("BEGIN;\nSELECT count(*) FROM sqlite_master;\n".utf8))
            usleep(300_000)
        }
        func release() throws {
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    @Test func aLeftoverWriteAheadLogIsNotReplayedIntoTheNewCampaign() throws {
        let dir = try Fixtures.tempDir()
        let path = dir.appendingPathComponent("c.gpkg").path
        try databaseWithLeftoverLog(path)
        let input = try Fixtures.sampleInput()
        _ = try Provisioner.provision(input, at: path)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let db = try DatabaseQueue(path: path)
        defer { try? db.close() }
        #expect(try db.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        #expect(try db.read { try $0.tableExists("junk") } == false)
        #expect(try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM campaign_addresses") } == input.addresses.count)
    }

    @Test func aCampaignOpenInAnotherProcessIsNotReplaced() throws {
        let dir = try Fixtures.tempDir()
        let path = dir.appendingPathComponent("c.gpkg").path
        _ = try Provisioner.provision(try Fixtures.sampleInput(), at: path)
        let store = try CampaignStore(path: path)
        let snapshot = try store.snapshot()
        try store.close()
        let before = sha256(path)
        let holder = try Holder(path)
        do {
            try Provisioner.write(snapshot, at: path)
            Issue.record("replaced while another process had it open")
        } catch let e as GeoPackageError {
            guard case .inUse(let p) = e else { Issue.record("\(e)"); return }
            #expect(p == path)
        }
        try holder.release()
        #expect(sha256(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("flyr-tmp") }.isEmpty)
        // Once the other process is gone, the same replacement goes through.
        try Provisioner.write(snapshot, at: path)
        #expect(try CampaignStore(path: path, readOnly: true).snapshot() == snapshot)
    }

    @Test func replacingRemovesTheOldFilesSideFiles() throws {
        let dir = try Fixtures.tempDir()
        let path = dir.appendingPathComponent("c.gpkg").path
        try databaseWithLeftoverLog(path)
        let temp = dir.appendingPathComponent("new.db").path
        let fresh = try DatabaseQueue(path: temp)
        try fresh.write { try $0.execute(sql: "CREATE TABLE fresh (k INTEGER)") }
        try fresh.close()
        try CampaignFile.replace(path, with: temp)
        for suffix in CampaignFile.sideFileSuffixes { #expect(!FileManager.default.fileExists(atPath: path + suffix)) }
        let db = try DatabaseQueue(path: path)
        defer { try? db.close() }
        #expect(try db.read { try $0.tableExists("fresh") && !(try $0.tableExists("junk")) })
    }

    @Test func anUnreadableDatabaseIsNeverTakenForNotACampaign() throws {
        let dir = try Fixtures.tempDir()
        let path = dir.appendingPathComponent("c.gpkg").path
        _ = try Provisioner.provision(try Fixtures.sampleInput(), at: path)
        // Page 1 past the file header (the schema's B-tree) overwritten: SQLite opens the
        // file but can read nothing in it.
        let fh = try #require(FileHandle(forUpdatingAtPath: path))
        try fh.seek(toOffset: 100)
        try fh.write(contentsOf: Data(repeating: 0xA5, count: 4000))
        try fh.close()
        let before = sha256(path)
        #expect(throws: GeoPackageError.self) { try Provisioner.provision(try Fixtures.sampleInput(settings: "other"), at: path) }
        do {
            _ = try Provisioner.existingCampaign(path)
            Issue.record("a corrupt database read as not a campaign")
        } catch let e as GeoPackageError {
            guard case .unreadableCampaign(let p, _) = e else { Issue.record("\(e)"); return }
            #expect(p == path)
        }
        #expect(sha256(path) == before)
    }

    @Test func onlyFilesThatAreCertainlyNotCampaignsAreTakenAsNone() throws {
        let dir = try Fixtures.tempDir()
        let text = dir.appendingPathComponent("notes.gpkg").path
        try "my notes\n".write(toFile: text, atomically: true, encoding: .utf8)
        #expect(try Provisioner.existingCampaign(text) == nil)
        let other = dir.appendingPathComponent("other.gpkg").path
        let db = try DatabaseQueue(path: other)
        try db.write { try $0.execute(sql: "CREATE TABLE t (k INTEGER)") }
        try db.close()
        #expect(try Provisioner.existingCampaign(other) == nil)
        // A directory where the file should be cannot be read: an error, not "no campaign".
        let folder = dir.appendingPathComponent("folder.gpkg").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(throws: GeoPackageError.self) { try Provisioner.existingCampaign(folder) }
    }

    @Test func temporaryFilesOfDeadProcessesAreSwept() throws {
        let dir = try Fixtures.tempDir()
        let path = dir.appendingPathComponent("c.gpkg").path
        // A process id that is free: a child that has exited and been waited for.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = child.processIdentifier
        let abandoned = ["c.gpkg.flyr-tmp-\(dead)", "c.gpkg.flyr-tmp-\(dead)-journal", "other.gpkg.flyr-tmp-\(dead)"]
        // Process 1 runs: its file may still be being written.
        let alive = ["c.gpkg.flyr-tmp-1", "c.gpkg.flyr-tmp-x1"]
        for name in abandoned + alive { try Data(repeating: 7, count: 1000).write(to: dir.appendingPathComponent(name)) }
        _ = try Provisioner.provision(try Fixtures.sampleInput(), at: path)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        #expect(left == Set(alive + ["c.gpkg"]))
        #expect(CampaignFile.abandonedOwner("c.gpkg.flyr-tmp-42-wal") == 42)
        #expect(CampaignFile.abandonedOwner("c.gpkg.flyr-tmp-") == nil)
        #expect(CampaignFile.abandonedOwner("c.gpkg") == nil)
    }
}
