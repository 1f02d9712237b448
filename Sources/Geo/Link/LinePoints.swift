/// Points on their road's line, where a street-range geocoder that sets no offset puts them:
/// they tell where along the street a house stands, not on which side, and the rays, the block
/// face and the road between point and house all start from that side. It is read first, from
/// the parity of the numbers (odd and even face each other across a street), and the point is
/// then read a step off the line on that side; its link's distance is still measured from the
/// point as given.
extension LinkWorld {
    /// Nearer its road's line than this (metres), a point gives no direction away from the
    /// street (`scoreNear` reads none), so its side is decided here.
    static let onLine = 0.5
    /// Decides the side of each of `addresses` whose point lies on the line of the road it is
    /// read against (its street, else the road its street search falls back to) and moves it
    /// `LinkWeights.lineStep` off the line to that side (none when that is 0).
    ///
    /// Each such address is scored from the step off the line on either side; the difference of
    /// the two best costs is its evidence. The addresses of its street within
    /// `LinkWeights.sideRadius` add theirs: a point on the line its cost difference, a point off
    /// the line (or in a footprint) the search radius for the side it stands on; the other
    /// parity's count for the other side. The side the sum favours wins, the left on a tie
    /// (`offLine` keeps the sum's size). A decision reads the features within that radius
    /// of the point and what their scoring and street search read around them.
    func placeLinePoints(_ addresses: [Int]) throws {
        let step = options.weights.lineStep
        guard step > 0 else { return }
        var sides: [Int: LineSides] = [:]
        for a in addresses {
            guard let anchor = streetAnchor(a), Planar.length(Planar.sub(points[a], anchor.point)) <= Self.onLine,
                  let n = leftNormal(at: anchor) else { continue }
            let left = Coord(anchor.point.x + n.x * step, anchor.point.y + n.y * step)
            let right = Coord(anchor.point.x - n.x * step, anchor.point.y - n.y * step)
            sides[a] = LineSides(left: left, right: right, normal: n,
                                 leftPreference: try cost(a, from: right) - cost(a, from: left))
        }
        let clues = sideClues(for: Set(sides.keys.compactMap { streetKeys[$0] }), sides: sides)
        readOffLine(sides.keys.sorted().map { a in
            let s = sides[a]!, sum = leftPreference(a, s, clues: clues)
            return (a, sum >= 0 ? s.left : s.right, abs(sum))
        })
    }

    /// What each address of these streets with a number says of the side of its street it
    /// stands on, by street, in address order: a point on the line its cost difference (`sides`),
    /// a point off its street's line the search radius for the side it stands on; with the left
    /// normal of its segment.
    private func sideClues(for keys: Set<String>, sides: [Int: LineSides]) -> [String: [SideClue]] {
        var clues: [String: [SideClue]] = [:]
        guard !keys.isEmpty else { return clues }
        for j in points.indices {
            guard let key = streetKeys[j], keys.contains(key), let m = attrs.numbers[aIdx[j]] else { continue }
            let left: Double, normal: Coord
            if let other = sides[j] {
                (left, normal) = (other.leftPreference, other.normal)
            } else if let anchor = streetAnchor(j), anchor.named, let n = leftNormal(at: anchor) {
                let v = Planar.sub(points[j], anchor.point)
                guard Planar.length(v) > Self.onLine else { continue }
                (left, normal) = (Planar.dot(v, n) > 0 ? options.searchMeters : -options.searchMeters, n)
            } else {
                continue
            }
            clues[key, default: []].append(SideClue(address: j, parity: LinkWorld.parity(m), left: left, normal: normal))
        }
        return clues
    }

    /// How much the evidence around address `a` (on the line, `mine` its sides) favours its
    /// left side; below 0 its right: its own cost difference and the clues of its street within
    /// `LinkWeights.sideRadius`, the other parity's with the sign turned. A clue's left is `a`'s
    /// left unless its segment runs the other way (their normals more than a right angle apart).
    private func leftPreference(_ a: Int, _ mine: LineSides, clues: [String: [SideClue]]) -> Double {
        var total = mine.leftPreference
        guard let key = streetKeys[a], let n = attrs.numbers[aIdx[a]], let street = clues[key] else { return total }
        let p = points[a], r2 = options.weights.sideRadius * options.weights.sideRadius, parity = LinkWorld.parity(n)
        for c in street where c.address != a {
            let v = Planar.sub(points[c.address], p)
            guard Planar.dot(v, v) <= r2 else { continue }
            let d = Planar.dot(c.normal, mine.normal) < 0 ? -c.left : c.left
            total += c.parity == parity ? d : -d
        }
        return total
    }

    /// 0 for an even house number, 1 for an odd one (by its whole part).
    static func parity(_ n: Double) -> Int { Int(n.rounded(.down)) & 1 }

    /// The unit normal to the left of the anchor's segment where the anchor meets it (on the
    /// nearest piece of its line that has a length); nil when the whole line is one point.
    private func leftNormal(at anchor: StreetAnchor) -> Coord? {
        let line = lines[anchor.segment]
        guard let i = Planar.tangentSegment(line, near: anchor.sub) else { return nil }
        let t = Planar.sub(line[i + 1], line[i]), len = Planar.length(t)
        return Coord(-t.y / len, t.x / len)
    }

    /// The best cost of address `a` scored from `p` instead of its point (put back after); with
    /// no footprint in reach, twice the search radius, more than any candidate costs.
    private func cost(_ a: Int, from p: Coord) throws -> Double {
        let kept = points[a]
        points[a] = p
        forgetPlace(a)
        defer { points[a] = kept; forgetPlace(a) }
        return try scoreNear(a).first?.cost ?? 2 * options.searchMeters
    }
}

/// A point on its road's line read a step off it either way (`LinkWorld.placeLinePoints`).
struct LineSides {
    var left: Coord, right: Coord
    /// The unit normal to the left of the road there.
    var normal: Coord
    /// The best cost from the right less the best cost from the left: above 0, the left is cheaper.
    var leftPreference: Double
}

/// What one address says of the side of its street it stands on (`LinkWorld.placeLinePoints`).
struct SideClue {
    var address: Int
    /// 0 even, 1 odd.
    var parity: Int
    /// Above 0 for its segment's left, in metres of cost.
    var left: Double
    /// The unit normal to the left of its segment.
    var normal: Coord
}

/// A point on its road's line read off it (`LinkWorld.placeLinePoints`).
struct OffLine {
    /// The point as given.
    var given: Coord
    /// How strongly the evidence chose its side: the sum weighed, without its sign (metres of cost).
    var evidence: Double
}
