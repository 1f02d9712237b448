import ArgumentParser
import Campaign
import Foundation
import Geo

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Print the features that intersect a bbox, as GeoJSONSeq.",
        discussion: """
        A feature is printed when its geometry intersects the box (touching its edge counts), \
        not merely its bbox. One Feature per line on stdout: buildings, then addresses, then \
        segments, each sorted by id, with a "layer" property. --limit keeps the first N of each layer. \
        Input: the extracts (--buildings, --addresses, --segments), a campaign GeoPackage (its R-trees, \
        then an exact test), or a campaign in PostGIS (--postgres URL --campaign ID: the GiST index \
        with &&, then ST_Intersects).
        """)

    @Argument(help: ArgumentHelp("A campaign GeoPackage to query instead of the extracts.", valueName: "campaign.gpkg"))
    var campaignFile: String?
    @OptionGroup var input: InputOptions
    @OptionGroup var db: PostgresOptions
    @Option(name: .long, help: ArgumentHelp("Print at most N features of each layer (the first by id).", valueName: "N"))
    var limit: Int?

    func validate() throws {
        guard input.bbox != nil else { throw ValidationError("missing --bbox W,S,E,N, e.g. --bbox -73.75,40.71,-73.74,40.72") }
        let raw = !(input.buildings + input.addresses + input.segments).isEmpty
        let sources = [raw, campaignFile != nil, db.postgres != nil].filter { $0 }.count
        if sources > 1 { throw ValidationError("give one input: the extracts (--buildings …), a campaign.gpkg, or --postgres URL --campaign ID") }
        if sources == 0 || (raw && input.buildings.isEmpty) {
            throw ValidationError("missing --buildings FILE (or query a campaign: flyr query campaign.gpkg --bbox …, or --postgres URL --campaign ID)")
        }
        if let limit, limit < 0 { throw ValidationError("--limit takes a count of 0 or more, e.g. --limit 100") }
    }

    func run() throws {
        do { try execute() } catch { reportAndExit(error) }
    }

    private func execute() throws {
        let box = try BBox(parsing: input.bbox ?? "")
        let (b, a, s) = try features(in: box)
        var out = ""
        for f in b { out += FeatureText.geoJSON(f) + "\n" }
        for f in a { out += FeatureText.geoJSON(f) + "\n" }
        for f in s { out += FeatureText.geoJSON(f) + "\n" }
        try writeOutput(out, to: nil)
        Log.info("flyr query: \(b.count) buildings, \(a.count) addresses, \(s.count) segments in \(input.bbox ?? "")")
    }

    private func features(in box: BBox) throws -> (buildings: [Building], addresses: [Address], segments: [Segment]) {
        if let url = db.postgres, let id = db.campaign {
            let limit = limit
            return try withPostGIS(url) { store in try await store.features(campaign: id, in: box, limit: limit) }
        }
        if let campaignFile {
            let store = try CampaignStore(path: campaignFile, readOnly: true)
            let found = try store.features(in: box, limit: limit)
            try store.close()
            return found
        }
        let loaded = try LoadedInputs.load(input)
        let index = try FeatureIndex(buildings: loaded.buildings.features, addresses: loaded.addresses.features,
                                     segments: loaded.segments.features)
        return (try index.buildings(in: box, limit: limit), try index.addresses(in: box, limit: limit),
                try index.segments(in: box, limit: limit))
    }
}
