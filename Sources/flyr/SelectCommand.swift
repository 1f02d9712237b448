import ArgumentParser
import Foundation
import Geo

struct SelectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "select",
        abstract: "Choose a territory's addresses: nearest to a point, along a street, or within a drawn polygon.",
        discussion: """
        One rule: --near LON,LAT --count N (the N addresses nearest the point, ties by id); \
        --street NAME (in house-number order; with --near and --segments, only the block \
        nearest the point); or --within FILE (a GeoJSON Polygon or MultiPolygon: the addresses \
        it covers, and with --buildings the buildings it intersects). Prints GeoJSONSeq \
        (default) or CSV (address_id,number,street,unit,postcode,lon,lat). An empty choice is an error.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case geojsonseq, csv }

    @OptionGroup var input: InputOptions
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("A point in degrees.", valueName: "LON,LAT"))
    var near: String?
    @Option(name: .long, help: ArgumentHelp("With --near: how many addresses.", valueName: "N"))
    var count: Int?
    @Option(name: .long, help: ArgumentHelp("A street name, compared as the linker does (case, punctuation, St/Street…).", valueName: "NAME"))
    var street: String?
    @Option(name: .long, help: ArgumentHelp("A GeoJSON file with the territory's Polygon or MultiPolygon.", valueName: "file"))
    var within: String?
    @Option(name: .long, help: "Output format: geojsonseq or csv.")
    var format: Format = .geojsonseq
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Output file; '-' or absent for stdout.", valueName: "file"))
    var output: String?
    @Flag(name: .long, help: "Replace the output file if it exists.")
    var force = false

    func validate() throws {
        if input.addresses.isEmpty { throw ValidationError("missing --addresses FILE") }
        let example = "e.g. --near -73.7405,40.7175 --count 50, --street \"218th Street\", or --within territory.geojson"
        let modes = [near != nil && street == nil, street != nil, within != nil].filter { $0 }.count
        guard modes == 1 else { throw ValidationError("choose one rule: \(example)") }
        if let near, (try? Self.point(near)) == nil {
            throw ValidationError("bad point '\(near)': give LON,LAT in degrees, e.g. --near -73.7405,40.7175")
        }
        if near != nil, street == nil, count == nil { throw ValidationError("--near needs --count N (or --street NAME), e.g. --near -73.7405,40.7175 --count 50") }
        if count != nil, near == nil || street != nil { throw ValidationError("--count goes with --near only, e.g. --near -73.7405,40.7175 --count 50") }
        if let count, count < 1 { throw ValidationError("--count takes 1 or more, e.g. --count 50") }
        if street != nil, near != nil, input.segments.isEmpty {
            throw ValidationError("--street with --near needs --segments FILE to find the street's block nearest the point")
        }
    }

    /// "LON,LAT" in degrees.
    static func point(_ text: String) throws -> Coord {
        let p = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard p.count == 2, let x = p[0], let y = p[1], (-180...180).contains(x), (-90...90).contains(y) else {
            throw ValidationError("bad point '\(text)'")
        }
        return Coord(x, y)
    }

    func run() throws {
        do { try execute() } catch { reportAndExit(error) }
    }

    private func execute() throws {
        try checkOutput(output, force: force)
        let territory = try within.map { path throws(InputError) in try Territory.load(path) }
        let loaded = try LoadedInputs.load(input)
        let addresses = loaded.addresses.features
        var chosen: [Address] = [], buildings: [Building] = []
        let point = try near.map(Self.point)
        if let territory {
            let index = try FeatureIndex(buildings: loaded.buildings.features, addresses: addresses)
            (chosen, buildings) = try Selection.within(territory, index: index)
        } else if let street {
            chosen = try Selection.street(street, near: point, addresses: addresses, segments: loaded.segments.features)
        } else if let point, let count {
            chosen = try Selection.nearest(to: point, count: count, in: addresses)
        }
        var out = ""
        switch format {
        case .csv:
            out = FeatureText.addressCSVHeader + "\n"
            for a in chosen { out += FeatureText.csvRow(a) + "\n" }
        case .geojsonseq:
            for a in chosen { out += FeatureText.geoJSON(a) + "\n" }
            for b in buildings { out += FeatureText.geoJSON(b) + "\n" }
        }
        try writeOutput(out, to: output)
        Log.info("flyr select: \(chosen.count) of \(addresses.count) addresses" + (territory != nil && !input.buildings.isEmpty ? ", \(buildings.count) buildings" : ""))
    }
}
