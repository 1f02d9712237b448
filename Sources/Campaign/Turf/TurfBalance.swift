import Geo

extension TurfCutter {
    /// Groups still under `lo` after merging take whole units from a neighbouring group that
    /// can spare them: the unit must touch the small group (share a junction with one of its
    /// units), leave its own group at `lo` or more and still connected, and keep the small one
    /// within `hi`. The nearest such unit to the small group's doors goes first; groups are
    /// visited in order, so the result is deterministic. A group stays small only where no
    /// neighbour can spare a unit (an island, or neighbours at the band's floor).
    func rebalanced(_ groups: [[Int]], units: [Unit], near: [[Int]], lo: Double, hi: Double) -> [[Int]] {
        var groups = groups
        var turfOf = [Int](repeating: -1, count: units.count)
        for (g, members) in groups.enumerated() { for u in members { turfOf[u] = g } }
        func size(_ g: Int) -> Int { groups[g].reduce(0) { $0 + units[$1].doors.count } }
        for g in groups.indices {
            while Double(size(g)) < lo {
                let centre = Self.centre(of: groups[g], units)
                let offers = Set(groups[g].flatMap { near[$0] }).filter { u in
                    let h = turfOf[u], n = units[u].doors.count
                    return h != g && Double(size(h) - n) >= lo && Double(size(g) + n) <= hi
                        && Self.connected(groups[h].filter { $0 != u }, near: near)
                }
                guard let u = offers.min(by: {
                    (Self.distance(units[$0].centroid, centre), $0) < (Self.distance(units[$1].centroid, centre), $1)
                }) else { break }
                groups[turfOf[u]].removeAll { $0 == u }
                groups[g].append(u)
                turfOf[u] = g
            }
        }
        return groups
    }

    /// The door-weighted centre of a group's units, metres.
    static func centre(of group: [Int], _ units: [Unit]) -> Coord {
        var x = 0.0, y = 0.0, n = 0.0
        for u in group {
            let k = Double(units[u].doors.count)
            x += units[u].centroid.x * k; y += units[u].centroid.y * k; n += k
        }
        return Coord(x / n, y / n)
    }

    /// Whether the units are one piece over `near`.
    static func connected(_ group: [Int], near: [[Int]]) -> Bool {
        guard let first = group.first else { return false }
        let members = Set(group)
        return reachable(from: first, near: near, in: members).count == members.count
    }

    /// The units reached from `start` over `near` without leaving `members`.
    static func reachable(from start: Int, near: [[Int]], in members: Set<Int>) -> Set<Int> {
        var seen: Set<Int> = [start], stack = [start]
        while let u = stack.popLast() {
            for m in near[u] where members.contains(m) && !seen.contains(m) { seen.insert(m); stack.append(m) }
        }
        return seen
    }
}
