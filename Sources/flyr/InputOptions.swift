import ArgumentParser
import Foundation
import Geo

/// The three Overture layers, each from one or more files ('-' reads stdin), and a bbox filter.
struct InputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Buildings extract (GeoJSON or GeoJSONSeq); repeat for overlapping extracts.", valueName: "file"))
    var buildings: [String] = []
    @Option(name: .long, help: ArgumentHelp("Addresses extract; repeatable.", valueName: "file"))
    var addresses: [String] = []
    @Option(name: .long, help: ArgumentHelp("Road segments extract; repeatable.", valueName: "file"))
    var segments: [String] = []
    /// Unconditional parsing: a west longitude such as -73.75 is a value, not an option.
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Keep features whose bbox intersects W,S,E,N (degrees).", valueName: "W,S,E,N"))
    var bbox: String?

    func validate() throws { try validateInputs(buildings + addresses + segments, bbox: bbox) }

    var loadOptions: LoadOptions { inputLoadOptions(bbox: bbox) }
}

/// The inputs of a command that reads addresses only (`match`): no buildings or segments to
/// offer in its help.
struct AddressInputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Addresses extract (GeoJSON or GeoJSONSeq); repeatable.", valueName: "file"))
    var addresses: [String] = []
    /// Unconditional parsing, as in `InputOptions`.
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Keep addresses whose point lies in W,S,E,N (degrees).", valueName: "W,S,E,N"))
    var bbox: String?

    func validate() throws { try validateInputs(addresses, bbox: bbox) }

    var loadOptions: LoadOptions { inputLoadOptions(bbox: bbox) }
}

/// The load options of a --bbox (checked already by `validateInputs`).
private func inputLoadOptions(bbox: String?) -> LoadOptions {
    LoadOptions(bbox: bbox.flatMap { try? BBox(parsing: $0) })
}

/// The input files and --bbox of a command, checked before it runs: at most one input read
/// from stdin, and a box that parses.
func validateInputs(_ paths: [String], bbox: String?) throws {
    if paths.filter({ $0 == "-" }).count > 1 { throw ValidationError("only one input may be '-' (stdin)") }
    if let bbox { do { _ = try BBox(parsing: bbox) } catch { throw ValidationError(error.description) } }
}

/// Refuses to touch an existing output unless forced. '-' (stdout) is always allowed.
func checkOutput(_ path: String?, force: Bool) throws {
    guard let path, path != "-" else { return }
    if FileManager.default.fileExists(atPath: path), !force {
        throw CLIError(message: "\(path) exists; add --force to replace it", code: Exit.cantCreate)
    }
}

/// Writes text atomically (a temporary file renamed over the target), or to stdout for nil/'-'.
func writeOutput(_ text: String, to path: String?) throws {
    try writeOutput(Data(text.utf8), to: path)
}

/// Writes bytes atomically (a temporary file renamed over the target), or to stdout for nil/'-'.
func writeOutput(_ data: Data, to path: String?) throws {
    guard let path, path != "-" else {
        FileHandle.standardOutput.write(data)
        return
    }
    do { try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
        throw CLIError(message: "cannot write \(path): \(error.localizedDescription)", code: Exit.cantCreate)
    }
}

/// Seconds since `start`.
func seconds(since start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

/// The Stable Linker's tunables, shared by the commands that link.
struct LinkerFlags: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("BUFFER tier distance in metres.", valueName: "m"))
    var buffer: Double = 10
    @Option(name: .long, help: ArgumentHelp("NEAREST search radius in metres.", valueName: "m"))
    var radius: Double = LinkerOptions().searchMeters
    @Option(name: .long, help: ArgumentHelp("Parallel workers (default: one per core); the output does not depend on it.", valueName: "n"))
    var workers: Int?
    @Option(name: .long, help: ArgumentHelp("Change one scoring weight (metres of cost; angles in degrees; smallFootprint, annexFootprint and sharedFootprint in square metres; lowHeight a height in metres), for sweeps; repeatable. Names and defaults: \(LinkWeights.defaults.joined(separator: ", ")).", valueName: "name=value"))
    var weight: [String] = []

    /// The weights with every `--weight` applied; nil when one does not parse.
    var weights: LinkWeights? {
        var w = LinkWeights()
        for item in weight {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let v = Double(parts[1]), w.set(parts[0], v) else { return nil }
        }
        return w
    }

    func validate() throws {
        if weights == nil {
            throw ValidationError("--weight takes NAME=VALUE with a value of 0 or more, NAME one of \(LinkWeights.names.joined(separator: ", ")); e.g. --weight orderPenalty=25")
        }
        guard buffer >= 0, radius > 0, buffer <= radius else {
            throw ValidationError("need 0 <= --buffer <= --radius and --radius > 0 (metres), e.g. --buffer 10 --radius 50")
        }
        if let w = workers, w < 1 { throw ValidationError("--workers takes a whole number from 1, e.g. --workers 2") }
    }

    var options: LinkerOptions {
        var o = LinkerOptions()
        o.bufferMeters = buffer
        o.searchMeters = radius
        o.workers = workers
        o.weights = weights ?? LinkWeights()
        return o
    }

    /// What changes the links, for a campaign's fingerprint (the worker count does not).
    var settings: String { "buffer=\(buffer);radius=\(radius)" + weight.map { ";" + $0 }.joined() }
}
