import CCairo
import Foundation
import Geo

/// What one drawing pass over streamed buildings found: the legend's tallies and the house
/// number candidates of the buildings it owns, and its time per phase.
struct StreamPass {
    var tally: [Int]
    var candidates: [(id: String, key: Int64, box: BBox, interior: Coord?)] = []
    /// Seconds reading rows, projecting them, and in all (roads and footprints).
    var read = 0.0, project = 0.0, wall = 0.0
    var buildingsRead = 0
}

extension MapRenderer {
    /// Draws a map whose buildings are streamed from `source` for the view (decoded, projected
    /// and filled a batch at a time, never all held), over `map`'s roads, title and furniture.
    /// The image is the one `render(_:)` draws from the same map loaded in memory: the same
    /// view, the same calls in the same (id) order, the same house numbers, tallies and legend.
    /// A map focus is not streamed (it draws from memory).
    public func render(streaming source: StreamingMapSource, overlay map: MapData, viewport: Viewport,
                       canvas: Canvas, format: OutputFormat) throws -> RenderResult {
        do {
            return try renderStreamed(source, map, viewport: viewport, canvas: canvas, format: format, sortFirst: false)
        } catch is BuildingOrderError {
            return try renderStreamed(source, map, viewport: viewport, canvas: canvas, format: format, sortFirst: true)
        }
    }

    private func renderStreamed(_ source: StreamingMapSource, _ map: MapData, viewport: Viewport, canvas: Canvas,
                                format: OutputFormat, sortFirst: Bool) throws -> RenderResult {
        var timings = RenderTimings()
        var clock = ContinuousClock.now
        let projection = try Projection.webMercator()
        var extent = try source.buildingExtent()
        if extent.isEmpty { extent = map.extent }
        let view = try MapView(viewport: viewport, canvas: canvas, dataExtent: extent, projection: projection)
        var layout = try Layout(map: map, view: view, projection: projection, style: style)
        timings.project = seconds(since: &clock)

        let surface = try Self.surface(for: view, format: format, title: map.title)
        let svgText = format == .svg ? SVGText(family: style.font) : nil
        let bands = format == .png ? try streamBands(view: view, extent: extent, projection: projection) : []
        var passes: [StreamPass] = []
        if bands.count > 1 {
            passes = try inBands(view: view, on: surface, bands: bands) { _, painter, band in
                var start = ContinuousClock.now
                try painter.drawBase(layout, band: band)
                var pass = try streamPass(source, &painter, band: band, sortFirst: sortFirst)
                pass.wall = seconds(since: &start)
                return pass
            }
        }
        let ctx = try CairoContext(surface)
        if format != .png { cairo_scale(ctx.cr, view.pointsPerPixel, view.pointsPerPixel) }
        var painter = Painter(ctx: ctx, style: style, view: view, svgText: svgText)
        if passes.isEmpty {
            var start = ContinuousClock.now
            try painter.drawBase(layout)
            passes = [try streamPass(source, &painter, band: nil, sortFirst: sortFirst)]
            passes[0].wall = seconds(since: &start)
        }
        var overlayStart = ContinuousClock.now
        let statuses = MapStatus.allCases
        for (k, status) in statuses.enumerated() {
            let n = passes.reduce(0) { $0 + $1.tally[k] }
            if n > 0 { layout.counts[status] = n }
        }
        let numbers = try houseNumbers(source, passes)
        try painter.drawOverlay(map: map, layout: layout, houseNumbers: numbers)
        try ctx.check("draw")
        // Reading, projecting and drawing interleave on the drawing threads: each phase is
        // its seconds summed over them, the labels and furniture drawn after added to draw.
        timings.read = passes.reduce(0) { $0 + $1.read }
        timings.project += passes.reduce(0) { $0 + $1.project }
        timings.draw = passes.reduce(0) { $0 + $1.wall - $1.read - $1.project } + seconds(since: &overlayStart)
        clock = ContinuousClock.now

        let data = try Self.encode(surface, format: format, svgText: svgText)
        timings.encode = seconds(since: &clock)
        return RenderResult(data: data, view: view, timings: timings, counts: layout.counts, labelsPlaced: painter.labelsPlaced,
                            labels: painter.placedLabels, buildingsRead: passes.reduce(0) { $0 + $1.buildingsRead })
    }

    /// The passes' house number candidates in draw order (id, bytewise), with their labels.
    private func houseNumbers(_ source: StreamingMapSource, _ passes: [StreamPass]) throws -> [HouseNumberCandidate] {
        var all = passes.flatMap(\.candidates)
        guard !all.isEmpty else { return [] }
        if passes.count > 1 { all.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) } }
        let reader = try source.openReader()
        let labels = try reader.labels(keys: all.map(\.key))
        try reader.close()
        return all.compactMap { c in labels[c.key].map { HouseNumberCandidate(label: $0, box: c.box, interior: c.interior) } }
    }

    /// Two bands of rows split at the middle of the data's rows when there are two CPUs (or
    /// `drawThreads` is 2), else one.
    private func streamBands(view: MapView, extent: BBox, projection: Projection) throws -> [Range<Int>] {
        let threads = min(drawThreads ?? ProcessInfo.processInfo.activeProcessorCount, 2)
        guard threads > 1, view.height >= 2 else { return [0..<view.height] }
        var corners = [Coord(extent.minX, extent.minY), Coord(extent.maxX, extent.maxY)]
        try projection.forward(&corners)
        let middle = (view.pixel(corners[0]).y + view.pixel(corners[1]).y) / 2
        let split = middle.isFinite ? min(max(Int(middle), 1), view.height - 1) : view.height / 2
        return [0..<split, split..<view.height]
    }
}

/// Seconds since `clock`, which moves to now.
private func seconds(since clock: inout ContinuousClock.Instant) -> Double {
    let now = ContinuousClock.now
    let d = now - clock
    clock = now
    return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

extension MapRenderer {
    /// Streams the buildings that can touch `band` (canvas pixels; nil: the whole canvas)
    /// onto `painter` through a reader of its own, in draw order, culled and painted as
    /// `Layout` and `drawBuildings` do. Tallies and house number candidates are kept only for
    /// the buildings whose box centre's row lies in the band, so each is counted once.
    func streamPass(_ source: StreamingMapSource, _ painter: inout Painter, band: BBox?, sortFirst: Bool) throws -> StreamPass {
        let view = painter.view
        let projection = try Projection.webMercator()
        let canvas = BBox(minX: 0, minY: 0, maxX: Double(view.width), maxY: Double(view.height))
        // House numbers are asked for only where one could fit: the height test needs no text.
        let minLabelHeight = style.labelsVisible ? painter.beginHouseNumbers().textHeight * 0.8 : nil
        let reach = painter.beginFootprints()
        let area = try Self.degrees(of: (band?.expanded(by: reach) ?? canvas).expanded(by: 1), view: view, projection: projection)
        let statuses = MapStatus.allCases
        let paints = statuses.map { StatusColor.paint(for: $0, style: style) }
        var pass = StreamPass(tally: [Int](repeating: 0, count: statuses.count))
        let reader = try source.openReader()
        var mark = ContinuousClock.now
        do {
            try reader.read(area: area, sortFirst: sortFirst) { batch in
                pass.read += seconds(since: &mark)
                try batch.coords.withUnsafeMutableBufferPointer { buffer throws(ProjError) in
                    if !WebMercator.forward(buffer) { try projection.forward(buffer) }
                    for i in buffer.indices { buffer[i] = view.pixel(buffer[i]) }
                }
                pass.project += seconds(since: &mark)
                let (coords, rings) = (batch.coords, batch.rings)
                for m in batch.members {
                    var box = BBox.empty
                    for r in m.rings { for p in rings[r] { box.expand(coords[p]) } }
                    guard box.intersects(canvas) else { continue }
                    let k = statuses.firstIndex(of: StatusColor.status(of: m.building))!
                    guard let paint = paints[k] else { continue }
                    if Self.owns(band, box, height: view.height) {
                        pass.tally[k] += 1
                        if let minLabelHeight, minLabelHeight <= box.maxY - box.minY {
                            let shape = m.rings.map { Array(coords[rings[$0]]) }
                            pass.candidates.append((m.building.id, m.key, box, InteriorPoint.of(shape)))
                        }
                    }
                    if let band, !box.expanded(by: reach).intersects(band) { continue }
                    try painter.fillFootprint(coords, rings: m.rings.lazy.map { rings[$0] }, paint: paint)
                }
                mark = ContinuousClock.now
            }
        } catch {
            try? reader.close()
            throw error
        }
        pass.read += seconds(since: &mark)
        pass.buildingsRead = reader.buildingsRead
        try reader.close()
        return pass
    }

    /// Whether the row of `box`'s centre (clamped to the canvas) lies in `band`; always
    /// without a band.
    static func owns(_ band: BBox?, _ box: BBox, height: Int) -> Bool {
        guard let band else { return true }
        let centre = (box.minY + box.maxY) / 2
        let row = Double(centre.isFinite ? Int(min(max(centre, 0), Double(height - 1))) : 0)
        return row >= band.minY && row < band.maxY
    }

    /// A box of canvas pixels in degrees (W,S,E,N); all longitudes when it spans the world.
    static func degrees(of pixels: BBox, view: MapView, projection: Projection) throws -> BBox {
        let mpp = view.metresPerPixel, w = Double(view.width), h = Double(view.height)
        var corners = [Coord(view.center.x + (pixels.minX - w / 2) * mpp, view.center.y - (pixels.maxY - h / 2) * mpp),
                       Coord(view.center.x + (pixels.maxX - w / 2) * mpp, view.center.y - (pixels.minY - h / 2) * mpp)]
        let worldWide = corners[1].x - corners[0].x >= 2 * Double.pi * MapView.earthRadius
        try projection.inverse(&corners)
        var area = BBox(minX: corners[0].x, minY: corners[0].y, maxX: corners[1].x, maxY: corners[1].y)
        if worldWide || !(area.minX < area.maxX) { area.minX = -180; area.maxX = 180 }
        return area
    }
}
