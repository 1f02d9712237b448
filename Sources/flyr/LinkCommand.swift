import ArgumentParser
import Foundation
import Geo

struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Link every address to a building (the Stable Linker) and write the link table.",
        discussion: """
        Output by extension: .csv (address_id,building_id,method,confidence,distance_m,street_match), \
        .geojson (address points with the link as properties) or .json (links, unmatched addresses \
        with their three nearest buildings, per-building counts). CSV to stdout without -o. \
        The summary goes to stderr (JSON with --json).
        """)

    @OptionGroup var input: InputOptions
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Output file (.csv, .geojson, .json); '-' or absent for CSV on stdout.", valueName: "file"))
    var output: String?
    @Flag(name: .long, help: "Replace the output file if it exists.")
    var force = false
    @Flag(name: .long, help: "Print the summary as JSON.")
    var json = false
    @OptionGroup var linker: LinkerFlags
    @Option(name: .long, help: ArgumentHelp("Truth CSV (address_id,building_id): report the share linked to their truth building.", valueName: "truth.csv"))
    var check: String?
    @Option(name: .long, help: ArgumentHelp("With --check: exit 1 when the share is below P (0 to 1).", valueName: "P"))
    var minAccuracy: Double?
    @Option(name: .long, help: ArgumentHelp("With --check: write every miss to this CSV.", valueName: "file"))
    var misses: String?
    @Option(name: .long, help: ArgumentHelp("Explain this address's link on stderr: the road its rays start from, each candidate's cost term by term, its block face and the assignment; repeatable.", valueName: "address_id"))
    var explain: [String] = []

    func validate() throws {
        if input.buildings.isEmpty { throw ValidationError("missing --buildings FILE") }
        if input.addresses.isEmpty { throw ValidationError("missing --addresses FILE") }
        if let p = minAccuracy {
            guard check != nil else { throw ValidationError("--min-accuracy needs --check truth.csv") }
            guard (0...1).contains(p) else { throw ValidationError("--min-accuracy takes a share from 0 to 1, e.g. 0.98") }
        }
        if let output, output != "-" {
            let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
            guard ["csv", "geojson", "json"].contains(ext) else {
                throw ValidationError("-o takes a .csv, .geojson or .json file, e.g. -o links.csv")
            }
        }
    }

    func run() throws {
        do { try execute() } catch { reportAndExit(error) }
    }

    private func execute() throws {
        try checkOutput(output, force: force)
        if let misses { try checkOutput(misses, force: force) }
        let truth = try check.map { path throws(InputError) in try TruthTable.load(path) }
        let start = ContinuousClock.now
        let loaded = try LoadedInputs.load(input, prepareAddresses: true)
        let readTime = seconds(since: start)

        var options = linker.options
        options.explain = Set(explain)
        let result = try Linker(options: options).link(
            buildings: loaded.buildings.features, addresses: loaded.addresses.features, segments: loaded.segments.features,
            prepared: loaded.addressPreparation)

        let writeStart = ContinuousClock.now
        let ext = output.map { URL(fileURLWithPath: $0).pathExtension.lowercased() } ?? "csv"
        switch ext {
        case "json": try writeOutput(LinkTable.json(result), to: output)
        case "geojson": try writeOutput(LinkTable.geojson(result, addresses: loaded.addresses.features), to: output)
        default: try writeOutput(LinkTable.csv(result), to: output)
        }
        let report = truth?.check(result)
        if let report, let misses {
            var text = "address_id,expected_building_id,linked_building_id,method\n"
            for m in report.misses {
                text += "\(m.addressID),\(m.expected),\(m.linked ?? ""),\(m.method?.rawValue ?? "")\n"
            }
            try writeOutput(text, to: misses)
        }
        let summary = LinkSummary(loaded: loaded, result: result, readSeconds: readTime,
                                  writeSeconds: seconds(since: writeStart), report: report)
        if result.repairedFootprints > 0 {
            Log.warning("\(result.repairedFootprints) invalid footprint(s) repaired with make-valid (kept, not dropped)")
        }
        Log.info(json ? summary.json : summary.text)
        explainLinks(result, asked: options.explain)
        if let report, let p = minAccuracy, report.accuracy < p {
            Log.error("accuracy \(LinkTable.format(report.accuracy * 100, 2))% is below --min-accuracy \(LinkTable.format(p * 100, 2))%")
            throw ExitCode(Exit.belowAccuracy)
        }
        exitKeepingHeap(keeping: (loaded, result, summary))
    }
}

extension LinkCommand {
    /// `--explain`: each address asked for, or a warning for an id the addresses do not hold.
    func explainLinks(_ result: LinkResult, asked: Set<String>) {
        guard !asked.isEmpty else { return }
        var linkOf: [String: Link] = [:]
        for l in result.links where asked.contains(l.addressID) { linkOf[l.addressID] = l }
        for id in asked.subtracting(linkOf.keys).sorted() { Log.warning("--explain \(id): no address has this id") }
        for e in result.explanations {
            Log.info(json ? "{\"explain\":\(LinkExplain.json(e))}" : LinkExplain.text(e, link: linkOf[e.addressID]))
        }
    }
}

/// The three layers, read concurrently.
struct LoadedInputs {
    var buildings: Loaded<Building>
    var addresses: Loaded<Address>
    var segments: Loaded<Segment>

    /// The linker's address attributes, worked out while the buildings were still being read
    /// (`load(_:prepareAddresses:)`); nil when not asked for.
    var addressPreparation: AddressPreparation?

    /// `alongside`, when given, runs on the same pool once a thread is free (the buildings
    /// file takes longest, so it fills the other core's idle time). With `prepareAddresses`,
    /// the linker's address attributes are worked out there too, once the addresses and
    /// segments are in; pass them to `Linker.link` only while the layers stay as read.
    static func load(_ input: InputOptions, alongside: (@Sendable () -> Void)? = nil,
                     prepareAddresses: Bool = false) throws -> LoadedInputs {
        let opts = input.loadOptions
        let box = ResultBox()
        var extras: [@Sendable () -> Void] = []
        if let alongside { extras.append(alongside) }
        // Iterations start in index order, so by the time this one runs the address and
        // segment iterations have begun: waiting for them cannot block the pool.
        let layersIn = DispatchSemaphore(value: 0)
        if prepareAddresses {
            extras.append {
                layersIn.wait(); layersIn.wait()
                if let layers = box.addressesAndSegments() {
                    box.set(preparation: AddressPreparation(addresses: layers.0.features, segments: layers.1.features))
                }
            }
        }
        let jobs = extras
        DispatchQueue.concurrentPerform(iterations: 3 + jobs.count) { layer in
            do {
                switch layer {
                case 0: box.set(buildings: try loadBuildings(input.buildings, options: opts))
                case 1:
                    defer { layersIn.signal() }
                    box.set(addresses: try loadAddresses(input.addresses, options: opts))
                case 2:
                    defer { layersIn.signal() }
                    box.set(segments: try input.segments.isEmpty ? Loaded<Segment>() : loadSegments(input.segments, options: opts))
                default: jobs[layer - 3]()
                }
            } catch { box.fail(layer, error) }
        }
        let loaded = try box.result()
        for w in loaded.warnings(input) { Log.warning(w) }
        return loaded
    }

    /// Collects the three layers read on separate threads; the first error by layer order wins.
    private final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var b: Loaded<Building>?, a: Loaded<Address>?, s: Loaded<Segment>?
        private var preparation: AddressPreparation?
        private var errors: [Int: Error] = [:]
        func set(buildings: Loaded<Building>) { lock.lock(); b = buildings; lock.unlock() }
        func set(addresses: Loaded<Address>) { lock.lock(); a = addresses; lock.unlock() }
        func set(segments: Loaded<Segment>) { lock.lock(); s = segments; lock.unlock() }
        func set(preparation p: AddressPreparation) { lock.lock(); preparation = p; lock.unlock() }
        func fail(_ layer: Int, _ e: Error) { lock.lock(); errors[layer] = e; lock.unlock() }
        /// Both layers, once both are read; nil when either failed.
        func addressesAndSegments() -> (Loaded<Address>, Loaded<Segment>)? {
            lock.lock(); defer { lock.unlock() }
            guard let a, let s else { return nil }
            return (a, s)
        }
        func result() throws -> LoadedInputs {
            if let first = errors.keys.sorted().first { throw errors[first]! }
            return LoadedInputs(buildings: b!, addresses: a!, segments: s!, addressPreparation: preparation)
        }
    }

    /// Empty layers, and addresses far from the buildings (swapped ordinates, another city).
    func warnings(_ input: InputOptions) -> [String] {
        var out: [String] = []
        let within = input.bbox == nil ? "" : " within the bbox"
        for (name, paths, count) in [("buildings", input.buildings, buildings.features.count),
                                     ("addresses", input.addresses, addresses.features.count),
                                     ("segments", input.segments, segments.features.count)] where !paths.isEmpty && count == 0 {
            out.append("\(paths.joined(separator: ", ")): no \(name)\(within)")
        }
        let files = input.addresses.joined(separator: ", ")
        switch ExtentCheck.check(buildings: buildings.features, addresses: addresses.features) {
        case .swapped(let outside, let total):
            out.append("\(files): \(outside) of \(total) addresses lie far outside the buildings' extent; "
                       + "longitude and latitude may be swapped (GeoJSON positions are [longitude, latitude])")
        case .outside(let outside, let total):
            out.append("\(files): \(outside) of \(total) addresses lie more than \(ExtentCheck.margin)° outside the buildings' extent")
        case nil: break
        }
        return out
    }
}

struct LinkSummary {
    var loaded: LoadedInputs
    var result: LinkResult
    var readSeconds: Double
    var writeSeconds: Double
    var report: TruthTable.Report?

    var phases: [(String, Double)] { [("read", readSeconds)] + result.phases + [("write", writeSeconds)] }

    var text: String {
        let f = { (v: Double) in LinkTable.format(v, 2) }
        var s = "flyr link: \(loaded.addresses.features.count) addresses, \(loaded.buildings.features.count) buildings, \(loaded.segments.features.count) segments\n"
        s += "  " + LinkMethod.allCases.map { "\($0.rawValue) \(result.count($0))" }.joined(separator: "  ") + "\n"
        s += "  orphan buildings \(result.orphanBuildings), multi-unit buildings \(result.multiUnitBuildings), unmatched addresses \(result.count(.none))\n"
        let dups = loaded.buildings.duplicatesSkipped + loaded.addresses.duplicatesSkipped + loaded.segments.duplicatesSkipped
        s += "  repaired footprints \(result.repairedFootprints), duplicates skipped \(dups)\n"
        s += "  time: " + phases.map { "\($0.0) \(f($0.1)) s" }.joined(separator: ", ")
        if let r = report {
            s += "\n  check: \(r.correct)/\(r.total) linked to their truth building (\(f(r.accuracy * 100))%), \(r.misses.count) misses"
            let share = { (t: TruthTable.Tally) in "\(t.correct)/\(t.rows) (\(f(100 * Double(t.correct) / Double(t.rows)))%)" }
            let methods = LinkMethod.allCases.compactMap { m in r.byMethod[m].map { "\(m.rawValue) \(share($0))" } }
            if !methods.isEmpty { s += "\n    by method: " + methods.joined(separator: ", ") }
            for (label, tallies) in [("BUFFER and NEAREST", r.byConfidence), ("COVERS", r.byCoversConfidence)] {
                let buckets = tallies.indices.filter { tallies[$0].rows > 0 }.map { k in
                    let (lo, hi) = TruthTable.Report.bucketRange(k)
                    return "\(LinkTable.format(lo, 1))–\(LinkTable.format(hi, 1)) \(share(tallies[k]))"
                }
                if !buckets.isEmpty { s += "\n    by confidence (\(label)): " + buckets.joined(separator: ", ") }
            }
            for m in r.misses.prefix(10) {
                s += "\n    miss \(m.addressID): expected \(m.expected), linked \(m.linked ?? "nothing") (\(m.method?.rawValue ?? "-"))"
            }
            if r.misses.count > 10 { s += "\n    … \(r.misses.count - 10) more (--misses FILE lists them all)" }
        }
        return s
    }

    var json: String {
        var s = "{\"addresses\":\(loaded.addresses.features.count),\"buildings\":\(loaded.buildings.features.count),\"segments\":\(loaded.segments.features.count),"
        s += "\"methods\":{" + LinkMethod.allCases.map { "\"\($0.rawValue)\":\(result.count($0))" }.joined(separator: ",") + "},"
        s += "\"orphan_buildings\":\(result.orphanBuildings),\"multi_unit_buildings\":\(result.multiUnitBuildings),"
        s += "\"unmatched_addresses\":\(result.count(.none)),\"repaired_footprints\":\(result.repairedFootprints),"
        s += "\"duplicates_skipped\":\(loaded.buildings.duplicatesSkipped + loaded.addresses.duplicatesSkipped + loaded.segments.duplicatesSkipped),"
        s += "\"seconds\":{" + phases.map { "\"\($0.0)\":\(LinkTable.format($0.1, 3))" }.joined(separator: ",") + "}"
        if let r = report {
            let tally = { (t: TruthTable.Tally) in "\"rows\":\(t.rows),\"correct\":\(t.correct)" }
            let methods = LinkMethod.allCases.map { "\"\($0.rawValue)\":{\(tally(r.byMethod[$0] ?? TruthTable.Tally()))}" }
            let buckets = { (tallies: [TruthTable.Tally]) -> String in
                tallies.indices.map { k -> String in
                    let (lo, hi) = TruthTable.Report.bucketRange(k)
                    return "{\"from\":\(LinkTable.format(lo, 1)),\"to\":\(LinkTable.format(hi, 1)),\(tally(tallies[k]))}"
                }.joined(separator: ",")
            }
            s += ",\"check\":{\"total\":\(r.total),\"correct\":\(r.correct),\"accuracy\":\(LinkTable.format(r.accuracy, 5)),\"misses\":\(r.misses.count),"
            let byConfidence: String = buckets(r.byConfidence), byCovers: String = buckets(r.byCoversConfidence)
            s += "\"by_method\":{" + methods.joined(separator: ",") + "},\"by_confidence\":[" + byConfidence
            s += "],\"by_covers_confidence\":[" + byCovers + "]}"
        }
        return s + "}"
    }
}
