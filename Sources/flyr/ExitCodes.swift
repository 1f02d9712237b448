import ArgumentParser
import Foundation
import Campaign
import Geo
import Render

/// flyr's exit codes (sysexits.h where one fits). Documented in the README.
enum Exit {
    static let ok: Int32 = 0
    /// `--min-accuracy` not reached.
    static let belowAccuracy: Int32 = 1
    /// Bad command line (ArgumentParser's validation errors use it too).
    static let usage: Int32 = 64
    /// Bad input data: invalid JSON, wrong geometry, bad coordinates, conflicting ids, a bad style file…
    static let dataError: Int32 = 65
    /// An input file does not exist or cannot be read.
    static let noInput: Int32 = 66
    /// A library failure (GEOS, PROJ, Cairo) or a bug.
    static let software: Int32 = 70
    /// The output exists (use --force) or cannot be written.
    static let cantCreate: Int32 = 73
    /// Writing a campaign failed part way (disk full, file size limit, device error); the
    /// previous campaign, or no file, is left.
    static let ioError: Int32 = 74
    /// The campaign file is in use by another program (a lock on it): close it there, run again.
    static let inUse: Int32 = 75
    /// The database cannot be reached, refused the login, has no such database, or dropped the connection.
    static let unavailable: Int32 = 69
    /// The database's flyr schema is behind (for a read), ahead of, or different from this flyr's.
    static let schema: Int32 = 76
    /// The database has no PostGIS extension and flyr may not create it.
    static let noPostGIS: Int32 = 78
}

/// An error the CLI reports as one line on stderr with its exit code.
struct CLIError: Error, CustomStringConvertible {
    var message: String
    var code: Int32
    var description: String { message }
}

/// Maps library errors to a message and an exit code, prints it, and exits.
func reportAndExit(_ error: Error) -> Never {
    let (message, code): (String, Int32)
    switch error {
    case let e as InputError:
        message = e.description
        code = (e.kind == .fileNotFound || e.kind == .unreadable) ? Exit.noInput : Exit.dataError
    case let e as BBoxError: (message, code) = (e.description, Exit.usage)
    case let e as SelectionError: (message, code) = (e.description, e.isUsage ? Exit.usage : Exit.dataError)
    case let e as CLIError: (message, code) = (e.message, e.code)
    case let e as ExitCode: exit(e.rawValue)
    case let e as GeoPackageError:
        switch e {
        case .notAGeoPackage, .notACampaign, .olderSchema, .unreadableCampaign: (message, code) = (e.description, Exit.noInput)
        case .inUse: (message, code) = (e.description, Exit.inUse)
        case .writeFailed: (message, code) = (e.description, Exit.ioError)
        default: (message, code) = (e.description, Exit.dataError)
        }
    case let e as PostGISError:
        switch e {
        case .badURL: (message, code) = (e.description, Exit.usage)
        case .unavailable: (message, code) = (e.description, Exit.unavailable)
        case .noPostGIS: (message, code) = (e.description, Exit.noPostGIS)
        case .schema: (message, code) = (e.description, Exit.schema)
        case .campaignNotFound: (message, code) = (e.description, Exit.noInput)
        case .conflictingData, .badData: (message, code) = (e.description, Exit.dataError)
        case .server, .conflict: (message, code) = (e.description, Exit.software)
        }
    case let e as GEOSError: (message, code) = (e.description, Exit.software)
    case let e as ProjError: (message, code) = (e.description, Exit.software)
    case let e as StyleError: (message, code) = (e.description, Exit.dataError)
    case let e as ViewError: (message, code) = (e.description, Exit.dataError)
    case let e as RenderError: (message, code) = (e.description, Exit.software)
    case let e as QRError: (message, code) = (e.description, Exit.dataError)
    case let e as PrintInputError: (message, code) = (e.description, Exit.dataError)
    case let e as QRBaseURLError: (message, code) = (e.description, Exit.usage)
    case let e as ZipError: (message, code) = (e.description, Exit.ioError)
    case let e as TemplateError: (message, code) = (e.description, Exit.dataError)
    default: (message, code) = ("\(error)", Exit.software)
    }
    Log.error(message)
    exit(code)
}

enum Log {
    static func info(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }
    static func error(_ s: String) { FileHandle.standardError.write(Data(("flyr: error: " + s + "\n").utf8)) }
    static func warning(_ s: String) { FileHandle.standardError.write(Data(("flyr: warning: " + s + "\n").utf8)) }
}

/// Ends a successful command once its output is written, without freeing the features it
/// read one by one (a million buildings take about a second to tear down; the system reclaims
/// the memory at once). Buffered stdout is flushed by exit(3). Pass everything large the
/// command still holds: Swift may end a value's lifetime at its last use, and would then tear
/// it down before this call.
func exitKeepingHeap<T>(keeping values: T) -> Never {
    withExtendedLifetime(values) { exit(Exit.ok) }
}
