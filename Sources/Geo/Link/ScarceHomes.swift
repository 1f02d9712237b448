/// Small footprints in a row where the homes are too few for the households. A footprint under
/// `LinkWeights.smallFootprint` is more often a garage or a shed than a home where houses have
/// yards: there the footprints of a home's size around it are about as many as the households
/// (the distinct house numbers) around it. In an old town of shophouses, or a terrace of
/// cottages, the households outnumber those footprints and the small ones stand in the rows
/// between them, wall to wall. Counted on the truth tables of Queens, macau, wuerzburg and the
/// -nodes areas, an untagged footprint under 50 m² holds a number 989 times out of 1,058 where
/// it stands so (households within `scarceRadius` at least `scarceShare` times the larger
/// footprints there, and at least `rowNeighbours` footprints within `partyWall` of its outline),
/// and 490 times out of 13,961 elsewhere. There neither its size nor a larger home beside it
/// (`annexCost`) makes an outbuilding of it; its tags and its height still do. A garage court's
/// row stands where the homes around are enough, and a lone shed has no row.
extension LinkWorld {
    /// How far around a footprint's middle households and homes are counted (metres): a block's
    /// depth either way, a few houses along the street.
    static let scarceRadius = 50.0
    /// How many households per footprint of a home's size make homes scarce: half again as
    /// many, clear of the one household per house of a street of houses with garages.
    static let scarceShare = 1.5
    /// How near two outlines stand when they share a wall (metres): the gap mapping leaves.
    static let partyWall = 0.3
    /// How many footprints a footprint shares walls with in a row: one on each side.
    static let rowNeighbours = 2

    /// True when footprint `b` stands in a row (`standsInRow`) and the distinct house numbers of
    /// the addresses within `scarceRadius` of its middle (its box's; points as given) number at
    /// least `scarceShare` times the footprints there, `b` left out, that are neither tagged as
    /// outbuildings nor under `LinkWeights.smallFootprint` (their boxes' middles within it).
    /// Read once per footprint.
    func homesScarce(_ b: Int) -> Bool {
        if let known = scarceHomes[b] { return known }
        guard standsInRow(b) else { scarceHomes[b] = false; return false }
        let r = Self.scarceRadius, mid = middle(buildingBoxes[b])
        var homes = 0
        buildingIndex.forEach(meeting: BBox(around: mid, radius: r)) { k in
            if k != b, !attrs.outbuilding[bIdx[k]], areas[k] >= options.weights.smallFootprint,
               Planar.length(Planar.sub(middle(buildingBoxes[k]), mid)) <= r { homes += 1 }
        }
        // A point read off its road's line moved at most `onLine` to the line and `lineStep` off
        // it; the index may hold it moved.
        var households = Set<String>()
        addressIndex.forEach(meeting: BBox(around: mid, radius: r + Self.onLine + options.weights.lineStep)) { j in
            if Planar.length(Planar.sub(givenPoint(j), mid)) <= r { households.insert(attrs.houseKeys[aIdx[j]]) }
        }
        let scarce = Double(households.count) >= Self.scarceShare * Double(max(homes, 1))
        scarceHomes[b] = scarce
        return scarce
    }

    /// True when at least `rowNeighbours` other footprints come within `partyWall` of footprint
    /// `b`'s outline.
    func standsInRow(_ b: Int) -> Bool {
        var walls = 0
        let mine = rings(b)
        buildingIndex.forEach(meeting: buildingBoxes[b].expanded(by: Self.partyWall)) { k in
            if k != b, walls < Self.rowNeighbours, Self.within(mine, rings(k), Self.partyWall) { walls += 1 }
        }
        return walls >= Self.rowNeighbours
    }

    /// True when two footprints' outlines come within `d` of each other: a vertex of one within
    /// `d` of the other's rings (one inside the other is not asked).
    static func within(_ a: RingsView, _ b: RingsView, _ d: Double) -> Bool {
        for ring in a { for v in ring where Planar.distance(from: v, toRings: b) <= d { return true } }
        for ring in b { for v in ring where Planar.distance(from: v, toRings: a) <= d { return true } }
        return false
    }

    private func middle(_ box: BBox) -> Coord { Coord((box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2) }
}
