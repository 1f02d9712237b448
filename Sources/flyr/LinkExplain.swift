import Geo

/// `flyr link --explain ID`: each explained address as text (a table of its candidates' cost
/// terms) or as JSON, beside the final link the table holds.
enum LinkExplain {
    static func text(_ e: LinkExplanation, link: Link?) -> String {
        let f = { (v: Double) in LinkTable.format(v, 2) }
        var s = "explain \(e.addressID) (\(e.houseKey.replacingOccurrences(of: "|", with: " ")))"
        if let link { s += ": \(link.method.rawValue) \(link.buildingID ?? "-"), confidence \(LinkTable.format(link.confidence, 3))" }
        if let b = e.covering {
            s += "\n  the footprint \(b) covers the point: decided first"
            guard let c = e.clearance else { return s }
            s += c < Linker.coverClearance ? "; the nearest other footprint it could belong to stands \(f(c)) m away"
                                           : "; no other footprint it could belong to within \(f(Linker.coverClearance)) m"
            return s + (e.freeHomeBeside ? "\n  it holds other numbers of the street, and a home holding none stands within "
                        + "\(f(Linker.coverClearance)) m of it: one of them is likely that home's" : "")
        }
        if let b = e.coveringAtStreetOffset {
            s += "\n  the footprint \(b) covers the point, which stands "
                + (e.offsetReadAround ? "at an offset from its street's line of its own, among covered points of the streets around that share theirs"
                   : e.offsetOfItsOwn ? "at an offset from its street's line of its own, on a street whose other points share one"
                                      : "at the offset from its street's line that the street's other points share")
                + " (a geocoder's): scored with the rest, among the footprints within \(f(Linker.coverClearance)) m"
        }
        if let road = e.road {
            s += "\n  rays start from \(road) (\(e.roadIsOwnStreet ? "its own street" : "the road its street search fell back to")), \(f(e.roadDistance ?? 0)) m away"
        } else {
            s += "\n  no road within the street search: distances only"
        }
        if let side = e.lineSide { s += "\n  the point lies on that road's line; its side read from evidence \(f(side)) m" }
        s += "\n  block face: " + (e.aligned.map { "aligned to \($0)" } ?? "not aligned")
        if let chosen = e.chosen, let cost = e.cost {
            s += "\n  assignment: \(chosen) at \(f(cost)), runner-up \(e.runnerUp.map { $0.isFinite ? f($0) : "none" } ?? "none")"
        }
        s += "\n  building                               distance    ray   turn  number  outbuilding  across  set out  score  order  occupancy  total"
        for c in e.candidates {
            let turn = c.pastStreetEnd ? "end" : c.turnDegrees.map { "\(Int($0.rounded()))°" + (c.facing ? "" : "←") } ?? "-"
            s += "\n  " + [pad(c.buildingID, 38), lpad(f(c.distance), 8), lpad(f(c.ray), 6), lpad(turn, 6),
                           lpad(f(c.numberSpot), 7), lpad(f(c.outbuilding), 12), lpad(f(c.acrossRoad), 7),
                           lpad(f(c.setOut), 8), lpad(f(c.score), 6), lpad(f(c.order), 6), lpad(f(c.occupancy), 10), lpad(f(c.total), 6)].joined(separator: " ")
        }
        return s
    }

    static func json(_ e: LinkExplanation) -> String {
        let f = { (v: Double) in LinkTable.format(v, 3) }
        let q = { (v: String?) in v.map(LinkTable.jsonString) ?? "null" }
        var s = "{\"address_id\":\(q(e.addressID)),\"house_key\":\(q(e.houseKey)),\"covering\":\(q(e.covering)),\"clearance\":\(e.clearance.map(f) ?? "null"),"
            + "\"free_home_beside\":\(e.freeHomeBeside),\"covering_at_street_offset\":\(q(e.coveringAtStreetOffset)),\"offset_of_its_own\":\(e.offsetOfItsOwn),"
            + "\"offset_read_around\":\(e.offsetReadAround),"
        s += "\"road\":\(q(e.road)),\"road_is_own_street\":\(e.roadIsOwnStreet),\"road_distance\":\(e.roadDistance.map(f) ?? "null"),"
        s += "\"line_side\":\(e.lineSide.map(f) ?? "null"),\"aligned\":\(q(e.aligned)),\"chosen\":\(q(e.chosen)),"
        s += "\"cost\":\(e.cost.map(f) ?? "null"),\"runner_up\":\(e.runnerUp.flatMap { $0.isFinite ? f($0) : nil } ?? "null"),\"candidates\":["
        s += e.candidates.map { c in
            "{\"building_id\":\(q(c.buildingID)),\"distance\":\(f(c.distance)),\"ray\":\(f(c.ray)),"
                + "\"turn_degrees\":\(c.turnDegrees.map(f) ?? "null"),\"facing\":\(c.facing),\"number_spot\":\(f(c.numberSpot)),"
                + "\"outbuilding\":\(f(c.outbuilding)),\"across_road\":\(f(c.acrossRoad)),\"set_out\":\(f(c.setOut)),\"score\":\(f(c.score)),"
                + "\"past_street_end\":\(c.pastStreetEnd),\"order\":\(f(c.order)),\"occupancy\":\(f(c.occupancy)),\"total\":\(f(c.total))}"
        }.joined(separator: ",")
        return s + "]}"
    }

    private static func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
    private static func lpad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
}
