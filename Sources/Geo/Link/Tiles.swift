import Foundation

/// Footprint rings, all in one coordinate array: a million small arrays would cost an
/// allocation and a header each. Ring k is `coords[ringStarts[k]..<ringStarts[k + 1]]`;
/// building b's rings are `firstRing[b]..<firstRing[b + 1]`.
struct FlatRings: Sendable {
    var coords: [Coord] = []
    var ringStarts: [Int] = [0]
    var firstRing: [Int] = [0]

    init() {}

    /// Every ring of every part of each building, in order, the coordinates as given.
    init(_ buildings: [Building]) {
        coords.reserveCapacity(buildings.reduce(0) { $0 + $1.footprint.coords.count })
        ringStarts.reserveCapacity(buildings.count + 1)
        firstRing.reserveCapacity(buildings.count + 1)
        for b in buildings { append(b.footprint) }
    }

    /// Adds one building's rings.
    mutating func append(_ f: Footprint) {
        let base = coords.count
        coords.append(contentsOf: f.coords)
        for k in 0..<f.ringCount { ringStarts.append(base + f.ringRange(k).upperBound) }
        firstRing.append(ringStarts.count - 1)
    }

    /// Adds one building's rings.
    mutating func append<Rings: Sequence>(_ rings: Rings) where Rings.Element: CoordRing {
        for r in rings { coords.append(contentsOf: r); ringStarts.append(coords.count) }
        firstRing.append(ringStarts.count - 1)
    }

    var count: Int { firstRing.count - 1 }

    /// How many rings building `b` has.
    func ringCount(_ b: Int) -> Int { firstRing[b + 1] - firstRing[b] }

    /// Building `b`'s rings as arrays.
    subscript(b: Int) -> [[Coord]] {
        (firstRing[b]..<firstRing[b + 1]).map { k in Array(coords[ringStarts[k]..<ringStarts[k + 1]]) }
    }

    /// Calls `body` with building `b`'s rings, read in place.
    func withRings<R, E: Error>(_ b: Int, _ body: (RingsView) throws(E) -> R) throws(E) -> R {
        let first = firstRing[b], end = firstRing[b + 1]
        return try coords.withUnsafeBufferPointer { (c) throws(E) -> R in
            try ringStarts.withUnsafeBufferPointer { (s) throws(E) -> R in
                try body(RingsView(coords: c, starts: UnsafeBufferPointer(rebasing: s[first...end])))
            }
        }
    }

    /// The rings of the buildings `keep` holds, in order, and each building's place among them
    /// (-1: not kept). Sized exactly: one pass to count, one to copy.
    func keeping(_ keep: [Bool]) -> (rings: FlatRings, slot: [Int32]) {
        var out = FlatRings()
        var slot = [Int32](repeating: -1, count: count)
        var coordCount = 0, ringTotal = 0, kept = 0
        for b in 0..<count where keep[b] {
            coordCount += ringStarts[firstRing[b + 1]] - ringStarts[firstRing[b]]
            ringTotal += ringCount(b); kept += 1
        }
        out.coords.reserveCapacity(coordCount)
        out.ringStarts.reserveCapacity(ringTotal + 1)
        out.firstRing.reserveCapacity(kept + 1)
        for b in 0..<count where keep[b] {
            slot[b] = Int32(out.count)
            let from = ringStarts[firstRing[b]], shift = out.coords.count - from
            out.coords.append(contentsOf: coords[from..<ringStarts[firstRing[b + 1]]])
            for k in firstRing[b]..<firstRing[b + 1] { out.ringStarts.append(ringStarts[k + 1] + shift) }
            out.firstRing.append(out.ringStarts.count - 1)
        }
        return (out, slot)
    }

    /// The envelope of building `b`'s rings.
    func box(_ b: Int) -> BBox { BBox(covering: coords[ringStarts[firstRing[b]]..<ringStarts[firstRing[b + 1]]]) }
}

/// One footprint's rings read in place: ring k is `coords[starts[k]..<starts[k + 1]]`. Valid
/// while the memory lasts: inside `FlatRings.withRings`, or while its `LinkWorld` lives.
struct RingsView: Sequence {
    let coords: UnsafeBufferPointer<Coord>
    /// Where each ring starts, then where the last one ends.
    let starts: UnsafeBufferPointer<Int>

    var ringCount: Int { starts.count - 1 }
    subscript(k: Int) -> UnsafeBufferPointer<Coord> { UnsafeBufferPointer(rebasing: coords[starts[k]..<starts[k + 1]]) }

    struct Iterator: IteratorProtocol {
        let view: RingsView
        var k = 0
        mutating func next() -> UnsafeBufferPointer<Coord>? {
            guard k < view.ringCount else { return nil }
            k += 1
            return view[k - 1]
        }
    }
    func makeIterator() -> Iterator { Iterator(view: self) }
}

/// Every feature projected once to the local metric CRS (see `Projection.localMetric`),
/// centred on the data: rings per building, points per address, lines per segment.
struct ProjectedLayers: Sendable {
    let rings: FlatRings
    let boxes: [BBox]
    let points: [Coord]
    let lines: [[Coord]]
    let lineBoxes: [BBox]

    /// The PROJ pipeline they were projected with.
    let definition: String

    /// Projects every feature, on all cores: the footprints' coordinates in chunks (one PROJ
    /// object each), the points and the lines; `alongside` jobs (largest first) share the
    /// workers. The result does not depend on how the work was split.
    init(buildings: [Building], addresses: [Address], segments: [Segment],
         alongside: [@Sendable () -> Void] = [], workers: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        let definition = Projection.localMetricDefinition(around: Projection.localOrigin(buildings, addresses))
        var rings = FlatRings(buildings)
        var points = addresses.map { $0.point }
        var flat = segments.flatMap(\.line)
        let chunk = 1 << 18
        let ringChunks = (rings.coords.count + chunk - 1) / chunk
        let failures = SlotResults<Void>(count: 1)
        try rings.coords.withUnsafeMutableBufferPointer { ringCoords in
            try points.withUnsafeMutableBufferPointer { pointCoords in
                try flat.withUnsafeMutableBufferPointer { lineCoords in
                    // Mutable buffers are not Sendable; each job projects its own range.
                    nonisolated(unsafe) let parts = [pointCoords, lineCoords] + (0..<ringChunks).map { k in
                        UnsafeMutableBufferPointer(rebasing: ringCoords[(k * chunk)..<min(ringCoords.count, (k + 1) * chunk)])
                    }
                    let jobs = alongside.count + parts.count
                    let next = TileCounter()
                    DispatchQueue.concurrentPerform(iterations: max(1, min(workers, jobs))) { _ in
                        while let j = next.take(below: jobs) {
                            if j < alongside.count { alongside[j](); continue }
                            do {
                                try Projection(pipeline: definition).forward(parts[j - alongside.count])
                            } catch {
                                failures.set(0, .failure(error))
                            }
                        }
                    }
                    if let error = failures.error(0) { throw error }
                }
            }
        }
        boxes = (0..<rings.count).map { rings.box($0) }
        var k = 0
        var lines: [[Coord]] = []
        lines.reserveCapacity(segments.count)
        for s in segments { lines.append(Array(flat[k..<(k + s.line.count)])); k += s.line.count }
        self.definition = definition
        self.rings = rings
        self.points = points
        self.lines = lines
        self.lineBoxes = lines.map { BBox(covering: $0) }
    }

    /// The `count` footprints nearest each address in `far`, at any distance (for addresses
    /// with no footprint near their tile), nearest first, ties by id: a best-first search of
    /// one R-tree over every footprint's box.
    func nearestBuildings(to far: [Int], count: Int, ids: [String]) -> [Int: [NearbyBuilding]] {
        var out: [Int: [NearbyBuilding]] = [:]
        guard !far.isEmpty else { return out }
        let tree = PackedRTree(boxes: boxes)
        for a in far {
            let p = points[a]
            var found: [NearbyBuilding] = []
            // Footprints come nearest first; after the count-th, those at its rounded distance
            // still come in (ties go by id).
            tree.nearest(to: p, exact: { rings.withRings($0) { Planar.distance(from: p, toRings: $0) } }) { b, d in
                let rounded = (d * 100).rounded() / 100
                if found.count >= count, rounded > found[count - 1].distance { return true }
                found.append(NearbyBuilding(buildingID: ids[b], distance: rounded))
                return false
            }
            found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.buildingID < $1.buildingID }
            out[a] = Array(found.prefix(count))
        }
        return out
    }
}

/// What the linker reads of each feature, computed once for all tiles: ids and their rank in
/// id order (for tie-breaking and sorting), street keys, house keys, numbers, flags.
struct FeatureAttributes: Sendable {
    let buildingIDs: [String], buildingRank: [Int32], outbuilding: [Bool], open: [Bool], multiUnitClass: [Bool]
    /// Each building's measured height in metres, NaN where the data gives none (or none above 0).
    let heights: [Float]
    let addressIDs: [String], addressRank: [Int32], streetKeys: [String?], houseKeys: [String], numbers: [Double?]
    /// True for an address whose house key is a range's that holds its number (`householdKeys`).
    let inRange: [Bool]
    let segmentKeys: [String?], frontage: [Bool], separating: [Bool]

    /// The buildings' part, worked out on its own (it can run beside the other part).
    struct OfBuildings: Sendable {
        let ids: [String], rank: [Int32], outbuilding: [Bool], open: [Bool], multiUnitClass: [Bool], heights: [Float]
        init(_ buildings: [Building]) {
            ids = buildings.map { $0.id }
            rank = IDOrder.ranks(ids)
            outbuilding = buildings.map { $0.isOutbuilding }
            open = buildings.map { $0.isOpenStructure }
            multiUnitClass = buildings.map(LinkWorld.multiUnitByClass)
            heights = buildings.map { b in b.height.flatMap { $0 > 0 ? Float($0) : nil } ?? .nan }
        }
    }

    /// The addresses' and segments' part.
    struct OfAddresses: Sendable {
        let ids: [String], rank: [Int32], streetKeys: [String?], houseKeys: [String], numbers: [Double?], inRange: [Bool]
        let segmentKeys: [String?], frontage: [Bool], separating: [Bool]
        init(_ addresses: [Address], _ segments: [Segment]) {
            ids = addresses.map { $0.id }
            rank = IDOrder.ranks(ids)
            segmentKeys = StreetName.keys(of: segments)
            let keys = StreetAliases.addressKeys(addresses, aliases: StreetAliases.aliases(segments, segmentKeys))
            streetKeys = keys
            (houseKeys, inRange) = HouseNumbers.householdKeys(numbers: addresses.map(\.number), streets: keys)
            numbers = HouseNumbers.values(addresses.map(\.number))
            frontage = segments.map(LinkWorld.isFrontageRoad)
            let named = segmentKeys.map { $0 != nil }
            separating = segments.indices.map { LinkWorld.separatesHouses(segments[$0], named: named[$0]) }
        }
    }

    init(_ b: OfBuildings, _ a: OfAddresses) {
        buildingIDs = b.ids; buildingRank = b.rank; outbuilding = b.outbuilding; open = b.open; multiUnitClass = b.multiUnitClass
        heights = b.heights
        addressIDs = a.ids; addressRank = a.rank; streetKeys = a.streetKeys; houseKeys = a.houseKeys; numbers = a.numbers
        inRange = a.inRange
        segmentKeys = a.segmentKeys; frontage = a.frontage; separating = a.separating
    }

}

/// Square tiles over the data, fixed by the data alone: tile (i, j) owns the addresses whose
/// point, and the buildings whose box centre, fall in it, and sees every feature within the
/// margin around it.
struct TileGrid: Sendable {
    struct Tile: Sendable {
        var cell: Cell
        let grid: Geometry2D
        var buildings: [Int] = []
        var addresses: [Int] = []
        var segments: [Int] = []

        func owns(_ p: Coord) -> Bool { grid.cell(of: p) == cell }
        /// How far `p` lies inside the tile's context box (metres).
        func contextDistance(_ p: Coord) -> Double {
            let c = grid.contextBox(cell)
            return min(min(p.x - c.minX, c.maxX - p.x), min(p.y - c.minY, c.maxY - p.y))
        }
    }
    struct Cell: Hashable, Sendable, Comparable {
        var i: Int, j: Int
        static func < (l: Cell, r: Cell) -> Bool { (l.j, l.i) < (r.j, r.i) }
    }
    struct Geometry2D: Sendable {
        var originX: Double, originY: Double, size: Double, margin: Double
        func cell(of p: Coord) -> Cell { Cell(i: Int(((p.x - originX) / size).rounded(.down)), j: Int(((p.y - originY) / size).rounded(.down))) }
        func contextBox(_ c: Cell) -> BBox {
            BBox(minX: originX + Double(c.i) * size - margin, minY: originY + Double(c.j) * size - margin,
                 maxX: originX + Double(c.i + 1) * size + margin, maxY: originY + Double(c.j + 1) * size + margin)
        }
    }

    let tiles: [Tile]

    /// Tile numbers by cell: a dense table over the cells the data can reach when that is
    /// small (the usual case: a city is a few hundred tiles), a dictionary otherwise (an
    /// address on another continent would make the table huge).
    struct CellTable {
        let lo: Cell, cols: Int, rows: Int
        var dense: [Int32]
        var sparse: [Cell: Int] = [:]
        static let denseLimit = 1 << 22

        init(lo: Cell, hi: Cell) {
            self.lo = lo
            cols = hi.i - lo.i + 1
            rows = hi.j - lo.j + 1
            let cells = cols.multipliedReportingOverflow(by: rows)
            dense = !cells.overflow && cells.partialValue <= Self.denseLimit ? [Int32](repeating: -1, count: cells.partialValue) : []
        }

        @inline(__always) private func slot(_ c: Cell) -> Int? {
            let di = c.i - lo.i, dj = c.j - lo.j
            guard di >= 0, di < cols, dj >= 0, dj < rows else { return nil }
            return dj * cols + di
        }

        subscript(c: Cell) -> Int? {
            get {
                if dense.isEmpty { return sparse[c] }
                guard let s = slot(c) else { return nil }
                let t = dense[s]
                return t < 0 ? nil : Int(t)
            }
            set {
                if dense.isEmpty { sparse[c] = newValue } else if let s = slot(c) { dense[s] = Int32(newValue ?? -1) }
            }
        }
    }

    init(layers: ProjectedLayers, tile size: Double, margin: Double) {
        var extent = BBox.empty
        for p in layers.points { extent.expand(p) }
        for b in layers.boxes { extent.expand(b) }
        let g = Geometry2D(originX: extent.isEmpty ? 0 : extent.minX, originY: extent.isEmpty ? 0 : extent.minY,
                           size: size, margin: margin)
        // Every cell a point's or footprint's context can meet lies in this range.
        let lo = extent.isEmpty ? Cell(i: 0, j: 0) : g.cell(of: Coord(extent.minX - margin, extent.minY - margin))
        let hi = extent.isEmpty ? Cell(i: 0, j: 0) : g.cell(of: Coord(extent.maxX + margin, extent.maxY + margin))
        var byCell = CellTable(lo: lo, hi: hi)
        var tiles: [Tile] = []
        func tileIndex(_ c: Cell) {
            if byCell[c] != nil { return }
            byCell[c] = tiles.count
            tiles.append(Tile(cell: c, grid: g))
        }
        // Tiles exist where something is owned.
        for p in layers.points { tileIndex(g.cell(of: p)) }
        for b in layers.boxes where !b.isEmpty { tileIndex(g.cell(of: b.center!)) }
        /// Calls `body` with each existing tile whose context box meets `b`.
        func forTiles(meeting b: BBox, _ body: (Int) -> Void) {
            let l = g.cell(of: Coord(b.minX - margin, b.minY - margin)), h = g.cell(of: Coord(b.maxX + margin, b.maxY + margin))
            // A very long segment: visit only the tiles that exist.
            if (h.i - l.i + 1) * (h.j - l.j + 1) > tiles.count {
                for (t, tile) in tiles.enumerated() where tile.cell.i >= l.i && tile.cell.i <= h.i && tile.cell.j >= l.j && tile.cell.j <= h.j {
                    body(t)
                }
                return
            }
            for j in l.j...h.j { for i in l.i...h.i { if let t = byCell[Cell(i: i, j: j)] { body(t) } } }
        }
        for (a, p) in layers.points.enumerated() {
            forTiles(meeting: BBox(around: p, radius: 0)) { tiles[$0].addresses.append(a) }
        }
        for (b, box) in layers.boxes.enumerated() where !box.isEmpty {
            forTiles(meeting: box) { tiles[$0].buildings.append(b) }
        }
        for (s, box) in layers.lineBoxes.enumerated() where !box.isEmpty {
            forTiles(meeting: box) { tiles[$0].segments.append(s) }
        }
        for t in tiles.indices { tiles[t].segments.sort() }
        self.tiles = tiles.sorted { $0.cell < $1.cell }
    }
}
