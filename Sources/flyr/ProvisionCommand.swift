import ArgumentParser
import Campaign
import Foundation
import Geo
#if canImport(Glibc)
import Glibc
#endif

/// glibc's `malloc_trim(0)`: returns the free pages of every malloc arena to the system. Looked
/// up at run time, since Swift's Glibc module leaves out `malloc.h`; a no-op elsewhere.
func trimHeap() {
    #if canImport(Glibc)
    typealias Trim = @convention(c) (Int) -> Int32
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
    #endif
}

/// A value handed from one thread to another once: `take` gives it and lets go of it, so
/// that it is freed when the taker is done with it.
final class Handover<T>: @unchecked Sendable {
    private var value: T?
    private let lock = NSLock()
    init(_ value: T) { self.value = value }
    func take() -> T {
        lock.lock(); defer { lock.unlock() }
        defer { value = nil }
        return value!
    }
}

struct ProvisionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "provision",
        abstract: "Read, link and orient the extracts and write one campaign GeoPackage.",
        discussion: """
        The whole provision is one transaction. Into an existing campaign file (with --force) \
        it updates the campaign in place: the same campaign id, and the statuses, scans and \
        visits of buildings and addresses that still exist are kept; the same inputs change nothing.
        """)

    static let types = ["flyer", "door_knock", "canvass", "survey", "event"]

    @Option(name: .long, help: "Campaign name.")
    var name: String
    @OptionGroup var input: InputOptions
    @OptionGroup var list: RecipientOptions
    @Option(name: .long, help: ArgumentHelp("Territory (GeoJSON Polygon or MultiPolygon): its addresses and the buildings that intersect it.", valueName: "territory.geojson"))
    var within: String?
    @Option(name: .long, help: ArgumentHelp("Campaign type: \(types.joined(separator: ", ")).", valueName: "type"))
    var type: String = "flyer"
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The campaign GeoPackage to write.", valueName: "campaign.gpkg"))
    var output: String
    @Flag(name: .long, help: "Write into an existing file (re-provision a campaign, or replace another file).")
    var force = false
    @Flag(name: .long, help: "Print the summary as JSON on stdout.")
    var json = false
    @OptionGroup var linker: LinkerFlags
    @Option(name: .long, help: ArgumentHelp("Base of the QR links, BASE/q/SLUG (default https://flyrpro.app; later: flyr qr-base-url).", valueName: "url"))
    var qrBaseURL: String?

    func validate() throws {
        if input.buildings.isEmpty { throw ValidationError("missing --buildings FILE") }
        if input.addresses.isEmpty { throw ValidationError("missing --addresses FILE") }
        if name.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--name must not be empty, e.g. --name \"Queens Village spring drop\"") }
        if within != nil && input.bbox != nil { throw ValidationError("give --bbox W,S,E,N or --within territory.geojson, not both") }
        if within != nil && list.recipients != nil { throw ValidationError("give --within territory.geojson or --recipients list.csv, not both") }
        guard Self.types.contains(type) else { throw ValidationError("--type takes one of \(Self.types.joined(separator: ", "))") }
        guard URL(fileURLWithPath: output).pathExtension.lowercased() == "gpkg" else {
            throw ValidationError("-o takes a .gpkg file, e.g. -o campaign.gpkg")
        }
        if let qrBaseURL { do { _ = try QRLink.checkedBase(qrBaseURL) } catch { throw ValidationError(error.description) } }
    }

    func run() throws {
        do { try execute() } catch { reportAndExit(error) }
    }

    private func execute() throws {
        try checkOutput(output, force: force)
        let start = ContinuousClock.now
        let layers = input.buildings.map { ("buildings", $0) } + input.addresses.map { ("addresses", $0) }
            + input.segments.map { ("segments", $0) }
        let hashSources: @Sendable () -> [SourceFile] = { layers.map { SourceFile(layer: $0.0, path: $0.1) } }
        let settings = try settingsWithTerritory()
        // A campaign already in place may hold these very inputs: fingerprint them first, and
        // stop there if so. Otherwise the files are hashed while they are read.
        let hashed = SlotResults<[SourceFile]>(count: 1)
        let outputExists = FileManager.default.fileExists(atPath: output)
        if outputExists {
            hashed.set(0, .success(hashSources()))
            let fingerprint = ProvisionInput.fingerprint(name: name, type: type, settings: settings, bbox: input.loadOptions.bbox,
                                                         sources: try hashed.get(0))
            if let same = try Provisioner.unchangedCampaign(at: output, fingerprint: fingerprint) {
                try setQRBaseURL()
                report(same, seconds: seconds(since: start))
                return
            }
        }
        Log.info("flyr provision: reading")
        let hashWhileReading: (@Sendable () -> Void)? = outputExists ? nil : { @Sendable in hashed.set(0, .success(hashSources())) }
        // The linker's address attributes are not prepared while reading here (as `flyr link`
        // does): worked out during the read, they raised a provision's peak at x20 by about
        // 60 MiB (1,460 and 1,484 MiB against 1,401-1,424 MiB), for 0.3 s.
        var loaded = try LoadedInputs.load(input, alongside: hashWhileReading)
        let sources = try hashed.get(0)
        var keepBuildings = try narrowToTerritory(&loaded)
        let recipients = try narrowToRecipients(&loaded, keepBuildings: &keepBuildings)
        Log.info("flyr provision: linking \(loaded.addresses.features.count) addresses to \(loaded.buildings.features.count) buildings")
        var options = linker.options
        options.keepsProjectedFootprints = true
        var links = try Linker(options: options).link(
            buildings: loaded.buildings.features, addresses: loaded.addresses.features, segments: loaded.segments.features)
        if var keep = keepBuildings {
            for l in links.links { if let b = l.buildingID { keep.insert(b) } }
            loaded.buildings.features = loaded.buildings.features.filter { keep.contains($0.id) }
        }
        if links.repairedFootprints > 0 {
            Log.warning("\(links.repairedFootprints) invalid footprint(s) repaired with make-valid (kept, not dropped)")
        }
        // The orientation needs the linker's footprints in metres; it runs on other threads
        // while the buildings are written (the address rows are the first to need it), and the
        // footprints go with it: only the job holds them, and it gives their pages back.
        let footprints = Handover(links)
        links.projectedFootprints = nil
        // The linker's working data is gone; give its pages back before the write and the
        // orientation allocate theirs, so that their peak is not stacked on memory malloc holds free.
        trimHeap()
        let buildings = loaded.buildings.features, addresses = loaded.addresses.features, segments = loaded.segments.features
        var provisionInput = ProvisionInput(
            name: name, type: type, buildings: buildings, addresses: addresses, segments: segments, links: links,
            sources: sources, bbox: input.loadOptions.bbox, settings: settings)
        provisionInput.recipients = recipients
        provisionInput.orientationJob = Self.orientationJob(footprints: footprints, buildings: buildings,
                                                            addresses: addresses, segments: segments)
        let summary = try Provisioner.provision(provisionInput, at: output) { Log.info("flyr provision: \($0)") }
        try setQRBaseURL()
        report(summary, seconds: seconds(since: start))
        exitKeepingHeap(keeping: (loaded, links, provisionInput, summary))
    }

    /// The linker's settings, and the territory's hash when there is one (a fingerprint of
    /// what changes the campaign).
    private func settingsWithTerritory() throws -> String {
        var settings = linker.settings
        if let within {
            guard let h = SourceFile(layer: "territory", path: within).sha256 else {
                throw InputError(.fileNotFound, file: within, detail: "no such territory file")
            }
            settings += ";territory=\(h)"
        }
        if let recipients = list.recipients {
            guard let h = SourceFile(layer: "recipients", path: recipients).sha256 else {
                throw InputError(.fileNotFound, file: recipients, detail: "no such recipient list")
            }
            settings += ";recipients=\(h)" + (list.columns.map { ";columns=\($0)" } ?? "")
        }
        return settings
    }

    /// With a recipient list: the addresses matched with confidence, each once, and no other
    /// buildings kept than those they link to; returns the list's rows by address. Empty
    /// without a list.
    private func narrowToRecipients(_ loaded: inout LoadedInputs, keepBuildings: inout Set<String>?) throws -> [CampaignRecipient] {
        guard let matches = try list.match(loaded.addresses.features, segments: loaded.segments.features, force: force,
                                                command: "flyr provision") else { return [] }
        var recipients: [CampaignRecipient] = []
        let all = loaded.addresses.features, header = matches.table.header
        for (i, row) in matches.table.rows.enumerated() {
            guard let a = matches.matchedAddress(i) else { continue }
            recipients.append(CampaignRecipient(addressID: all[a].id, line: matches.table.lines[i],
                                                fields: zip(header, row).map { .init(name: $0, value: $1) }))
        }
        loaded.addresses.features = Set(matches.results.indices.compactMap(matches.matchedAddress)).sorted().map { all[$0] }
        keepBuildings = []
        return recipients
    }

    /// With a territory: its addresses, to be linked against every building read (a house may
    /// stand just outside the line); returns the ids of the buildings it intersects, which are
    /// kept with the linked ones. Nil without a territory.
    private func narrowToTerritory(_ loaded: inout LoadedInputs) throws -> Set<String>? {
        guard let within else { return nil }
        let territory = try Territory.load(within)
        let index = try FeatureIndex(buildings: loaded.buildings.features, addresses: loaded.addresses.features)
        let chosen = try Selection.within(territory, index: index)
        Log.info("flyr provision: territory \(within) holds \(chosen.addresses.count) addresses and \(chosen.buildings.count) buildings")
        loaded.addresses.features = chosen.addresses
        return Set(chosen.buildings.map(\.id))
    }

    /// The orientation, run by the provision beside the writing; it takes the linker's
    /// footprints in metres from `footprints`, so that they are freed when it ends.
    private static func orientationJob(footprints: Handover<LinkResult>, buildings: [Building], addresses: [Address],
                                       segments: [Segment]) -> @Sendable () throws -> AddressFacings {
        return {
            Log.info("flyr provision: orienting (beside the writing)")
            // Only the linked buildings' footprints are read: the orphans' go first. The workers
            // run at a lower priority, so that the writer (one thread, SQLite) gets a core first.
            var links = footprints.take()
            links.keepLinkedFootprintsOnly()
            let rows = try Orienter.orientAddressFacings(buildings: buildings, addresses: addresses, segments: segments,
                                                         links: links, niceness: 10)
            Log.info("flyr provision: oriented")
            // The orientation's working data and the footprints are gone; give their pages back
            // while the write goes on, so that its peak is not stacked on memory malloc holds free.
            trimHeap()
            return rows
        }
    }

    /// Stores --qr-base-url in the campaign, when given (checked in `validate()`).
    private func setQRBaseURL() throws {
        guard let qrBaseURL else { return }
        let store = try CampaignStore(path: output)
        try store.setQRBaseURL(qrBaseURL)
        try store.close()
    }

    private func report(_ summary: ProvisionSummary, seconds: Double) {
        let secs = LinkTable.format(seconds, 2)
        if json {
            print("{\"campaign_id\":\(LinkTable.jsonString(summary.campaignID)),\"unchanged\":\(summary.unchanged),"
                  + "\"addresses_saved\":\(summary.addressesSaved),\"buildings_saved\":\(summary.buildingsSaved),"
                  + "\"roads_saved\":\(summary.roadsSaved),\"links_created\":\(summary.linksCreated),"
                  + "\"orphan_buildings\":\(summary.orphanBuildings),\"turfs_recut\":\(summary.turfsRecut.map { "\($0.turfs)" } ?? "null"),"
                  + "\"seconds\":\(secs)}")
        } else {
            if summary.unchanged { Log.info("flyr provision: \(output) already holds these inputs; nothing changed") }
            Log.info("""
                campaign \(summary.campaignID) in \(output)\(summary.unchanged ? " (unchanged)" : "")
                  addresses_saved \(summary.addressesSaved), buildings_saved \(summary.buildingsSaved), roads_saved \(summary.roadsSaved)
                  links_created \(summary.linksCreated), orphan_buildings \(summary.orphanBuildings), \(secs) s
                """)
        }
        if let r = summary.turfsRecut {
            Log.info("flyr provision: the turfs were cut again over the new addresses: \(r.turfs) turfs of about \(r.target) doors (new turf ids and walking order; print new walk lists)")
        }
    }
}
