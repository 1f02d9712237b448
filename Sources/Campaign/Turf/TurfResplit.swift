import Geo

extension TurfCutter {
    /// Groups still outside [`lo`, `hi`] after merging and rebalancing are pooled with one or
    /// two neighbouring groups and the pool is cut afresh into as many groups (or fewer),
    /// every one within the band and in one piece. Each unit of a pool is first taken as
    /// `refine` gives it: itself, or its finer units (a quiet street's two faces). Of the cuts
    /// found, the most compact wins (`partition`). Neighbours are tried nearest first; a
    /// group with no cut in reach stays as it is. Deterministic. `units` and `near` cover the
    /// finer units too; groups are returned without empties.
    func resplit(_ groups: [[Int]], units: [Unit], near: [[Int]], lo: Double, hi: Double, refine: (Int) -> [Int] = { [$0] }) -> [[Int]] {
        var groups = groups
        var turfOf = [Int](repeating: -1, count: units.count)
        for (g, members) in groups.enumerated() { for u in members { turfOf[u] = g } }
        func size(_ g: Int) -> Int { groups[g].reduce(0) { $0 + units[$1].doors.count } }
        func inBand(_ n: Int) -> Bool { Double(n) >= lo && Double(n) <= hi }
        func touching(_ members: [Int]) -> [Int] {
            Array(Set(members.flatMap { near[$0] }.map { turfOf[$0] })).filter { $0 >= 0 }.sorted()
        }
        for g in groups.indices where !groups[g].isEmpty && !inBand(size(g)) {
            let centre = Self.centre(of: groups[g], units)
            func byDistance(_ gs: [Int]) -> [Int] {
                gs.map { (Self.distance(Self.centre(of: groups[$0], units), centre), $0) }.sorted { $0 < $1 }.map(\.1)
            }
            let first = byDistance(touching(groups[g]).filter { $0 != g })
            var pools = first.map { [g, $0] }
            for h in first {
                for k in byDistance(touching(groups[g] + groups[h]).filter { $0 != g && $0 != h }) where !pools.contains([g, k, h]) {
                    pools.append([g, h, k])
                }
            }
            var budget = Self.partitionBudget
            search: for pool in pools {
                let members = pool.flatMap { groups[$0].flatMap(refine) }.sorted()
                for count in stride(from: pool.count, through: 1, by: -1) {
                    guard let parts = partition(members, into: count, units: units, near: near, lo: lo, hi: hi, anchor: refine(groups[g][0])[0], budget: &budget)?.parts else { continue }
                    for (k, part) in zip(pool, parts + Array(repeating: [], count: pool.count - parts.count)) {
                        groups[k] = part
                        for u in part { turfOf[u] = k }
                    }
                    break search
                }
            }
        }
        return groups.filter { !$0.isEmpty }
    }

    /// Neighbours (`near`), with each piece of the network holding fewer than `lo` doors (too
    /// few for a turf of its own), smallest first, joined to the unit outside it with the
    /// nearest door, however far, until none is left or all is one piece: a few doors on a
    /// campus road are better walked with the nearest turf than as a turf of their own.
    func bridged(_ near: [[Int]], units: [Unit], lo: Double) -> [[Int]] {
        var near = near
        var unitsOf = [[Int]](repeating: [], count: points.count)
        for (u, unit) in units.enumerated() { for d in unit.doors { unitsOf[d].append(u) } }
        let grid = DoorGrid(points: points, keep: { !unitsOf[$0].isEmpty })
        var all = BBox.empty
        for (d, p) in points.enumerated() where !unitsOf[d].isEmpty { all.expand(p) }
        let everything = max(all.maxX - all.minX, all.maxY - all.minY) + DoorGrid.cell
        while true {
            var piece = [Int](repeating: -1, count: units.count)
            var pieces: [[Int]] = []
            for start in units.indices where piece[start] < 0 {
                var stack = [start], members: [Int] = []
                piece[start] = pieces.count
                while let u = stack.popLast() {
                    members.append(u)
                    for m in near[u] where piece[m] < 0 { piece[m] = pieces.count; stack.append(m) }
                }
                pieces.append(members.sorted())
            }
            // The smallest piece under `lo` first; pieces joined so far count as one.
            func doors(_ k: Int) -> Int { pieces[k].reduce(0) { $0 + units[$1].doors.count } }
            guard pieces.count > 1, let k = pieces.indices.filter({ Double(doors($0)) < lo }).min(by: { (doors($0), $0) < (doors($1), $1) }) else { return near }
            // The nearest door outside, searched in a box round the piece's doors grown until
            // it holds one no farther than the growth (so nothing nearer lies outside it).
            var area = BBox.empty
            for a in pieces[k] { for p in units[a].doors { area.expand(points[p]) } }
            var best: (d: Double, a: Int, b: Int)?
            var reach = DoorGrid.cell
            while true {
                for d in grid.doors(near: area.expanded(by: reach)) {
                    for b in unitsOf[d] where piece[b] != k {
                        for a in pieces[k] {
                            for p in units[a].doors {
                                let m = Self.distance(points[p], points[d])
                                if best == nil || (m, a, b) < (best!.d, best!.a, best!.b) { best = (m, a, b) }
                            }
                        }
                    }
                }
                if let best, best.d <= reach { break }
                if reach > everything { break }
                reach *= 2
            }
            guard let best else { return near }
            near[best.a].append(best.b); near[best.b].append(best.a)
        }
    }

    /// `near` with each group made one piece: where a group's growth crossed a gap in the
    /// network, its parts are joined at their nearest units (centre to centre), as its walk
    /// crosses there.
    static func joiningParts(of groups: [[Int]], _ near: [[Int]], units: [Unit]) -> [[Int]] {
        var near = near
        for group in groups {
            while true {
                let seen = reachable(from: group[0], near: near, in: Set(group))
                guard seen.count < group.count else { break }
                var best: (d: Double, a: Int, b: Int)?
                for a in group where seen.contains(a) {
                    for b in group where !seen.contains(b) {
                        let d = distance(units[a].centroid, units[b].centroid)
                        if best == nil || (d, a, b) < (best!.d, best!.a, best!.b) { best = (d, a, b) }
                    }
                }
                near[best!.a].append(best!.b); near[best!.b].append(best!.a)
            }
        }
        return near
    }

    /// Units a canvasser walks between without passing a door: those sharing a junction, and
    /// those joined by roads with no doors of their own within `reach` metres.
    func walkNeighbours(_ units: [Unit], reach: Double) -> [[Int]] {
        var unitsOn: [Int: [Int]] = [:]
        for (u, unit) in units.enumerated() { unitsOn[unit.piece, default: []].append(u) }
        var atNode: [Int: [Int]] = [:]
        for (k, p) in faces.pieces.enumerated() {
            atNode[p.from, default: []].append(k)
            if p.to != p.from { atNode[p.to, default: []].append(k) }
        }
        let length = faces.pieces.map { p in zip(p.line, p.line.dropFirst()).reduce(0) { $0 + Self.distance($1.0, $1.1) } }
        var out = [Set<Int>](repeating: [], count: units.count)
        for (u, unit) in units.enumerated() {
            let start = faces.pieces[unit.piece]
            var best: [Int: Double] = [:]
            best[start.from] = 0; best[start.to] = 0
            var queue: [(d: Double, node: Int)] = [(0, start.from), (0, start.to)]
            while let i = queue.indices.min(by: { (queue[$0].d, queue[$0].node) < (queue[$1].d, queue[$1].node) }) {
                let (d, node) = queue.remove(at: i)
                guard d <= best[node] ?? .infinity else { continue }
                for k in atNode[node] ?? [] {
                    if let others = unitsOn[k] { for v in others where v != u { out[u].insert(v) }; continue }
                    let p = faces.pieces[k], next = p.from == node ? p.to : p.from, e = d + length[k]
                    if e <= reach, e < best[next] ?? .infinity { best[next] = e; queue.append((e, next)) }
                }
            }
        }
        return out.map { $0.sorted() }
    }

    /// How many units the search for one small turf's cut may look at.
    static let partitionBudget = 4_000_000

    /// `members` cut into `count` groups within [`lo`, `hi`], each one piece; nil when none is
    /// found. The group holding `anchor` (else the first member) is every piece round it, each
    /// tried once, smallest first; the rest is cut the same way. Of the cuts found, the one
    /// with the least spread wins (ties: the first found). The search stops when `budget`
    /// (units looked at) runs out.
    func partition(_ members: [Int], into count: Int, units: [Unit], near: [[Int]], lo: Double, hi: Double,
                   anchor: Int? = nil, budget: inout Int) -> (spread: Double, parts: [[Int]])? {
        let total = members.reduce(0) { $0 + units[$1].doors.count }
        guard budget > 0, Double(total) >= lo * Double(count), Double(total) <= hi * Double(count) else { return nil }
        if count == 1 { return Self.connected(members, near: near) ? (Self.spread(of: members, units), [members]) : nil }
        // Local numbering: k is members[k].
        budget -= members.count
        var local: [Int: Int] = [:]
        for (k, u) in members.enumerated() { local[u] = k }
        let links = members.map { u in near[u].compactMap { local[$0] } }
        let size = members.map { units[$0].doors.count }
        var inPart = [Bool](repeating: false, count: members.count), onFrontier = inPart
        var barred = [Int](repeating: 0, count: members.count)
        var best: (spread: Double, parts: [[Int]])?
        func consider(_ part: [Int], _ n: Int) {
            let restSize = Double(total - n)
            guard Double(n) >= lo, restSize >= lo * Double(count - 1), restSize <= hi * Double(count - 1) else { return }
            let rest = members.indices.filter { !inPart[$0] }.map { members[$0] }
            guard let others = partition(rest, into: count - 1, units: units, near: near, lo: lo, hi: hi, budget: &budget) else { return }
            let group = part.map { members[$0] }.sorted()
            let spread = Self.spread(of: group, units) + others.spread
            if best == nil || spread < best!.spread { best = (spread, [group] + others.parts) }
        }
        // Each connected piece holding the first unit once: grow by a frontier unit, barring
        // the frontier units before it for the rest of that branch.
        func grow(_ part: [Int], _ n: Int, frontier: [Int]) {
            budget -= members.count
            consider(part, n)
            var barredHere: [Int] = []
            for (i, w) in frontier.enumerated() where budget > 0 {
                let m = n + size[w]
                if Double(m) <= hi {
                    inPart[w] = true
                    let added = links[w].filter { !inPart[$0] && barred[$0] == 0 && !onFrontier[$0] }
                    for x in added { onFrontier[x] = true }
                    grow(part + [w], m, frontier: Array(frontier[(i + 1)...]) + added)
                    for x in added { onFrontier[x] = false }
                    inPart[w] = false
                }
                barred[w] += 1
                barredHere.append(w)
            }
            for w in barredHere { barred[w] -= 1 }
        }
        let first = anchor.flatMap { local[$0] } ?? members.indices.min { members[$0] < members[$1] }!
        inPart[first] = true
        let frontier = links[first].filter { $0 != first }
        for x in frontier { onFrontier[x] = true }
        grow([first], size[first], frontier: frontier)
        return best
    }

    /// Door-weighted squared distance of a group's units to its centre, m².
    static func spread(of group: [Int], _ units: [Unit]) -> Double {
        let c = centre(of: group, units)
        return group.reduce(0) { s, u in
            let d = distance(units[u].centroid, c)
            return s + Double(units[u].doors.count) * d * d
        }
    }
}

extension TurfCutter {
    /// `units` followed by the faces of its both-sides units (each side with doors a unit of
    /// its own), and the map from a unit to its faces (itself when it has none).
    func withFaces(_ units: [Unit]) -> (units: [Unit], refine: (Int) -> [Int]) {
        var all = units
        var faces: [Int: [Int]] = [:]
        for (u, unit) in units.enumerated() where unit.side == 0 {
            for side in [1, -1] {
                let doors = unit.doors.filter { places[$0]!.side == side }
                guard !doors.isEmpty, doors.count < unit.doors.count else { continue }
                faces[u, default: []].append(all.count)
                all.append(Unit(piece: unit.piece, side: side, doors: doors, centroid: Self.centre(of: doors, points)))
            }
        }
        return (all, { faces[$0] ?? [$0] })
    }

    /// The mean of the doors' points, metres.
    static func centre(of doors: [Int], _ points: [Coord]) -> Coord {
        let s = doors.reduce(Coord(0, 0)) { Coord($0.x + points[$1].x, $0.y + points[$1].y) }
        return Coord(s.x / Double(doors.count), s.y / Double(doors.count))
    }
}
