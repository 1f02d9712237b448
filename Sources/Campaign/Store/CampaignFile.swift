import Foundation
import GRDB

/// A campaign file on disk: what lies at a path, and its safe replacement by a new file.
enum CampaignFile {
    /// What a path holds, from its first bytes.
    enum Kind: Equatable {
        case missing
        /// Exists, and does not start like an SQLite database (an empty file is one: SQLite
        /// takes it for an empty database).
        case notSQLite
        case sqlite
    }

    /// What `path` holds; throws when it exists but cannot be read (permissions, an I/O
    /// error, a directory), so that such a file is never taken for "not a campaign".
    static func kind(_ path: String) throws -> Kind {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return .missing }
            throw GeoPackageError.unreadableCampaign(path: path, detail: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 16)
        var got = 0
        while got < 16 {
            let n = header.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, 16 - got) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw GeoPackageError.unreadableCampaign(path: path, detail: String(cString: strerror(errno)))
            }
            got += n
        }
        if got == 0 { return .sqlite }
        return got == 16 && header == Array("SQLite format 3\0".utf8) ? .sqlite : .notSQLite
    }

    /// An error SQLite gave while reading `path` as a campaign: `inUse` when another
    /// connection holds a lock on it, `unreadableCampaign` otherwise.
    static func readFailure(_ error: Error, path: String) -> Error {
        guard let e = error as? DatabaseError else { return error }
        if e.resultCode == .SQLITE_BUSY || e.resultCode == .SQLITE_LOCKED { return GeoPackageError.inUse(path) }
        return GeoPackageError.unreadableCampaign(path: path, detail: e.message ?? "\(e.resultCode)")
    }

    /// The SQLite side files of a database at `path`.
    static let sideFileSuffixes = ["-wal", "-shm", "-journal"]

    /// The temporary file a new campaign for `path` is built in, beside it (the rename that
    /// puts it in place stays on one file system).
    static func temporaryPath(for path: String) -> String {
        path + temporaryMarker + "\(ProcessInfo.processInfo.processIdentifier)"
    }

    static let temporaryMarker = ".flyr-tmp-"

    /// Puts the finished database `temp` (closed, no side files) in place of `path`.
    ///
    /// When `path` is an SQLite database, its lock is taken first (and held until the rename
    /// is done), its write-ahead log checkpointed and its side files removed: SQLite would
    /// otherwise replay the old file's log into the new one. While another connection has
    /// `path` open this throws `GeoPackageError.inUse` and changes nothing. After the rename
    /// the directory is synced, so the new name survives a power cut.
    static func replace(_ path: String, with temp: String) throws {
        var holder: DatabaseQueue? = nil
        if try kind(path) == .sqlite { holder = try lockForReplacement(path) }
        defer { try? holder?.close() }
        for suffix in sideFileSuffixes where unlink(path + suffix) != 0 && errno != ENOENT {
            throw GeoPackageError.writeFailed(path: path, detail: "cannot remove \(path + suffix): \(String(cString: strerror(errno)))")
        }
        // rename(2) replaces an existing file atomically (FileManager.replaceItemAt fails on
        // Linux when the target is not a campaign).
        guard rename(temp, path) == 0 else {
            throw GeoPackageError.writeFailed(path: path, detail: String(cString: strerror(errno)))
        }
        try syncDirectory(of: path)
    }

    /// Opens the database at `path`, brings it out of WAL mode (which checkpoints the log and
    /// deletes it, and fails while another connection is open) and takes its exclusive lock,
    /// kept until the returned queue is closed. No write is made, so no journal is left.
    private static func lockForReplacement(_ path: String) throws -> DatabaseQueue {
        var config = Configuration()
        config.busyMode = .timeout(1)
        do {
            let db = try DatabaseQueue(path: path, configuration: config)
            do {
                try db.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA journal_mode = DELETE")
                    // Still WAL: another connection has the file open.
                    if try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal" {
                        throw GeoPackageError.inUse(path)
                    }
                    try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
                    try db.execute(sql: "BEGIN EXCLUSIVE")
                    try db.execute(sql: "COMMIT")
                }
                return db
            } catch {
                try? db.close()
                throw error
            }
        } catch let e as GeoPackageError {
            throw e
        } catch {
            throw readFailure(error, path: path)
        }
    }

    /// fsync(2) of the directory holding `path`, so that a rename in it is on disk. File
    /// systems that cannot sync a directory (EINVAL) are let be.
    static func syncDirectory(of path: String) throws {
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw GeoPackageError.writeFailed(path: path, detail: "cannot open \(dir): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        if fsync(fd) != 0 && errno != EINVAL {
            throw GeoPackageError.writeFailed(path: path, detail: "cannot sync \(dir): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the temporary files (and their side files) that flyr processes left in the
    /// directory of `path` when they were killed: `NAME.flyr-tmp-PID` whose process is gone.
    /// A file whose process still runs, or whose owner cannot be told, is left. Returns the
    /// names removed.
    @discardableResult
    static func sweepAbandoned(beside path: String) -> [String] {
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [] }
        let me = ProcessInfo.processInfo.processIdentifier
        var removed: [String] = []
        for name in names {
            guard let pid = abandonedOwner(name), pid != me else { continue }
            // kill(pid, 0): ESRCH means no such process; EPERM means it runs as another user.
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            if unlink(dir + "/" + name) == 0 { removed.append(name) }
        }
        return removed.sorted()
    }

    /// The process id in a temporary file's name (`….flyr-tmp-PID`, maybe with a side file's
    /// suffix); nil for any other name.
    static func abandonedOwner(_ name: String) -> pid_t? {
        guard let marker = name.range(of: temporaryMarker, options: .backwards) else { return nil }
        var rest = name[marker.upperBound...]
        for suffix in sideFileSuffixes where rest.hasSuffix(suffix) { rest = rest.dropLast(suffix.count); break }
        guard !rest.isEmpty, rest.allSatisfy({ $0.isASCII && $0.isNumber }), let pid = pid_t(rest), pid > 0 else { return nil }
        return pid
    }
}
