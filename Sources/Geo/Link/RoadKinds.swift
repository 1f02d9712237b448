/// Which roads the linker reads as streets: those a house can front (the fallback street of an
/// address whose street is not found), and those that stand between a point and a house.
extension LinkWorld {
    /// Roads a house can front: not paths, footways, steps, cycleways, motorways or links.
    static func isFrontageRoad(_ s: Segment) -> Bool {
        if let sub = s.subtype, sub != "road" { return false }
        if s.subclass == "link" { return false }
        switch s.segmentClass {
        case "footway", "path", "steps", "cycleway", "bridleway", "motorway", "sidewalk", "crosswalk": return false
        default: return true
        }
    }

    /// Roads that put a house across from a point (`LinkWeights.acrossRoadPenalty`): every road
    /// a house can front but an unnamed service way. A driveway, a parking aisle or the loop
    /// round a building runs inside a lot or a block: a point on its far side still stands on
    /// the house's own side of its street, and no address is numbered on such a way.
    static func separatesHouses(_ s: Segment, named: Bool) -> Bool {
        isFrontageRoad(s) && (named || s.segmentClass != "service")
    }
}
