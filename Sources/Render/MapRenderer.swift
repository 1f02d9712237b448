import CCairo
import Foundation
import Geo

/// Output encodings, chosen by the output file's extension.
public enum OutputFormat: String, CaseIterable, Sendable {
    case png, svg, pdf
    /// The format of `path`'s extension (case-insensitive); nil for any other.
    public init?(path: String) {
        self.init(rawValue: URL(fileURLWithPath: path).pathExtension.lowercased())
    }
}

/// Wall-clock seconds per rendering phase.
public struct RenderTimings: Sendable {
    /// Streamed buildings only: reading and decoding their rows (seconds summed over the
    /// drawing threads).
    public var read = 0.0
    /// Projecting to Web Mercator and laying out on the canvas.
    public var project = 0.0
    /// Cairo drawing calls (vector surfaces only record here).
    public var draw = 0.0
    /// Encoding PNG, or Cairo writing the SVG/PDF document.
    public var encode = 0.0
}

public struct RenderResult: Sendable {
    /// The encoded document.
    public var data: Data
    public var view: MapView
    public var timings: RenderTimings
    /// Buildings drawn per status (on the canvas, not hidden); the legend's numbers.
    public var counts: [MapStatus: Int]
    public var labelsPlaced: Int
    /// House numbers and street names placed, in placing order, with their collision boxes.
    public var labels: [PlacedLabel]
    /// Streamed buildings: rows read from storage; nil for a map drawn from memory.
    public var buildingsRead: Int? = nil
}

/// Draws a `MapData` on Cairo: roads, footprints by status, labels, title, legend, scale bar,
/// north arrow and attribution.
public struct MapRenderer: Sendable {
    public var style: Style
    /// Threads drawing the footprints of a PNG, at most 2; nil: 2 when there are two CPUs and
    /// at least 20,000 footprints, else 1.
    public var drawThreads: Int?
    public init(style: Style = .default, drawThreads: Int? = nil) { self.style = style; self.drawThreads = drawThreads }

    public func render(_ map: MapData, viewport: Viewport, canvas: Canvas, format: OutputFormat) throws -> RenderResult {
        var timings = RenderTimings()
        var clock = ContinuousClock.now
        func lap() -> Double {
            let d = ContinuousClock.now - clock
            clock = ContinuousClock.now
            return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }

        let projection = try Projection.webMercator()
        let view = try MapView(viewport: viewport, canvas: canvas, dataExtent: map.extent, projection: projection)
        let layout = try Layout(map: map, view: view, projection: projection, style: style)
        timings.project = lap()

        let surface = try Self.surface(for: view, format: format, title: map.title)
        let ppp = view.pointsPerPixel
        var labelsPlaced = 0
        var labels: [PlacedLabel] = []
        let svgText = format == .svg ? SVGText(family: style.font) : nil
        do {
            let bands = format == .png ? bandRows(layout, height: view.height) : []
            if bands.count > 1 { try drawBase(layout, view: view, on: surface, bands: bands) }
            let ctx = try CairoContext(surface)
            if format != .png { cairo_scale(ctx.cr, ppp, ppp) }
            var painter = Painter(ctx: ctx, style: style, view: view, svgText: svgText)
            if bands.count > 1 {
                try painter.drawOverlay(map: map, layout: layout)
            } else {
                try painter.draw(map: map, layout: layout)
            }
            labelsPlaced = painter.labelsPlaced
            labels = painter.placedLabels
            try ctx.check("draw")
        }
        timings.draw = lap()

        let data = try Self.encode(surface, format: format, svgText: svgText)
        timings.encode = lap()
        return RenderResult(data: data, view: view, timings: timings, counts: layout.counts, labelsPlaced: labelsPlaced, labels: labels)
    }
}

extension MapRenderer {
    /// Row ranges of the canvas drawn on separate threads: two bands split where half the
    /// footprints lie above, when there are enough footprints to gain and two CPUs; otherwise
    /// one band (drawn in place).
    func bandRows(_ layout: Layout, height: Int) -> [Range<Int>] {
        let threads = min(drawThreads ?? ProcessInfo.processInfo.activeProcessorCount, 2)
        guard threads > 1, layout.buildings.count >= (drawThreads == nil ? 20_000 : 1), height >= 2 else { return [0..<height] }
        // Footprint centres counted by pixel row; the split is the row where half are reached.
        var perRow = [Int](repeating: 0, count: height)
        for b in layout.buildings {
            let centre = (b.box.minY + b.box.maxY) / 2
            perRow[centre.isFinite ? Int(min(max(centre, 0), Double(height - 1))) : 0] += 1
        }
        var seen = 0, split = height - 1
        for (y, n) in perRow.enumerated() {
            seen += n
            if 2 * seen >= layout.buildings.count { split = y; break }
        }
        split = min(max(split, 1), height - 1)
        return [0..<split, split..<height]
    }

    /// Draws background, roads and footprints into `surface` (an ARGB32 image), each band of
    /// rows on its own thread through its own Cairo surface over the same pixel buffer,
    /// clipped to the band's rows (a pixel-aligned clip: Cairo writes no pixel outside it).
    /// Each pixel gets the same drawing calls, in the same order and at the same coordinates,
    /// as in one pass: the image is byte for byte the one-pass image.
    func drawBase(_ layout: Layout, view: MapView, on surface: CairoSurface, bands: [Range<Int>]) throws {
        _ = try inBands(view: view, on: surface, bands: bands) { _, painter, band in try painter.drawBase(layout, band: band) }
    }

    /// Runs `body` for each band of rows on its own thread, with a painter over `surface`'s
    /// pixels clipped to the band (canvas pixels); the bands' results in order.
    func inBands<T>(view: MapView, on surface: CairoSurface, bands: [Range<Int>],
                    _ body: (Int, inout Painter, BBox) throws -> T) throws -> [T] {
        cairo_surface_flush(surface.handle)
        guard let pixels = cairo_image_surface_get_data(surface.handle) else {
            throw RenderError("band drawing", message: "the image surface has no pixel buffer")
        }
        let stride = Int(cairo_image_surface_get_stride(surface.handle))
        nonisolated(unsafe) let base = pixels
        let done = SlotResults<T>(count: bands.count)
        let style = self.style
        // Each band's call to `body` draws its own rows through its own surface and painter.
        withoutActuallyEscaping(body) { escaping in
            nonisolated(unsafe) let body = escaping
            DispatchQueue.concurrentPerform(iterations: bands.count) { k in
                let rows = bands[k]
                done.set(k, Result {
                    let band = try CairoSurface.image(over: base, width: view.width, height: view.height, stride: stride)
                    let ctx = try CairoContext(band)
                    cairo_rectangle(ctx.cr, 0, Double(rows.lowerBound), Double(view.width), Double(rows.count))
                    cairo_clip(ctx.cr)
                    var painter = Painter(ctx: ctx, style: style, view: view)
                    let result = try body(k, &painter, BBox(minX: 0, minY: Double(rows.lowerBound),
                                                            maxX: Double(view.width), maxY: Double(rows.upperBound)))
                    try ctx.check("draw band \(k)")
                    cairo_surface_flush(band.handle)
                    return result
                })
            }
        }
        let results = try bands.indices.map { try done.get($0) }
        cairo_surface_mark_dirty(surface.handle)
        return results
    }

    /// The finished document: the image as PNG, or the SVG/PDF with real text put in.
    static func encode(_ surface: CairoSurface, format: OutputFormat, svgText: SVGText?) throws -> Data {
        if format == .png { return try surface.pngData() }
        try surface.finish()
        return svgText?.inject(into: surface.writtenBytes) ?? surface.writtenBytes
    }

    /// A surface of the view's size for `format`: an image, or an SVG/PDF document in points.
    static func surface(for view: MapView, format: OutputFormat, title: String?) throws -> CairoSurface {
        let ppp = view.pointsPerPixel
        switch format {
        case .png: return try .image(width: view.width, height: view.height)
        case .svg: return try .svg(width: Double(view.width) * ppp, height: Double(view.height) * ppp, unitIsPoints: ppp != 1)
        case .pdf: return try .pdf(width: Double(view.width) * ppp, height: Double(view.height) * ppp, title: title)
        }
    }
}

/// Map features in canvas pixels, culled to the canvas.
struct Layout {
    /// Every projected vertex, in pixels.
    var points: [Coord] = []
    /// Rings as ranges of `points`.
    var rings: [Range<Int>] = []
    struct PlacedBuilding {
        var index: Int
        var rings: Range<Int>
        var box: BBox
        var paint: StatusPaint
        var status: MapStatus
        /// Outside the map's focus: drawn faded, unlabelled, not counted.
        var dimmed: Bool
    }
    var buildings: [PlacedBuilding] = []
    /// Roads as ranges of `points`, with their width in style pixels and their index in the
    /// map's roads, narrowest first.
    var roads: [(points: Range<Int>, width: Double, index: Int)] = []
    /// The focus's walk as a range of `points`; nil without a focus or with an empty walk.
    var route: Range<Int>?
    var counts: [MapStatus: Int] = [:]

    init(map: MapData, view: MapView, projection: Projection, style: Style) throws {
        var all: [Coord] = []
        all.reserveCapacity(map.buildings.reduce(0) { $0 + $1.polygons.reduce(0) { $0 + $1.rings.reduce(0) { $0 + $1.count } } }
                            + map.roads.reduce(0) { $0 + $1.line.count })
        var buildingRings: [Range<Int>] = []
        for b in map.buildings {
            let first = rings.count
            for p in b.polygons {
                for r in p.rings {
                    rings.append(all.count..<(all.count + r.count))
                    all.append(contentsOf: r)
                }
            }
            buildingRings.append(first..<rings.count)
        }
        var roadRanges: [Range<Int>] = []
        for r in map.roads {
            roadRanges.append(all.count..<(all.count + r.line.count))
            all.append(contentsOf: r.line)
        }
        if let walk = map.focus?.route, !walk.isEmpty {
            route = all.count..<(all.count + walk.count)
            all.append(contentsOf: walk)
        }
        // Projected and placed on two threads, each with its own PROJ object.
        // Each PROJ object is used by one thread only.
        nonisolated(unsafe) let halves = [projection, try Projection.webMercator()]
        let halvesDone = SlotResults<Void>(count: 2)
        all.withUnsafeMutableBufferPointer { buffer in
            // Two disjoint halves of the buffer, one per thread.
            nonisolated(unsafe) let whole = buffer
            let mid = whole.count / 2
            DispatchQueue.concurrentPerform(iterations: 2) { h in
                let part = UnsafeMutableBufferPointer(rebasing: whole[(h == 0 ? 0 : mid)..<(h == 0 ? mid : whole.count)])
                halvesDone.set(h, Result {
                    try halves[h].forward(part)
                    for i in part.indices { part[i] = view.pixel(part[i]) }
                })
            }
        }
        for h in 0..<2 { try halvesDone.get(h) }
        points = all

        let canvas = BBox(minX: 0, minY: 0, maxX: Double(view.width), maxY: Double(view.height))
        // Paints and tallies by status, looked up once rather than per building.
        let statuses = MapStatus.allCases
        let paints = statuses.map { StatusColor.paint(for: $0, style: style) }
        var tally = [Int](repeating: 0, count: statuses.count)
        for (i, b) in map.buildings.enumerated() {
            let rr = buildingRings[i]
            var box = BBox.empty
            for r in rr { for p in rings[r] { box.expand(points[p]) } }
            guard box.intersects(canvas) else { continue }
            let status = StatusColor.status(of: b)
            let k = statuses.firstIndex(of: status)!
            guard let paint = paints[k] else { continue }
            let dimmed = map.focus.map { !$0.buildingIDs.contains(b.id) } ?? false
            if !dimmed { tally[k] += 1 }
            buildings.append(PlacedBuilding(index: i, rings: rr, box: box, paint: dimmed ? Self.dim(paint, style) : paint,
                                            status: status, dimmed: dimmed))
        }
        for (k, n) in tally.enumerated() where n > 0 { counts[statuses[k]] = n }
        for (i, r) in map.roads.enumerated() where r.line.count >= 2 {
            let box = BBox(covering: points[roadRanges[i]])
            guard box.expanded(by: 20 * view.styleScale).intersects(canvas) else { continue }
            roads.append((roadRanges[i], style.roadWidth(r.roadClass), i))
        }
        roads.sort { $0.width < $1.width }
    }

    /// A status paint faded three quarters of the way to the background, without its hatch.
    static func dim(_ paint: StatusPaint, _ style: Style) -> StatusPaint {
        StatusPaint(fill: paint.fill.mixed(with: style.background, 0.75))
    }
}
