/// A named street between junctions as one line: the segments carrying one street name joined
/// end to end where exactly two of them meet and no other named street does, so a block face
/// is not cut where a footway, a driveway or a converter splits the street into short segments.
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
        var meeting: [Node: [(segment: Int, last: Bool)]] = [:]
        for s in named { for last in [false, true] { meeting[node(s, last: last), default: []].append((s, last)) } }
        // The segment end joined to each end: the other one, when the node holds just two ends
        // of named segments and both are of this street (another named street there: a junction).
        func joined(_ s: Int, last: Bool) -> (segment: Int, last: Bool)? {
            guard let m = meeting[node(s, last: last)], m.count == 2 else { return nil }
            let other = m[0].segment == s && m[0].last == last ? m[1] : m[0]
            return other.segment == s || keys[other.segment] != keys[s] ? nil : other
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

    private static func points(_ segs: [[Coord]], _ w: Walk) -> [Coord] {
        w.forward ? segs[w.segment] : segs[w.segment].reversed()
    }
}
