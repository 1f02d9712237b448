import ArgumentParser
import Foundation
import Geo

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Print the features that intersect a bbox, as GeoJSONSeq.",
        discussion: """
        A feature is printed when its geometry intersects the box (touching its edge counts), \
        not merely its bbox. One Feature per line on stdout: buildings, then addresses, then \
        segments, each sorted by id, with a "layer" property. --limit keeps the first N of each layer.
        """)

    @OptionGroup var input: InputOptions
    @Option(name: .long, help: ArgumentHelp("Print at most N features of each layer (the first by id).", valueName: "N"))
    var limit: Int?

    func validate() throws {
        guard input.bbox != nil else { throw ValidationError("missing --bbox W,S,E,N, e.g. --bbox -73.75,40.71,-73.74,40.72") }
        if input.buildings.isEmpty { throw ValidationError("missing --buildings FILE") }
        if let limit, limit < 0 { throw ValidationError("--limit takes a count of 0 or more, e.g. --limit 100") }
    }

    func run() throws {
        do { try execute() } catch { reportAndExit(error) }
    }

    private func execute() throws {
        let box = try BBox(parsing: input.bbox ?? "")
        let loaded = try LoadedInputs.load(input)
        let index = try FeatureIndex(buildings: loaded.buildings.features, addresses: loaded.addresses.features,
                                     segments: loaded.segments.features)
        let b = try index.buildings(in: box, limit: limit)
        let a = try index.addresses(in: box, limit: limit)
        let s = try index.segments(in: box, limit: limit)
        var out = ""
        for f in b { out += FeatureText.geoJSON(f) + "\n" }
        for f in a { out += FeatureText.geoJSON(f) + "\n" }
        for f in s { out += FeatureText.geoJSON(f) + "\n" }
        try writeOutput(out, to: nil)
        Log.info("flyr query: \(b.count) buildings, \(a.count) addresses, \(s.count) segments in \(input.bbox ?? "")")
    }
}
