import Foundation

/// How sure a link is, from the evidence behind it.
extension Linker {
    /// What the house-number order of the address's block face says of a link.
    enum OrderEvidence { case agrees, none, disagrees }

    /// BUFFER/NEAREST confidence: a distance factor exp(-d/30 m), times a margin factor
    /// 0.5 + 0.5·min(1, (runner-up cost − cost)/10 m), times 1 when a ray from the point away
    /// from its street meets the footprint or 0.85 otherwise (no street; the point behind the
    /// footprint or beside it), times the order factor (1 when the face alignment chose this
    /// footprint, 0.8 without an alignment, 0.6 when it chose another); BUFFER starts at 0.95,
    /// NEAREST at 0.8; at most `outsideCeiling`. Rounded to 3 decimals. Once the tile's links are
    /// made, `streetMismatch` and `sideOfLine` lower it further, and once every tile's,
    /// `divideSharedHomes`.
    static func confidence(method: LinkMethod, distance: Double, cost: Double, runnerUp: Double, directional: Bool,
                           order: OrderEvidence) -> Double {
        let base = method == .buffer ? 0.95 : 0.8
        let margin = runnerUp.isFinite ? 0.5 + 0.5 * min(1, max(0, runnerUp - cost) / 10) : 1
        let ordered = order == .agrees ? 1 : order == .none ? 0.8 : 0.6
        let c = base * exp(-distance / 30) * margin * (directional ? 1 : 0.85) * ordered
        return (min(outsideCeiling, max(0, c)) * 1000).rounded() / 1000
    }

    /// COVERS confidence: 0.5 + 0.5·min(1, clearance / `coverClearance`), times 0.9 when the
    /// footprint was chosen among several covering the point; rounded to 3 decimals. `clearance`
    /// is the point's distance to the nearest other footprint it could belong to
    /// (`LinkWorld.clearance`): a point a hair inside one wall and a hair from the next house's
    /// is as likely that house's, as a geocoder's slide or a parcel's offset leaves it.
    static func coversConfidence(clearance: Double, amongSeveral: Bool) -> Double {
        let c = (0.5 + 0.5 * min(1, max(0, clearance) / coverClearance)) * (amongSeveral ? 0.9 : 1)
        return (c * 1000).rounded() / 1000
    }

    /// Metres from every other home at which a covered point is as sure as COVERS gets: a side
    /// yard's width, the gap between two detached houses.
    public static let coverClearance = 3.0

    /// The most a BUFFER or NEAREST link may claim: under the 0.9 of a point well inside a
    /// footprint chosen among several. A point outside every footprint is a step weaker than one
    /// well inside a footprint, however near it lies; a point centimetres from a wall is as likely
    /// the neighbour's frontage.
    static let outsideCeiling = 0.89

    /// A BUFFER/NEAREST confidence halved for a point another footprint covers
    /// (`LinkWorld.standsAtStreetOffset`): two footprints each hold a claim on it, the one it
    /// stands in and the one it was linked to. Rounded to 3 decimals.
    static func insideAnother(_ c: Double) -> Double { (c / 2 * 1000).rounded() / 1000 }

    /// A BUFFER/NEAREST confidence times 0.8 for a footprint that does not front the address's
    /// named street, rounded to 3 decimals.
    static func streetMismatch(_ c: Double) -> Double { (c * 0.8 * 1000).rounded() / 1000 }

    /// A BUFFER/NEAREST confidence of a point on its road's line (`LinkWorld.placeLinePoints`)
    /// times 0.5 + 0.5·min(1, evidence / radius): the side was chosen by `evidence` metres of
    /// cost, and one point off the line that shows its side counts the search radius. Rounded
    /// to 3 decimals.
    static func sideOfLine(_ c: Double, evidence: Double, radius: Double) -> Double {
        (c * (0.5 + 0.5 * min(1, evidence / max(radius, 1))) * 1000).rounded() / 1000
    }

    /// A BUFFER/NEAREST confidence divided by `numbers`, how many numbers of the address's street
    /// its footprint holds, its own among them (`divideSharedHomes`): one home, that many
    /// numbers, at most one of them its own. Rounded to 3 decimals.
    static func sharedHome(_ c: Double, numbers: Int) -> Double {
        numbers > 1 ? (c / Double(numbers) * 1000).rounded() / 1000 : c
    }

    /// A COVERS confidence times (n − 1)/n, n = `numbers`, how many numbers of the address's
    /// street its footprint holds, where a home holding no number stands beside it: one of the n
    /// is likely that home's. Rounded to 3 decimals.
    static func besideFreeHome(_ c: Double, numbers: Int) -> Double {
        numbers > 1 ? (c * Double(numbers - 1) / Double(numbers) * 1000).rounded() / 1000 : c
    }

    /// Each BUFFER/NEAREST link's confidence divided by how many numbers of its street its
    /// footprint holds among the final links, its own among them (`sharedHome`), and each COVERS
    /// link's where a home holding no number stands beside its footprint (`TileLink.homeBeside`);
    /// not on a footprint whose class says it holds several households. `counts[b]`: the links
    /// to b; `readOn`: the road a number with no street is read on (`TileLinks.readOn`), one of
    /// whose numbers it counts as, as the tile's alignment and assignment read it.
    static func divideSharedHomes(_ links: inout [TileLink?], counts: [Int], readOn: [Int: String], attrs: FeatureAttributes) {
        func key(_ a: Int) -> String { LinkWorld.houseKey(attrs.houseKeys[a], readOn: readOn[a]) }
        var held: [Int: Set<String>] = [:]
        for (a, l) in links.enumerated() {
            if let b = l.map({ Int($0.building) }), b >= 0, counts[b] > 1 { held[b, default: []].insert(key(a)) }
        }
        for a in links.indices {
            guard var l = links[a], l.method == .buffer || l.method == .nearest || l.homeBeside,
                  let keys = held[Int(l.building)], keys.count > 1, !attrs.multiUnitClass[Int(l.building)] else { continue }
            let street = Occupancy.street(of: key(a))
            let numbers = Occupancy.count(on: street, keys)
            l.confidence = l.method == .covers ? besideFreeHome(l.confidence, numbers: numbers) : sharedHome(l.confidence, numbers: numbers)
            links[a] = l
        }
    }
}

extension LinkWorld {
    /// The house keys each footprint holds among the addresses linked so far (`assigned`).
    func heldKeys() -> [Int: Set<String>] {
        var held: [Int: Set<String>] = [:]
        for (a, b) in assigned.enumerated() { if let b { held[b, default: []].insert(houseKey(a)) } }
        return held
    }

    /// The footprints of COVERS links (`covers`: address → footprint) that hold the numbers of
    /// two or more addresses of one street among `assigned` and have a home holding none
    /// within `Linker.coverClearance` of their outline (not a tagged outbuilding, an open
    /// structure or a footprint under `smallFootprint` or `lowHeight`), but for a footprint whose
    /// class says it holds several households: one of those numbers is likely that home's, as
    /// where a geocoder's slide puts a point in the next house of a row.
    func coveringBesideFreeHome(_ covers: [(address: Int, building: Int)]) -> Set<Int> {
        guard !covers.isEmpty else { return [] }
        // Most footprints hold one number or none: the numbers are counted, and their keys
        // gathered only for the footprints holding two or more, all the test asks of them.
        var count = [Int32](repeating: 0, count: buildingBoxes.count)
        for b in assigned { if let b { count[b] += 1 } }
        var keys: [Int: Set<String>] = [:]
        for (a, b) in assigned.enumerated() { if let b, count[b] > 1 { keys[b, default: []].insert(houseKey(a)) } }
        var out = Set<Int>()
        for (a, b) in covers where count[b] > 1 && !out.contains(b) && !attrs.multiUnitClass[bIdx[b]] {
            guard let held = keys[b], Occupancy.count(on: Occupancy.street(of: houseKey(a)), held) > 1 else { continue }
            var free = false
            buildingIndex.forEach(meeting: buildingBoxes[b].expanded(by: Linker.coverClearance)) { k in
                guard !free, k != b, count[k] == 0, !isOutbuilding(k), !attrs.open[bIdx[k]], rings(k).ringCount > 0 else { return }
                free = Planar.distance(rings: rings(b), ringsBox: buildingBoxes[b], line: rings(k)[0],
                                       maxDistance: Linker.coverClearance) != nil
            }
            if free { out.insert(b) }
        }
        return out
    }
}
