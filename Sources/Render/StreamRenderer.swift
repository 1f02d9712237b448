import CCairo
import Foundation
import Geo

/// What the reading of streamed buildings found: the legend's tallies and the house number
/// candidates, and its time per phase.
struct StreamPass {
    var tally: [Int]
    var candidates: [(key: Int64, box: BBox, interior: Coord?)] = []
    /// Seconds reading rows and projecting them.
    var read = 0.0, project = 0.0
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

    /// One reader streams the view's buildings; with two bands (a PNG on two CPUs) it reads on
    /// a thread of its own and both band threads draw each batch it makes, each clipped to its
    /// rows (`BatchFeed`), so every row is read and projected once.
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
        let ctx = try CairoContext(surface)
        if format != .png { cairo_scale(ctx.cr, view.pointsPerPixel, view.pointsPerPixel) }
        var painter = Painter(ctx: ctx, style: style, view: view, svgText: svgText)
        // House numbers are asked for only where one could fit: the height test needs no text.
        let minLabelHeight = style.labelsVisible ? painter.beginHouseNumbers().textHeight * 0.8 : nil
        let bands = format == .png ? try streamBands(view: view, extent: extent, projection: projection) : []
        var pass: StreamPass
        var drawSeconds = 0.0
        if bands.count > 1 {
            let feed = BatchFeed(drawers: bands.count)
            let reading = SlotResults<StreamPass>(count: 1)
            let group = DispatchGroup()
            let view = painter.view
            nonisolated(unsafe) let source = source
            DispatchQueue.global().async(group: group) {
                reading.set(0, Result { try self.readBatches(source, view: view, minLabelHeight: minLabelHeight, sortFirst: sortFirst) { feed.put($0) } })
                feed.finish()
            }
            let drawn: [Double]
            do {
                drawn = try inBands(view: view, on: surface, bands: bands) { k, painter, band in
                    // A drawer that stops, done or failed, no longer holds the reader back.
                    defer { feed.leave(k) }
                    var start = ContinuousClock.now
                    try painter.drawBase(layout, band: band)
                    let reach = painter.beginFootprints()
                    while let batch = feed.take(k) { try painter.fillFootprints(batch, band: band, reach: reach) }
                    return seconds(since: &start)
                }
            } catch {
                group.wait()
                throw error
            }
            group.wait()
            pass = try reading.get(0)
            drawSeconds = drawn.reduce(0, +)
        } else {
            var start = ContinuousClock.now
            try painter.drawBase(layout)
            let reach = painter.beginFootprints()
            var failure: Error?
            pass = try readBatches(source, view: view, minLabelHeight: minLabelHeight, sortFirst: sortFirst) { batch in
                do { try painter.fillFootprints(batch, band: nil, reach: reach); return true } catch { failure = error; return false }
            }
            if let failure { throw failure }
            drawSeconds = seconds(since: &start) - pass.read - pass.project
        }
        var overlayStart = ContinuousClock.now
        for (k, status) in MapStatus.allCases.enumerated() where pass.tally[k] > 0 { layout.counts[status] = pass.tally[k] }
        let numbers = try houseNumbers(source, pass)
        try painter.drawOverlay(map: map, layout: layout, houseNumbers: numbers)
        try ctx.check("draw")
        // With two bands, reading and drawing overlap: draw is the band threads' seconds summed
        // (waits for batches included), then the labels and furniture.
        timings.read = pass.read
        timings.project += pass.project
        timings.draw = drawSeconds + seconds(since: &overlayStart)
        clock = ContinuousClock.now

        let data = try Self.encode(surface, format: format, svgText: svgText)
        timings.encode = seconds(since: &clock)
        return RenderResult(data: data, view: view, timings: timings, counts: layout.counts, labelsPlaced: painter.labelsPlaced,
                            labels: painter.placedLabels, buildingsRead: pass.buildingsRead)
    }

    /// The house number candidates in draw order, with their labels.
    private func houseNumbers(_ source: StreamingMapSource, _ pass: StreamPass) throws -> [HouseNumberCandidate] {
        guard !pass.candidates.isEmpty else { return [] }
        let reader = try source.openReader()
        let labels = try reader.labels(keys: pass.candidates.map(\.key))
        try reader.close()
        return pass.candidates.compactMap { c in labels[c.key].map { HouseNumberCandidate(label: $0, box: c.box, interior: c.interior) } }
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
    /// Reads the buildings on the canvas through a reader of its own, in draw order, and hands
    /// each batch on projected to pixels with the footprints on the canvas, culled and painted
    /// as `Layout` does, until `deliver` returns false. Tallies and house number candidates
    /// (buildings tall enough for a line of text) are kept in the pass.
    func readBatches(_ source: StreamingMapSource, view: MapView, minLabelHeight: Double?, sortFirst: Bool,
                     deliver: (DrawBatch) -> Bool) throws -> StreamPass {
        let projection = try Projection.webMercator()
        let canvas = BBox(minX: 0, minY: 0, maxX: Double(view.width), maxY: Double(view.height))
        let area = try Self.degrees(of: canvas.expanded(by: 1), view: view, projection: projection)
        let statuses = MapStatus.allCases
        let paints = statuses.map { StatusColor.paint(for: $0, style: style) }
        var pass = StreamPass(tally: [Int](repeating: 0, count: statuses.count))
        let reader = try source.openReader()
        var mark = ContinuousClock.now
        var stopped = false
        do {
            try reader.read(area: area, sortFirst: sortFirst) { batch in
                guard !stopped else { return }
                pass.read += seconds(since: &mark)
                try batch.coords.withUnsafeMutableBufferPointer { buffer throws(ProjError) in
                    if !WebMercator.forward(buffer) { try projection.forward(buffer) }
                    for i in buffer.indices { buffer[i] = view.pixel(buffer[i]) }
                }
                let (coords, rings) = (batch.coords, batch.rings)
                var footprints: [DrawBatch.Footprint] = []
                footprints.reserveCapacity(batch.members.count)
                for m in batch.members {
                    var box = BBox.empty
                    for r in m.rings { for p in rings[r] { box.expand(coords[p]) } }
                    guard box.intersects(canvas) else { continue }
                    let k = statuses.firstIndex(of: StatusColor.status(of: m.building))!
                    guard let paint = paints[k] else { continue }
                    pass.tally[k] += 1
                    if let minLabelHeight, minLabelHeight <= box.maxY - box.minY {
                        let shape = m.rings.map { Array(coords[rings[$0]]) }
                        pass.candidates.append((m.key, box, InteriorPoint.of(shape)))
                    }
                    footprints.append(DrawBatch.Footprint(rings: m.rings, box: box, paint: paint))
                }
                pass.project += seconds(since: &mark)
                if !deliver(DrawBatch(points: coords, rings: rings, footprints: footprints)) { stopped = true }
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
