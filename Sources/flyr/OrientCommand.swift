import ArgumentParser
import Foundation
import Geo

struct OrientCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orient",
        abstract: "Find the road each address's house faces, with the road's and the house's bearing.",
        discussion: """
        Links the addresses first (as flyr link does), then for each address takes the nearest \
        eligible road within 100 m of its building's footprint, preferring one named like the \
        address's street. Output by extension: .csv \
        (address_id,building_id,segment_id,road_bearing,house_bearing,is_oriented) or .geojson; \
        CSV on stdout without -o. Bearings in degrees clockwise from true north: road_bearing in \
        [0, 180), house_bearing in [0, 360); both empty when no road was found.
        """)

    @OptionGroup var input: InputOptions
    @Option(name: .long, help: ArgumentHelp(
        "Road classes a house may face, comma-separated (default \(OrientationOptions.defaultRoadClasses.sorted().joined(separator: ","))).",
        valueName: "a,b,c"))
    var roadClasses: String?
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Output file (.csv, .geojson); '-' or absent for CSV on stdout.", valueName: "file"))
    var output: String?
    @Flag(name: .long, help: "Replace the output file if it exists.")
    var force = false

    func validate() throws {
        if input.buildings.isEmpty { throw ValidationError("missing --buildings FILE") }
        if input.addresses.isEmpty { throw ValidationError("missing --addresses FILE") }
        if input.segments.isEmpty { throw ValidationError("missing --segments FILE (the roads to orient against)") }
        if roadClasses != nil, classes == nil {
            throw ValidationError("--road-classes takes class names separated by commas, e.g. --road-classes residential,tertiary,service")
        }
        if let output, output != "-" {
            let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
            guard ["csv", "geojson"].contains(ext) else {
                throw ValidationError("-o takes a .csv or .geojson file, e.g. -o orientation.csv")
            }
        }
    }

    /// The classes given, or nil when the list is empty or has an empty entry.
    private var classes: Set<String>? {
        guard let roadClasses else { return nil }
        let names = roadClasses.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        return names.contains(where: \.isEmpty) ? nil : Set(names)
    }

    func run() throws {
        do { try execute() } catch { reportAndExit(error) }
    }

    private func execute() throws {
        try checkOutput(output, force: force)
        let loaded = try LoadedInputs.load(input)
        var options = OrientationOptions()
        if let classes { options.roadClasses = classes }
        let addresses = loaded.addresses.features
        let rows = try Orienter.orientAddresses(buildings: loaded.buildings.features, addresses: addresses,
                                                segments: loaded.segments.features, options: options)
        let isGeoJSON = output.map { URL(fileURLWithPath: $0).pathExtension.lowercased() == "geojson" } ?? false
        try writeOutput(isGeoJSON ? OrientationTable.geojson(rows, addresses: addresses) : OrientationTable.csv(rows), to: output)
        let oriented = rows.reduce(0) { $0 + ($1.isOriented ? 1 : 0) }
        Log.info("flyr orient: \(rows.count) addresses, \(oriented) oriented, \(rows.count - oriented) with no eligible road within \(LinkTable.format(options.radiusMeters, 0)) m")
        exitKeepingHeap(keeping: (loaded, rows))
    }
}
