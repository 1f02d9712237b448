/// The footprints within a radius of a point, one at a time, nearest first (ties by id rank),
/// each measured only when it could come next. A footprint's box is never farther from the
/// point than its outline, so a footprint is measured once the nearest measured one stands
/// beyond its box, and the footprints beyond `first` metres are read from the index only when
/// the nearest left stands that far. The scoring, which stops a little past the best, then
/// measures the few footprints near the point instead of every one within the radius. The
/// order and the distances are those of every footprint within the radius, measured and
/// sorted by distance and rank.
struct NearestFirst {
    struct Found: Comparable {
        var distance: Double, rank: Int32, building: Int, nearest: Coord
        static func < (l: Found, r: Found) -> Bool { l.distance != r.distance ? l.distance < r.distance : l.rank < r.rank }
        static func == (l: Found, r: Found) -> Bool { l.distance == r.distance && l.rank == r.rank }
    }

    private let index: GridIndex, boxes: [BBox]
    private let p: Coord, radius: Double
    /// Every footprint whose box lies within this distance is in `boxed`.
    private var reached: Double
    /// The footprints whose box meets the radius read so far, by the distance of their box (less
    /// a hair, so that rounding never puts a box beyond its outline); from `nextBoxed` on, not
    /// yet measured.
    private var boxed: [(building: Int, lower: Double)] = []
    private var nextBoxed = 0
    private var measured = Heap<Found>()

    /// Over the footprints of `index` (their boxes: `boxes`), from `p` out to `r` metres,
    /// reading those within `first` metres at once.
    init(_ index: GridIndex, boxes: [BBox], near p: Coord, within r: Double, first: Double) {
        self.index = index; self.boxes = boxes
        self.p = p; radius = r; reached = min(first, r)
        read(within: reached, skipping: nil)
    }

    /// Metres a box's distance is lowered by (far above rounding, far below any cost step).
    static let hair = 1e-6

    private mutating func read(within r: Double, skipping known: Set<Int>?) {
        let p = self.p, radius = self.radius, boxes = self.boxes
        var more: [(building: Int, lower: Double)] = []
        index.forEach(meeting: BBox(around: p, radius: r)) { b in
            if let known, known.contains(b) { return }
            let lower = boxes[b].distance(to: p) - NearestFirst.hair
            if lower <= radius { more.append((b, lower)) }
        }
        boxed.append(contentsOf: more)
        boxed[nextBoxed...].sort { $0.lower < $1.lower }
    }

    /// The next footprint, nearest first; nil when none within the radius is left. `measure`
    /// gives a footprint's distance from the point (0 when it covers it), the spot of its
    /// outline nearest the point, and its rank.
    mutating func next(_ measure: (Int) -> (distance: Double, nearest: Coord, rank: Int32)) -> Found? {
        while true {
            while nextBoxed < boxed.count {
                // Every footprint not yet measured stands at least `lower` away.
                if let top = measured.peek, top.distance < boxed[nextBoxed].lower { break }
                let b = boxed[nextBoxed].building
                nextBoxed += 1
                let m = measure(b)
                if m.distance <= radius { measured.push(Found(distance: m.distance, rank: m.rank, building: b, nearest: m.nearest)) }
            }
            // A footprint not read yet stands farther than `reached`.
            guard reached < radius, (measured.peek.map { $0.distance >= reached - Self.hair } ?? true) else { break }
            reached = radius
            read(within: radius, skipping: Set(boxed.map(\.building)))
        }
        return measured.pop()
    }
}
