import ArgumentParser
import Campaign
import Foundation
import Geo
import Render

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a campaign map (PNG, SVG or PDF) with buildings coloured by status.",
        discussion: """
        Input: a features GeoJSON in the web map's format (INPUT), or the raw extracts \
        (--buildings, --addresses, --segments) with an optional --status CSV (gers_id,status,scans_total), \
        linked to find orphans and house numbers. The format follows -o's extension. The view is \
        the data's extent unless --bbox or --center/--zoom is given. Phase timings go to stderr with --timings.
        """)

    @Argument(help: ArgumentHelp("A campaign GeoPackage, or features GeoJSON in the web map's format ('-' for stdin).", valueName: "campaign.gpkg|features.geojson"))
    var features: String?
    @OptionGroup var input: InputOptions
    @OptionGroup var db: PostgresOptions
    @Option(name: .long, help: ArgumentHelp("With raw extracts: CSV gers_id,status,scans_total.", valueName: "status.csv"))
    var status: String?
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Output file: .png, .svg or .pdf.", valueName: "file"))
    var output: String?
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Centre of the view (degrees); needs --zoom.", valueName: "LON,LAT"))
    var center: String?
    @Option(name: .long, help: ArgumentHelp("Web zoom level with --center (256-px tiles), e.g. 17.", valueName: "Z"))
    var zoom: Double?
    @Option(name: .long, help: ArgumentHelp("Canvas in pixels (default 2048x1536).", valueName: "WxH"))
    var size: String?
    @Option(name: .long, help: ArgumentHelp("Paper size instead of --size: letter, a4 or tabloid.", valueName: "name"))
    var paper: String?
    @Option(name: .long, help: ArgumentHelp("Resolution with --paper, dots per inch.", valueName: "dpi"))
    var dpi: Double?
    @Flag(name: .long, help: "With --paper: landscape (portrait by default).")
    var landscape = false
    @Option(name: .long, help: ArgumentHelp("Padding around a fitted view, in style pixels.", valueName: "px"))
    var padding: Double = 24
    @Option(name: .long, help: ArgumentHelp("Style JSON (see styles/); the built-in default otherwise.", valueName: "file"))
    var style: String?
    @Option(name: .long, help: ArgumentHelp("Title drawn on the map.", valueName: "text"))
    var title: String?
    @Option(name: .long, help: ArgumentHelp("With a campaign GeoPackage: draw this turf (of flyr turf) and its walk, the rest dimmed; the view fits the turf.", valueName: "N"))
    var turf: Int?
    @Flag(name: .long, help: "Replace the output file if it exists.")
    var force = false
    @Flag(name: .long, help: "Print seconds per phase (load = read + link, project, draw, encode, write) to stderr.")
    var timings = false
    @Flag(name: .long, help: "With a campaign GeoPackage or --postgres: read every building into memory before drawing, instead of streaming the view's buildings from the file or database (the same map; for comparison).")
    var loadAll = false
    @Option(name: .long, help: ArgumentHelp("Threads drawing a PNG's footprints, 1 or 2 (default: 2 on two cores from 20,000 footprints).", valueName: "n"))
    var drawThreads: Int?

    func validate() throws {
        let raw = !input.buildings.isEmpty || !input.addresses.isEmpty || !input.segments.isEmpty
        if db.postgres != nil && (features != nil || raw) {
            throw ValidationError("give one input: --postgres URL --campaign ID, a campaign or features file, or the raw extracts")
        }
        if features != nil && raw {
            throw ValidationError("give either a features GeoJSON (flyr render map.geojson -o map.png) or the raw extracts (--buildings B --addresses A --segments S), not both")
        }
        if features == nil && input.buildings.isEmpty && db.postgres == nil {
            throw ValidationError(raw ? "the raw-extract form needs --buildings FILE" :
                "missing input: flyr render campaign.gpkg -o map.png, flyr render --postgres URL --campaign ID -o map.png, or flyr render --buildings B --addresses A --segments S -o map.png")
        }
        if status != nil && !raw { throw ValidationError("--status goes with the raw extracts; a features GeoJSON carries its status in its properties") }
        guard let output else { throw ValidationError("missing -o: give the map file, e.g. -o map.png (or .svg, .pdf)") }
        guard OutputFormat(path: output) != nil else { throw ValidationError("-o takes a .png, .svg or .pdf file, e.g. -o map.png") }
        if features == "-" && (input.buildings + input.addresses + input.segments).contains("-") {
            throw ValidationError("only one input may be '-' (stdin)")
        }
        if input.bbox != nil && center != nil { throw ValidationError("give --bbox W,S,E,N or --center LON,LAT --zoom Z, not both") }
        if center != nil && zoom == nil { throw ValidationError("--center needs --zoom, e.g. --center -73.74,40.72 --zoom 17") }
        if zoom != nil && center == nil { throw ValidationError("--zoom needs --center LON,LAT, e.g. --center -73.74,40.72 --zoom 17") }
        if let zoom, !(0...24).contains(zoom) { throw ValidationError("--zoom takes a level from 0 to 24, e.g. --zoom 17") }
        if let center { _ = try Self.parseCenter(center) }
        if size != nil && paper != nil { throw ValidationError("give --size WxH or --paper NAME --dpi N, not both") }
        if let size { _ = try Self.parseSize(size) }
        if let paper, PaperSize(rawValue: paper.lowercased()) == nil {
            throw ValidationError("unknown --paper '\(paper)'; use letter, a4 or tabloid")
        }
        if paper == nil && (dpi != nil || landscape) { throw ValidationError("--dpi and --landscape go with --paper, e.g. --paper letter --dpi 300 --landscape") }
        if let dpi, !(36...1200).contains(dpi) { throw ValidationError("--dpi takes 36 to 1200, e.g. --dpi 300") }
        if let n = drawThreads, !(1...2).contains(n) { throw ValidationError("--draw-threads takes 1 or 2, e.g. --draw-threads 1") }
        if let turf {
            guard turf >= 1 else { throw ValidationError("--turf takes a turf id >= 1 (flyr stats lists them), e.g. --turf 3") }
            guard features != nil, features != "-", !raw, db.postgres == nil else {
                throw ValidationError("--turf needs a campaign GeoPackage: flyr render campaign.gpkg --turf \(turf) -o turf.png")
            }
        }
        if !(padding >= 0) { throw ValidationError("--padding takes style pixels >= 0, e.g. --padding 24") }
    }

    static func parseCenter(_ text: String) throws -> Coord {
        let p = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard p.count == 2, let lon = p[0], let lat = p[1], (-180...180).contains(lon), (-85...85).contains(lat) else {
            throw ValidationError("bad --center '\(text)': give LON,LAT in degrees (latitude within ±85), e.g. --center -73.74,40.72")
        }
        return Coord(lon, lat)
    }

    static func parseSize(_ text: String) throws -> (Int, Int) {
        let p = text.lowercased().split(separator: "x").map { Int($0) }
        guard p.count == 2, let w = p[0], let h = p[1], (16...32768).contains(w), (16...32768).contains(h) else {
            throw ValidationError("bad --size '\(text)': give WIDTHxHEIGHT in pixels (16 to 32768), e.g. --size 2048x1536")
        }
        return (w, h)
    }

    var canvas: Canvas {
        if let paper, let p = PaperSize(rawValue: paper.lowercased()) { return .paper(p, dpi: dpi ?? 300, landscape: landscape) }
        let (w, h) = (size.flatMap { try? Self.parseSize($0) }) ?? (2048, 1536)
        return .pixels(width: w, height: h)
    }

    var viewport: Viewport {
        if let center, let zoom, let c = try? Self.parseCenter(center) { return .center(c, zoom: zoom) }
        if let b = input.loadOptions.bbox { return .bbox(b, padding: padding) }
        return .dataExtent(padding: padding)
    }

    /// The input, by kind: a campaign GeoPackage or a features GeoJSON (told apart by content),
    /// or the raw extracts.
    var source: MapSource {
        if let url = db.postgres, let id = db.campaign { return PostGISMapSource(url: url, campaignID: id) }
        if let features, features != "-", CampaignStore.isSQLiteFile(features) { return CampaignMapSource(path: features) }
        if let features { return FeaturesGeoJSONSource(path: features) }
        return ExtractsSource(buildings: input.buildings, addresses: input.addresses, segments: input.segments,
                              options: input.loadOptions, statusFile: status)
    }

    /// A campaign GeoPackage drawn without a turf, or a campaign in PostGIS, is streamed per
    /// view (unless --load-all).
    var streamed: StreamingMapSource? {
        guard !loadAll, turf == nil else { return nil }
        if let url = db.postgres, let id = db.campaign { return PostGISStreamSource(url: url, campaignID: id) }
        guard let features, features != "-", CampaignStore.isSQLiteFile(features) else { return nil }
        return CampaignStreamSource(path: features)
    }

    func run() throws {
        do { try execute() } catch { reportAndExit(error) }
    }

    private func execute() throws {
        guard let output, let format = OutputFormat(path: output) else { return }
        try checkOutput(output, force: force)
        let mapStyle = try style.map { path throws(StyleError) in try Style.load(path: path) } ?? .default
        let start = ContinuousClock.now
        let focus = try turf.map { n in try turfFocus(n) }
        let stream = streamed
        var map = try stream?.loadOverlay() ?? source.loadMapData()
        let readTime = seconds(since: start)
        if let turf, let focus {
            map.focus = focus
            map.title = (map.title.map { $0 + " · " } ?? "") + "Turf \(turf)"
        }
        if let title { map.title = title }
        let renderer = MapRenderer(style: mapStyle, drawThreads: drawThreads)
        let result = try stream.map { s in try renderer.render(streaming: s, overlay: map, viewport: viewport, canvas: canvas, format: format) }
            ?? renderer.render(map, viewport: viewport, canvas: canvas, format: format)
        let writeStart = ContinuousClock.now
        try writeOutput(result.data, to: output)
        let writeTime = seconds(since: writeStart)
        let drawn = result.counts.values.reduce(0, +)
        Log.info("flyr render: \(output) \(result.view.width)x\(result.view.height) px, \(drawn) buildings, \(result.labelsPlaced) labels, \(result.labels.filter { $0.kind == .street }.count) street names, "
                 + MapStatus.allCases.map { "\($0.rawValue) \(result.counts[$0] ?? 0)" }.joined(separator: " ")
                 + (result.buildingsRead.map { ", \($0) buildings read from the \(db.postgres == nil ? "file" : "database")" } ?? ""))
        if timings {
            let t = result.timings
            let phases = [("load", readTime)] + (stream == nil ? [] : [("read", t.read)])
                + [("project", t.project), ("draw", t.draw), ("encode", t.encode), ("write", writeTime)]
            Log.info("  time: " + phases.map { "\($0.0) \(LinkTable.format($0.1, 3)) s" }.joined(separator: ", "))
        }
        exitKeepingHeap(keeping: (map, result))
    }

    /// Turf `n` of the campaign file as the map's focus. Not a campaign file: usage (64); no
    /// turfs, or no turf `n`: bad data (65), naming what to run or which ids exist.
    private func turfFocus(_ n: Int) throws -> MapFocus {
        guard let features, CampaignStore.isSQLiteFile(features) else {
            throw CLIError(message: "--turf needs a campaign GeoPackage; \(features ?? "-") is not one", code: Exit.usage)
        }
        let store = try CampaignStore(path: features, readOnly: true)
        let ids = try store.turfIDs()
        let walk = try ids.contains(n) ? store.turfWalk(n) : nil
        try store.close()
        guard let first = ids.first, let last = ids.last else {
            throw CLIError(message: "\(features): no turfs; cut them first, e.g. flyr turf \(features) --doors 60", code: Exit.dataError)
        }
        guard let walk else {
            throw CLIError(message: "\(features): no turf \(n); its turfs are \(first) to \(last) (flyr stats lists them)", code: Exit.dataError)
        }
        return MapFocus(buildingIDs: walk.buildingIDs, route: walk.route)
    }
}
