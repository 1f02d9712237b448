import Foundation
import GRDB
import Testing

/// The command line's side of a campaign file's safety: a file in use or unreadable is left
/// alone, nothing of a replaced file leaks into the new one, the rename that puts a new
/// campaign in place is made durable, and GDAL reads the result without a complaint.
@Suite(.serialized) struct SafetyTests {
    let b = CLI.sample("buildings.geojson"), a = CLI.sample("addresses-streetside.geojsonseq")
    let s = CLI.sample("segments.geojson")

    func provision(_ out: String, _ extra: [String] = []) throws -> CLI.Run {
        try CLI.run(["provision", "--name", "Sample", "--buildings", b, "--addresses", a, "--segments", s, "-o", out] + extra)
    }

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    // MARK: Campaign files

    @Test func aFileInUseByAnotherProcessIsNotReplaced() throws {
        let dir = try CLI.tempDir()
        let out = dir.appendingPathComponent("other.gpkg").path
        let db = try DatabaseQueue(path: out)
        try db.write { try $0.execute(sql: "PRAGMA journal_mode = WAL; CREATE TABLE mine (k INTEGER); INSERT INTO mine VALUES (1)") }
        try db.close()
        let before = bytes(out)
        // The sqlite3 shell keeps the file open inside a read transaction.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = [out]
        let input = Pipe()
        holder.standardInput = input
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        try input.fileHandleForWriting.write(contentsOf: Data("BEGIN;\nSELECT count(*) FROM mine;\n".utf8))
        usleep(300_000)
        let r = try provision(out, ["--force"])
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        #expect(r.status == 75, "\(r.stderr)")
        #expect(r.stderr.contains("\(out) is in use by another program"), "\(r.stderr)")
        #expect(bytes(out) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["other.gpkg"])
        // Closed there, the same command replaces it.
        #expect(try provision(out, ["--force"]).status == 0)
    }

    /// The old file's write-ahead log (left by a crash: 64 KiB pages, as flyr's) is not
    /// replayed into the new campaign that replaces it.
    @Test func aLeftoverWriteAheadLogIsNotReplayedIntoTheNewCampaign() throws {
        let dir = try CLI.tempDir()
        let out = dir.appendingPathComponent("c.gpkg").path
        var config = Configuration()
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA page_size = 65536; PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
        }
        let db = try DatabaseQueue(path: out, configuration: config)
        try db.write { db in
            try db.execute(sql: "CREATE TABLE junk (k INTEGER PRIMARY KEY, v TEXT)")
            for k in 0..<2000 { try db.execute(sql: "INSERT INTO junk VALUES (?, ?)", arguments: [k, String(repeating: "x", count: 300)]) }
        }
        let log = try #require(bytes(out + "-wal"))
        try db.close()
        try log.write(to: URL(fileURLWithPath: out + "-wal"))
        let r = try provision(out, ["--force"])
        #expect(r.status == 0, "\(r.stderr)")
        let stats = try CLI.run(["stats", out, "--json"])
        #expect(stats.status == 0 && stats.stdout.contains("\"addresses\":558"), "\(stats.stderr)")
        let after = try DatabaseQueue(path: out)
        defer { try? after.close() }
        #expect(try after.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        #expect(try after.read { try $0.tableExists("junk") } == false)
    }

    /// GDAL 3.6 opens a campaign without a warning, and its GeoPackage checker finds nothing.
    @Test func gdalOpensACampaignWithoutAWarningAndItsCheckerPasses() throws {
        let out = try CLI.tempDir().appendingPathComponent("c.gpkg").path
        #expect(try provision(out).status == 0)
        let ogr = try CLI.run(["-so", out], executable: URL(fileURLWithPath: "/usr/bin/ogrinfo"))
        #expect(ogr.status == 0 && ogr.stderr.isEmpty && !ogr.stdout.contains("Warning"), "\(ogr.stderr)")
        let check = try CLI.run(["/usr/lib/python3/dist-packages/osgeo_utils/samples/validate_gpkg.py", out],
                                executable: URL(fileURLWithPath: "/usr/bin/python3"))
        #expect(check.status == 0 && check.stdout.isEmpty && check.stderr.isEmpty, "\(check.stdout)\(check.stderr)")
    }

    @Test func aCorruptCampaignIsReportedAndLeftAsItIs() throws {
        let dir = try CLI.tempDir()
        let out = dir.appendingPathComponent("c.gpkg").path
        #expect(try provision(out).status == 0)
        #expect(try CLI.run(["mark", out, "--building", firstBuilding(out), "--status", "hot"]).status == 0)
        let fh = try #require(FileHandle(forUpdatingAtPath: out))
        try fh.seek(toOffset: 100)
        try fh.write(contentsOf: Data(repeating: 0xA5, count: 4000))
        try fh.close()
        let before = bytes(out)
        let r = try provision(out, ["--force", "--radius", "60"])
        #expect(r.status == 66, "\(r.stderr)")
        #expect(r.stderr.contains("cannot read \(out)") && r.stderr.contains("left as it is"), "\(r.stderr)")
        #expect(bytes(out) == before)
    }

    func firstBuilding(_ out: String) throws -> String {
        let db = try DatabaseQueue(path: out)
        defer { try? db.close() }
        return try db.read { try String.fetchOne($0, sql: "SELECT gers_id FROM buildings WHERE feature_status = 'matched' ORDER BY gers_id") }!
    }

    /// Under strace: after the rename that puts the new campaign in place, its directory is
    /// opened and fsync'd (the rename itself is durable only then).
    @Test func theDirectoryIsSyncedAfterTheRename() throws {
        let dir = try CLI.tempDir()
        let out = dir.appendingPathComponent("c.gpkg").path
        let trace = dir.appendingPathComponent("trace.txt").path
        let r = try CLI.shell("exec strace -f -qq -e trace=rename,renameat,renameat2,openat,fsync,close -o '\(trace)' \"$FLYR\" provision --name S --buildings '\(b)' --addresses '\(a)' -o '\(out)'")
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        let renamed = try #require(lines.firstIndex { $0.contains("rename") && $0.contains("\"\(out)\"") && $0.hasSuffix("= 0") })
        // The descriptor the directory was opened as, after the rename, then fsync'd.
        var fd: String? = nil, synced = false
        for line in lines[(renamed + 1)...] {
            if line.contains("openat(AT_FDCWD, \"\(dir.path)\"") && line.contains("O_DIRECTORY"),
               let eq = line.range(of: "= ", options: .backwards) {
                fd = String(line[eq.upperBound...])
            } else if let fd, line.contains("fsync(\(fd))") && line.hasSuffix("= 0") {
                synced = true
                break
            }
        }
        #expect(fd != nil && synced, "\(lines[renamed...].prefix(20).joined(separator: "\n"))")
    }
}
