/// Where the drawing of a street stops short of its houses. A geocoder interpolating a house
/// number along the street line it knows cannot put a house that stands beyond the line's end
/// anywhere but at that end, so the points of several numbers pile up there: a street cut
/// short by the extract's edge, or one that runs on as a lane past its mapped end. A point
/// within `LinkWeights.endReach` of an end of its street's line (no segment of the street goes on)
/// is read as standing anywhere along the street's straight continuation: a footprint beyond
/// the end costs its distance from that continuation plus `beyondEndCost` per metre along it,
/// so the occupancy costs spread the piled numbers over the houses there, and the face
/// alignment (which places footprints along the continuation too) puts them in number order.
/// Where the pile stands on both sides of a road at the end (the cross street the line ends
/// on), a geocoder's slide has put some of its points across that road from the houses past
/// the end: for a point farther than `LinkWeights.frontYard` from every footprint, a road
/// counts between the continuation and such a house, not between the point and it.
/// A street with no line at all within the street search (one the extract lacks) is read alike:
/// a geocoder falling back to the nearest road puts each number on that road, before wherever
/// its house stands behind it, so a point farther than `LinkWeights.frontYard` from every
/// footprint, whose nearest footprint another street's number takes (it stands at no house of
/// its own), is read as standing anywhere along the straight line from that road through the
/// point (`lostStreet`, `readLostStreets`).
struct StreetEnd {
    /// Which end: 2·chain, plus 1 for the chain's last point; below 0 for the line back from the
    /// road a point of a street with no line stands by (−1 − the address).
    var key: Int
    /// The end of the street's line, and the unit direction the street runs on in (for a street
    /// with no line, the point's foot on the road it stands by, and the way from there to the point).
    var origin: Coord
    var dir: Coord
}

extension LinkWorld {
    /// The open end of the address's own street its point lies at, if any: the nearer end when
    /// both are within reach.
    func streetEnd(_ a: Int) -> StreetEnd? {
        let reach = options.weights.endReach
        guard reach > 0, let here = placeOnStreet(a) else { return nil }
        let s = here.chain, line = streetChains.lines[s], length = streetChains.lengths[s]
        var found: (gap: Double, end: StreetEnd)? = nil
        for last in [false, true] {
            let gap = last ? length - here.along : here.along
            guard abs(gap) <= reach, found.map({ abs(gap) < abs($0.gap) }) ?? true, isOpenEnd(chain: s, last: last, street: streetKeys[a]) else { continue }
            let end = last ? line[line.count - 1] : line[0]
            // The direction over the line's last stretch of a few metres, not its last part
            // alone (a converter may leave a stub of centimetres there).
            var from = end
            for i in 1..<line.count {
                from = line[last ? line.count - 1 - i : i]
                if Planar.length(Planar.sub(end, from)) >= Self.endStretch { break }
            }
            let v = Planar.sub(end, from), len = Planar.length(v)
            guard len > 0 else { continue }
            found = (gap, StreetEnd(key: 2 * s + (last ? 1 : 0), origin: end, dir: Coord(v.x / len, v.y / len)))
        }
        return found?.end
    }

    /// The line back from the road the point stands by, for an address whose street has no line
    /// within the street search and whose point stands farther than `frontYard` from every
    /// footprint of `near` (its scored candidates, the nearest among them); nil otherwise, on the
    /// road's line, for a point set out from its house (`LinkWorld.chargeSetOut`), or with
    /// `endReach` 0 (the reading of a street's end off too).
    func lostStreet(_ a: Int, near: [Candidate]) -> StreetEnd? {
        let w = options.weights
        guard w.endReach > 0, streetKeys[a] != nil, let anchor = streetAnchor(a), !anchor.named,
              near.allSatisfy({ $0.distance > w.frontYard }), !near.contains(where: \.setOutBefore) else { return nil }
        let v = Planar.sub(points[a], anchor.point), len = Planar.length(v)
        guard len > LinkWorld.onLine else { return nil }
        return StreetEnd(key: -1 - a, origin: anchor.point, dir: Coord(v.x / len, v.y / len))
    }

    /// Scores along the line back from its road (`lostStreet`, `beyond`) each pending address of a
    /// street with no line whose nearest footprint another street's number takes first (the best
    /// footprint of a pending address, or the footprint of a covered one): the house before the
    /// point is another street's, so its own stands elsewhere behind the road. A point whose
    /// nearest footprint no other street claims may stand at its own house, a few metres off.
    func readLostStreets(_ pending: inout [(address: Int, scored: [Candidate])], covered: [(address: Int, building: Int)]) throws {
        // Most tiles hold no such point: the footprints' takers are gathered only for those that do.
        let lost = pending.indices.compactMap { k in lostStreet(pending[k].address, near: pending[k].scored).map { (k, $0) } }
        guard !lost.isEmpty else { return }
        var takenBy = firstChoices(pending)
        for c in covered { takenBy[c.building, default: []].insert(streetKeys[c.address] ?? "") }
        for (k, line) in lost {
            let a = pending[k].address, own = streetKeys[a] ?? ""
            guard let nearest = pending[k].scored.min(by: { ($0.distance, buildingRank($0.building)) < ($1.distance, buildingRank($1.building)) }),
                  takenBy[nearest.building]?.contains(where: { $0 != own }) == true else { continue }
            pending[k].scored = try beyond(a, line, pending[k].scored)
        }
    }

    /// True when the numbers at this street end are piled: at least three house numbers of the
    /// street have their points at it, twice as many as the footprints nearest those points.
    /// Points placed at their own houses stand each by its own footprint, or by a building of
    /// several households (`mayHoldSeveral`), which does not count; a pile of numbers by one or
    /// two footprints is what a geocoder leaves where the line it follows stops. A pile whose
    /// points a road separates is noted in `straddledEnds`.
    func isPiled(_ end: StreetEnd, street: String?) throws -> Bool {
        if let known = piledEnds[end.key] { return known }
        let r = options.searchMeters, e = end.origin
        var numbers = Set<String>(), nearest = Set<Int>(), at: [Coord] = []
        for j in addressIndex.query(BBox(around: e, radius: r))
        where streetKeys[j] == street && attrs.numbers[aIdx[j]] != nil && streetEnd(j)?.key == end.key {
            let best = footprints(near: points[j], within: r).min {
                $0.distance != $1.distance ? $0.distance < $1.distance : buildingRank($0.building) < buildingRank($1.building)
            }
            // A number before a building of several households (within a front yard of it, and
            // not at the offset a geocoder gives its street) stands at its own house, as its
            // neighbours do there: it is no part of a pile.
            if let best, best.distance <= options.weights.frontYard, mayHoldSeveral(best.building),
               !standsAtStreetOffset(j) { continue }
            numbers.insert(houseKey(j))
            at.append(points[j])
            if let best { nearest.insert(best.building) }
        }
        let piled = numbers.count >= 3 && numbers.count >= 2 * nearest.count
        piledEnds[end.key] = piled
        if piled, try straddles(at) { straddledEnds.insert(end.key) }
        return piled
    }

    /// True when a road separates two of these points (any two, so the answer does not depend on
    /// their order).
    private func straddles(_ at: [Coord]) throws -> Bool {
        for i in at.indices {
            for j in at.indices where j > i {
                if try crossesRoad(at[i], at[j]) { return true }
            }
        }
        return false
    }

    /// The stretch of line that gives a street end its direction (metres).
    static let endStretch = 10.0

    /// True when no other segment of the chain's street comes within a centimetre of its end:
    /// the street's drawing stops there (at a cross street, or nowhere).
    func isOpenEnd(chain s: Int, last: Bool, street: String?) -> Bool {
        let key = 2 * s + (last ? 1 : 0)
        if let known = openEnds[key] { return known }
        let line = streetChains.lines[s], e = last ? line[line.count - 1] : line[0], t = StreetChains.snap
        var open = true
        for g in segmentIndex.query(BBox(around: e, radius: t))
        where segmentKeys[g] == street && streetChains.chainOf[g] != s {
            if let c = Planar.closestOnLine(e, lines[g]), c.distance <= t { open = false; break }
        }
        openEnds[key] = open
        return open
    }

    /// The candidates of an address at a piled street end, or of a point of a street with no line
    /// (see `StreetEnd`), the best first: `near` (scored from the point), with the footprints along
    /// the line from `end` over the street search radius at their cost from it when that is lower.
    func beyond(_ a: Int, _ end: StreetEnd, _ near: [Candidate]) throws -> [Candidate] {
        let w = options.weights, p = points[a], r = options.searchMeters
        let far = Coord(end.origin.x + end.dir.x * options.streetSearchMeters, end.origin.y + end.dir.y * options.streetSearchMeters)
        let on = [end.origin, far], o = end.origin
        var out = near
        var at: [Int: Int] = [:]
        for (k, c) in near.enumerated() { at[c.building] = k }
        let lost = straddledEnds.contains(end.key) && near.allSatisfy { $0.distance > w.frontYard }
        let corridor = BBox(minX: min(o.x, far.x) - r, minY: min(o.y, far.y) - r, maxX: max(o.x, far.x) + r, maxY: max(o.y, far.y) + r)
        for b in buildingIndex.query(corridor) {
            guard let lateral = Planar.distance(rings: rings(b), ringsBox: buildingBoxes[b], line: on, maxDistance: r) else { continue }
            let along = Planar.dot(Planar.sub(try centre(b), end.origin), end.dir)
            var cost = lateral + w.beyondEndCost * max(0, along) + outbuildingCost(b)
            if let k = at[b], out[k].cost <= cost { continue }
            // Where the pile stands on both sides of a road at the end (a cross street), a footprint
            // past the end is reached along the continuation: a road counts between it and the
            // continuation, not between it and the point.
            let from = along > 0 && lost ? Coord(o.x + end.dir.x * along, o.y + end.dir.y * along) : p
            if try crossesRoad(from, Planar.closestPoint(on: rings(b), to: from), clear: Self.laneHalfWidth) { cost += w.acrossRoadPenalty }
            if let k = at[b] {
                if cost < out[k].cost { out[k].cost = cost; out[k].pastEnd = true; out[k].annex = 0 }
            } else {
                out.append(Candidate(building: b, distance: Planar.distance(from: p, toRings: rings(b)), cost: cost, directional: false,
                                     pastEnd: true))
            }
        }
        sortByCost(&out)
        guard let best = out.first?.cost else { return [] }
        return out.filter { $0.cost <= best + w.reach }
    }
}
