/// A named street as one line: the segments carrying one street name joined end to end, at
/// each node the two of them running on straightest, so a block face is not cut where a
/// crossing, a footway, a driveway or a converter splits the street into short segments, and
/// the line is the same whether an extract cut the street at its junctions or not.
struct StreetChains {
    /// Each segment's chain, or nil for a segment without a name.
    let chainOf: [Int?]
    /// Each chain's line, its segments oriented one way.
    let lines: [[Coord]]
    /// Each chain's length (metres).
    let lengths: [Double]

    /// Ends closer than this are one node (the converters write shared vertices, so a
    /// centimetre absorbs round-off only).
    static let snap = 0.01

    /// A segment walked one way: from its first point to its last when `forward`.
    private struct Walk { var segment: Int; var forward: Bool }

    init(lines segs: [[Coord]], keys: [String?]) {
        struct Node: Hashable { var x: Int64, y: Int64 }
        func node(_ s: Int, last: Bool) -> Node {
            let c = last ? segs[s][segs[s].count - 1] : segs[s][0]
            return Node(x: Int64((c.x / Self.snap).rounded()), y: Int64((c.y / Self.snap).rounded()))
        }
        // In an order of their drawing, not of the input, so the chains and the way each runs
        // do not depend on the order of the segments.
        let named = segs.indices.filter { keys[$0] != nil && segs[$0].count > 1 }.sorted { Planar.drawnBefore(segs[$0], segs[$1]) }
        var meeting: [Node: [End]] = [:]
        for s in named { for last in [false, true] { meeting[node(s, last: last), default: []].append(End(segment: s, last: last)) } }
        var partner: [End: End] = [:]
        for ends in meeting.values { Self.pairStraightest(ends, segs, keys, into: &partner) }
        // The segment end joined to each end: its partner at the node, when that is another
        // segment (a segment paired with itself closes a ring).
        func joined(_ s: Int, last: Bool) -> (segment: Int, last: Bool)? {
            guard let other = partner[End(segment: s, last: last)], other.segment != s else { return nil }
            return (other.segment, other.last)
        }
        var chainOf = [Int?](repeating: nil, count: segs.count)
        var chains: [[Coord]] = []
        for s in named where chainOf[s] == nil {
            // Back from s to the chain's first segment (a ring stops where it began).
            var first = Walk(segment: s, forward: true)
            var seen: Set<Int> = [s]
            while let prev = joined(first.segment, last: !first.forward), chainOf[prev.segment] == nil,
                  seen.insert(prev.segment).inserted {
                first = Walk(segment: prev.segment, forward: prev.last)
            }
            // Then forward, joining each segment's line on.
            let id = chains.count
            var at = first, line = Self.points(segs, first)
            chainOf[first.segment] = id
            while let nextEnd = joined(at.segment, last: at.forward), chainOf[nextEnd.segment] == nil {
                at = Walk(segment: nextEnd.segment, forward: !nextEnd.last)
                chainOf[at.segment] = id
                line += Self.points(segs, at).dropFirst()
            }
            chains.append(line)
        }
        self.chainOf = chainOf
        self.lines = chains
        lengths = chains.map { line in zip(line, line.dropFirst()).reduce(0) { $0 + Planar.length(Planar.sub($1.1, $1.0)) } }
    }

    /// One end of a segment: its last point when `last`, else its first.
    private struct End: Hashable { var segment: Int; var last: Bool }

    /// Pairs the ends of one street that meet at one node, the two running on straightest
    /// first (the most nearly opposite directions out of the node), so a street runs on through
    /// a crossing, however its segments were cut there, and a spur or a ring's tail meeting
    /// it stays a chain of its own. `ends` come in the segments' order of drawing, which breaks
    /// ties.
    private static func pairStraightest(_ ends: [End], _ segs: [[Coord]], _ keys: [String?], into partner: inout [End: End]) {
        guard ends.count > 1 else { return }
        // The unit direction out of the node along the segment, to its first other point.
        func direction(_ e: End) -> Coord {
            let line = segs[e.segment], at = e.last ? line[line.count - 1] : line[0]
            guard let far = e.last ? line.last(where: { $0 != at }) : line.first(where: { $0 != at }) else { return Coord(0, 0) }
            let d = Planar.sub(far, at), n = Planar.length(d)
            return Coord(d.x / n, d.y / n)
        }
        let dirs = ends.map(direction)
        var pairs: [(cos: Double, i: Int, j: Int)] = []
        for i in ends.indices { for j in ends.indices where j > i && keys[ends[i].segment] == keys[ends[j].segment] {
            pairs.append((Planar.dot(dirs[i], dirs[j]), i, j))
        } }
        pairs.sort { ($0.cos, $0.i, $0.j) < ($1.cos, $1.i, $1.j) }
        var taken = Set<Int>()
        for p in pairs where !taken.contains(p.i) && !taken.contains(p.j) {
            taken.formUnion([p.i, p.j])
            partner[ends[p.i]] = ends[p.j]
            partner[ends[p.j]] = ends[p.i]
        }
    }

    private static func points(_ segs: [[Coord]], _ w: Walk) -> [Coord] {
        w.forward ? segs[w.segment] : segs[w.segment].reversed()
    }
}
