import Testing
@testable import Geo

/// Builds features from WKT in metres east/north of a point in Queens, so each case reads
/// as a small drawing.
struct Scene {
    static let origin = Coord(-73.74, 40.72)
    let ctx = GEOSContext()
    let proj = try! Projection.localMetric(around: Scene.origin)
    var buildings: [Building] = []
    var addresses: [Address] = []
    var segments: [Segment] = []

    func degrees(_ c: [Coord]) -> [Coord] { var c = c; try! proj.inverse(&c); return c }

    mutating func building(_ id: String, _ wkt: String, subtype: String? = nil, class cls: String? = nil, height: Double? = nil) {
        let g = try! Geometry.fromWKT(ctx, wkt)
        let parts = g.polygons().map { PolygonCoords(rings: $0.rings.map(degrees)) }
        buildings.append(Building(id: id, polygons: parts, height: height, subtype: subtype, buildingClass: cls))
    }
    mutating func address(_ id: String, _ x: Double, _ y: Double, number: String = "1", street: String? = "Main Street", unit: String? = nil) {
        addresses.append(Address(id: id, point: degrees([Coord(x, y)])[0], number: number, street: street, unit: unit))
    }
    mutating func road(_ id: String, _ wkt: String, name: String?, class cls: String = "residential", names: String? = nil) {
        let g = try! Geometry.fromWKT(ctx, wkt)
        segments.append(Segment(id: id, line: degrees(g.lineCoords()), subtype: "road", segmentClass: cls, name: name, namesJSON: names))
    }
    /// Houses 10 m wide along Main Street from x = 0, fronts at `front`, odd numbers from 1 each
    /// at `offsets[k]` from the street's line (y = 0), in the middle of its house's width; ids
    /// the number after `buildings` and after `addresses`.
    mutating func row(front: Double, offsets: [Double], buildings prefix: String, addresses own: String = "") {
        for (k, y) in offsets.enumerated() {
            let x = 10 * Double(k), n = "\(2 * k + 1)"
            building(prefix + n, "POLYGON((\(x) \(front),\(x + 10) \(front),\(x + 10) \(front + 10),\(x) \(front + 10),\(x) \(front)))")
            address(own + n, x + 5, y, number: n)
        }
    }
    func link(_ options: LinkerOptions = .init()) throws -> LinkResult {
        try Linker(options: options).link(buildings: buildings, addresses: addresses, segments: segments)
    }
    /// Linked with one weight changed.
    func link(_ weight: WritableKeyPath<LinkWeights, Double>, _ value: Double) throws -> LinkResult {
        var o = LinkerOptions()
        o.weights[keyPath: weight] = value
        return try link(o)
    }
}

extension LinkResult {
    func link(_ address: String) -> Link { links.first { $0.addressID == address }! }
}

@Suite struct LinkerTests {
    @Test func pointOnTheEdgeIsCovered() throws {
        var s = Scene()
        s.building("b1", "POLYGON((0 0,10 0,10 10,0 10,0 0))")
        s.address("a1", 10, 5)
        let l = try s.link().link("a1")
        #expect(l.method == .covers && l.buildingID == "b1" && l.distance == 0 && l.confidence == 1)
    }

    /// A museum mapped inside the outline of its complex shares the complex's front wall: a
    /// point before that wall is as near to both, to the centimetre. The outline is no other
    /// house; the building inside it is the address's, whatever the ids' order.
    @Test func aPointBeforeABuildingInsideAnOutlineTakesTheBuilding() throws {
        var s = Scene()
        s.road("main", "LINESTRING(-20 0,60 0)", name: "Main Street")
        s.building("a-outline", "POLYGON((0 5,40 5,40 30,0 30,0 5))")
        s.building("b-museum", "POLYGON((0 5,25 5,25 20,0 20,0 5))")
        s.address("1", 12, 2)
        let l = try s.link().link("1")
        #expect(l.buildingID == "b-museum" && l.method == .buffer && abs(l.distance - 3) < 0.01)
    }

    /// A covered point's confidence falls with its clearance from the next home: 0.5 + 0.5 ×
    /// min(1, clearance / 3 m); a tagged garage nearer still is no home it could belong to.
    @Test func aCoveredPointNearTheNextHouseIsLessSure() throws {
        var s = Scene()
        s.building("west", "POLYGON((0 0,10 0,10 10,0 10,0 0))")
        s.building("east", "POLYGON((11.5 0,21.5 0,21.5 10,11.5 10,11.5 0))")   // 1.5 m beyond west's wall
        s.building("shed", "POLYGON((4 -0.7,6 -0.7,6 -0.2,4 -0.2,4 -0.7))", subtype: "outbuilding", class: "shed")
        s.address("wall", 9.5, 5)    // 2 m from east
        s.address("middle", 5, 5)    // 6.5 m from east
        s.address("gap", 10.75, 5)   // on no footprint
        let r = try s.link()
        #expect(r.link("wall").method == .covers && r.link("wall").buildingID == "west")
        #expect(abs(r.link("wall").confidence - 0.833) < 1e-9, "\(r.link("wall").confidence)")
        #expect(r.link("middle").confidence == 1)
        #expect(r.link("gap").method != .covers)
        s.address("edge", 4.5, 0.1)  // 0.3 m from the shed, 5 m from east
        #expect(try s.link().link("edge").confidence == 1)
    }

    /// Two numbers of one street covered by one footprint with a home holding none 1.5 m
    /// beside it: one of the two is likely that home's, so each confidence is times
    /// (2 − 1) / 2. Not where that home holds a number, is a shed by its size, stands over
    /// 3 m away, or where the two numbers are of two streets.
    @Test func twoNumbersCoveredBesideAFreeHomeAreLessSure() throws {
        func scene(east: String = "POLYGON((11.5 0,21.5 0,21.5 10,11.5 10,11.5 0))", second: String = "Main Street",
                   eastNumber: Bool = false) -> Scene {
            var s = Scene()
            s.building("west", "POLYGON((0 0,10 0,10 10,0 10,0 0))")
            s.building("east", east)
            s.address("1", 3, 5, number: "1")   // 8.5 m from east: clearance beyond 3 m
            s.address("3", 6, 5, number: "3", street: second)
            if eastNumber { s.address("5", 16, 5, number: "5") }
            return s
        }
        var o = LinkerOptions()
        o.explain = ["1"]
        let r = try scene().link(o)
        #expect(r.link("1").method == .covers && r.link("1").buildingID == "west" && r.link("3").buildingID == "west")
        #expect(r.link("1").confidence == 0.5 && r.link("3").confidence == 0.5)
        #expect(r.explanations.first?.freeHomeBeside == true)
        #expect(try scene(eastNumber: true).link().link("1").confidence == 1)
        #expect(try scene(east: "POLYGON((11.5 0,17.5 0,17.5 6,11.5 6,11.5 0))").link().link("1").confidence == 1)
        // 2.5 m past each of west's walls, 3.5 m from its corner.
        #expect(try scene(east: "POLYGON((12.5 12.5,22.5 12.5,22.5 22.5,12.5 22.5,12.5 12.5))").link().link("1").confidence == 1)
        #expect(try scene(second: "Oak Street").link().link("1").confidence == 1)
    }

    /// A geocoder sets every number of a street at one offset from its line. In a row of houses
    /// on the street, 3's point slid 1 m past the party wall into 5's house, and 1's stands 1 m
    /// inside its own: each is scored with the rest among the footprints within 3 m, so 3 goes
    /// next door (BUFFER) and 1 keeps its house (COVERS). Among points at offsets of their own,
    /// as rooftop points stand, 3's point stays 5's house's. 3's confidence is halved: the house
    /// its point stands in holds a claim on it too.
    @Test func aCoveredPointAtItsStreetsGeocoderOffsetIsScoredWithTheRest() throws {
        func scene(offsets: [Double]) -> Scene {
            var s = Scene()
            s.road("main", "LINESTRING(-20 0,60 0)", name: "Main Street")
            for (k, x) in [0.0, 10, 20, 30].enumerated() {
                s.building("h\(2 * k + 1)", "POLYGON((\(x) 5,\(x + 10) 5,\(x + 10) 15,\(x) 15,\(x) 5))")
            }
            for (k, x) in [9.0, 21, 25, 35].enumerated() { s.address("\(2 * k + 1)", x, offsets[k], number: "\(2 * k + 1)") }
            return s
        }
        var o = LinkerOptions()
        o.explain = ["3"]
        let r = try scene(offsets: [7, 7, 7, 7]).link(o)
        #expect(r.link("3").buildingID == "h3" && r.link("3").method == .buffer && r.link("3").distance == 1)
        #expect(r.link("3").confidence > 0 && r.link("3").confidence <= Linker.outsideCeiling / 2)  // 5's house holds a claim too
        #expect(r.link("1").buildingID == "h1" && r.link("1").method == .covers && r.link("1").distance == 0)
        #expect(r.link("5").buildingID == "h5" && r.link("5").method == .covers)
        #expect(r.explanations.first?.coveringAtStreetOffset == "h5")
        let rooftops = try scene(offsets: [7.3, 7, 9.6, 8.2]).link(o)
        #expect(rooftops.link("3").buildingID == "h5" && rooftops.link("3").method == .covers)
        #expect(rooftops.explanations.first?.coveringAtStreetOffset == nil)
    }

    /// The same row, the geocoder's four points among five rooftop points of the street, each
    /// at an offset of its own a metre or so off its house's middle: fewer than half of 3's
    /// neighbours share its offset, and it is still read as a geocoder's.
    @Test func aGeocodersCoveredPointIsReadAmongRooftops() throws {
        var s = Scene()
        s.road("main", "LINESTRING(-20 0,90 0)", name: "Main Street")
        for (k, x) in [0.0, 10, 20, 30].enumerated() {
            s.building("h\(2 * k + 1)", "POLYGON((\(x) 5,\(x + 10) 5,\(x + 10) 15,\(x) 15,\(x) 5))")
            s.address("\(2 * k + 1)", [9.0, 21, 25, 35][k], 7, number: "\(2 * k + 1)")
        }
        for (k, y) in [8.3, 11.6, 9.1, 12.4, 10.7].enumerated() {
            let x = 40 + 7 * Double(k)
            s.building("h\(2 * k + 9)", "POLYGON((\(x) 5,\(x + 7) 5,\(x + 7) 15,\(x) 15,\(x) 5))")
            s.address("\(2 * k + 9)", x + 2.5, y, number: "\(2 * k + 9)")
        }
        var o = LinkerOptions()
        o.explain = ["3"]
        let r = try s.link(o)
        #expect(r.explanations.first?.coveringAtStreetOffset == "h5" && r.explanations.first?.offsetOfItsOwn == false)
        #expect(r.link("3").buildingID == "h3" && r.link("9").buildingID == "h9" && r.link("9").method == .covers)
    }

    /// A geocoder's slides crossed two neighbours' points over their party wall: 3's point
    /// stands a metre into 5's house and 5's a metre into 3's. With the number's spot not
    /// counted, each point's own costs keep it in the house it stands in; the face's order of
    /// numbers says the two crossed, and each takes its own house.
    @Test func twoGeocodersPointsCrossedOverAPartyWallTakeTheirOwnHouses() throws {
        var s = Scene()
        s.road("main", "LINESTRING(-20 0,60 0)", name: "Main Street")
        for (k, x) in [0.0, 10, 20, 30].enumerated() {
            s.building("h\(2 * k + 1)", "POLYGON((\(x) 5,\(x + 10) 5,\(x + 10) 15,\(x) 15,\(x) 5))")
        }
        for (k, x) in [5.0, 21, 19, 35].enumerated() { s.address("\(2 * k + 1)", x, 7, number: "\(2 * k + 1)") }
        var o = LinkerOptions()
        o.weights.numberOrderCost = 0  // the points' own costs alone, as where neighbours' points say little
        let r = try s.link(o)
        #expect(r.link("3").buildingID == "h3" && r.link("3").method == .buffer && r.link("3").distance == 1)
        #expect(r.link("5").buildingID == "h5" && r.link("5").method == .buffer && r.link("5").distance == 1)
        #expect(r.link("1").buildingID == "h1" && r.link("7").buildingID == "h7")
    }

    /// Where two houses stand nearer the line than a geocoder's offset, it sets their points
    /// nearer too, each at an offset of its own; 11's point, slid a metre past the party wall,
    /// stands in 9's house. The street's other points share an offset, so the street is read as
    /// a geocoder's and 11 is scored with the rest: it goes next door (BUFFER). Among rooftop
    /// points, at offsets of their own, it stays in the house it stands in.
    @Test func aCoveredPointOffItsGeocodersOffsetIsReadByItsStreet() throws {
        func scene(offsets: [Double]) -> Scene {
            var s = Scene()
            s.road("main", "LINESTRING(-20 0,80 0)", name: "Main Street")
            s.row(front: 5, offsets: offsets, buildings: "h")
            s.building("h9", "POLYGON((40 2,50 2,50 12,40 12,40 2))")
            s.building("h11", "POLYGON((50 2,60 2,60 12,50 12,50 2))")
            s.address("9", 44, 4, number: "9")
            s.address("11", 49, 4.5, number: "11")
            return s
        }
        var o = LinkerOptions()
        o.explain = ["11"]
        let r = try scene(offsets: [7, 7, 7, 7]).link(o)
        #expect(r.explanations.first?.coveringAtStreetOffset == "h9" && r.explanations.first?.offsetOfItsOwn == true)
        #expect(r.link("11").buildingID == "h11" && r.link("11").method == .buffer && r.link("11").distance == 1)
        #expect(r.link("9").buildingID == "h9" && r.link("9").method == .covers)
        let rooftops = try scene(offsets: [7.3, 8.8, 9.6, 8.2]).link(o)
        #expect(rooftops.explanations.first?.coveringAtStreetOffset == nil)
        #expect(rooftops.link("11").buildingID == "h9" && rooftops.link("11").method == .covers)
    }

    /// A lane holds two numbers, too few to show a geocoder's work. Main Street's points stand
    /// in its houses at one offset from its line, as a geocoder sets them; so lane number 3,
    /// slid half a metre over the party wall into 1's house, is read by the streets around and
    /// goes next door (BUFFER). Where Main Street's points are rooftops, at offsets of their
    /// own, it stays in the house it stands in.
    @Test func aLanesCoveredPointIsReadByTheStreetsAround() throws {
        func scene(offsets: [Double]) -> Scene {
            var s = Scene()
            s.road("main", "LINESTRING(-20 0,90 0)", name: "Main Street")
            s.road("lane", "LINESTRING(72 0,72 40)", name: "Lane")
            s.row(front: 2, offsets: offsets, buildings: "m", addresses: "m")
            s.building("l1", "POLYGON((74 10,84 10,84 20,74 20,74 10))")
            s.building("l3", "POLYGON((74 20,84 20,84 30,74 30,74 20))")
            s.address("1", 80, 13, number: "1", street: "Lane")
            s.address("3", 79, 19.5, number: "3", street: "Lane")
            return s
        }
        var o = LinkerOptions()
        o.explain = ["3"]
        let r = try scene(offsets: [4, 4, 4, 4, 4, 4, 4]).link(o)
        #expect(r.explanations.first?.coveringAtStreetOffset == "l1" && r.explanations.first?.offsetReadAround == true)
        #expect(r.link("3").buildingID == "l3" && r.link("3").method == .buffer && abs(r.link("3").distance - 0.5) < 0.01)
        #expect(r.link("1").buildingID == "l1" && r.link("1").method == .covers)
        let rooftops = try scene(offsets: [4, 4.3, 5.1, 3.6, 4.8, 5.5, 4.4]).link(o)
        #expect(rooftops.explanations.first?.coveringAtStreetOffset == nil)
        #expect(rooftops.link("3").buildingID == "l1" && rooftops.link("3").method == .covers)
    }

    /// Label points of a row of like houses 5 m wide share an offset from the street, each
    /// 2.5 m from the next house: standing at their footprints' middles, they were given for
    /// their houses, and each is linked COVERS, decided first.
    @Test func labelPointsOfARowAreNotAGeocoders() throws {
        var s = Scene()
        s.road("main", "LINESTRING(-20 0,60 0)", name: "Main Street")
        for k in 0..<5 {
            let x = 5 * Double(k)
            s.building("h\(k)", "POLYGON((\(x) 5,\(x + 5) 5,\(x + 5) 15,\(x) 15,\(x) 5))")
            s.address("a\(k)", x + 2.5, 10, number: "\(2 * k + 1)")
        }
        s.address("b", 11.5, 10, number: "11")  // a metre off h2's middle, at the same offset
        var o = LinkerOptions()
        o.explain = ["a2", "b"]
        let r = try s.link(o)
        #expect((0..<5).allSatisfy { r.link("a\($0)").buildingID == "h\($0)" && r.link("a\($0)").method == .covers })
        #expect(r.explanations.first { $0.addressID == "a2" }?.coveringAtStreetOffset == nil)
        #expect(r.explanations.first { $0.addressID == "b" }?.coveringAtStreetOffset == "h2")
    }

    @Test func pointInACourtyardHoleIsNotCovered() throws {
        var s = Scene()
        s.building("ring", "POLYGON((0 0,30 0,30 30,0 30,0 0),(10 10,20 10,20 20,10 20,10 10))")
        s.address("a1", 15, 15)
        let l = try s.link().link("a1")
        #expect(l.method == .buffer && l.buildingID == "ring")
        #expect(abs(l.distance - 5) < 0.01)
    }

    @Test func overlapsPreferTheMainBuildingThenTheNearestCentre() throws {
        var s = Scene()
        s.building("big", "POLYGON((0 0,40 0,40 40,0 40,0 0))")
        s.building("small", "POLYGON((5 5,15 5,15 15,5 15,5 5))")
        s.building("garage", "POLYGON((6 6,9 6,9 9,6 9,6 6))", subtype: "outbuilding", class: "garage")
        s.address("a1", 7, 7)
        s.address("a2", 30, 30)
        let r = try s.link()
        #expect(r.link("a1").buildingID == "small")
        #expect(r.link("a1").confidence == 0.9)   // chosen among several covering footprints
        #expect(r.link("a2").buildingID == "big")
    }

    /// A tower drawn over its podium: a point in the podium's middle is the podium's, though
    /// the smaller tower covers it too; a point in the tower's middle is the tower's.
    @Test func aPointInTheMiddleOfOneOfTwoOverlappingFootprintsIsThatOnes() throws {
        var s = Scene()
        s.building("podium", "POLYGON((0 0,40 0,40 20,0 20,0 0))")
        s.building("tower", "POLYGON((14 6,34 6,34 18,14 18,14 6))")
        s.address("a1", 20, 10, number: "1")
        s.address("a2", 24, 12, number: "3")
        let r = try s.link()
        #expect(r.link("a1").buildingID == "podium" && r.link("a1").method == .covers)
        #expect(r.link("a2").buildingID == "tower" && r.link("a2").confidence <= 0.9)
    }

    /// A point at a footprint's label point (GEOS point on surface: on a triangle, not its
    /// centroid) is that footprint's, though another covering it has its centre nearer.
    @Test func aPointAtOneFootprintsLabelPointIsThatOnes() throws {
        var s = Scene()
        s.building("wedge", "POLYGON((0 0,30 0,0 30,0 0))")   // centroid (10, 10), label point (7.5, 15)
        s.building("block", "POLYGON((4.5 9,16.5 9,16.5 21,4.5 21,4.5 9))")   // centre (10.5, 15)
        s.address("a1", 7.5, 15)
        s.address("a2", 10.5, 14)
        let r = try s.link()
        #expect(r.link("a1").buildingID == "wedge" && r.link("a1").method == .covers)
        #expect(r.link("a2").buildingID == "block")
    }

    @Test func aCoveredPointGoesToTheHouseOverAFootprintTooSmallForAHome() throws {
        var s = Scene()
        s.building("house", "POLYGON((0 0,8 0,8 10,0 10,0 0))")
        s.building("porch", "POLYGON((2 -2,6 -2,6 3,2 3,2 -2))")   // 20 m2, no class, overlapping the house
        s.address("a1", 4, 1)
        #expect(try s.link().link("a1").buildingID == "house")
        #expect(try s.link(\.smallFootprint, 0).link("a1").buildingID == "porch")   // else the smaller footprint
    }

    @Test func outbuildingBesideAHouseLosesToTheHouse() throws {
        var s = Scene()
        s.road("r", "LINESTRING(-50 0,50 0)", name: "Main Street")
        s.building("house", "POLYGON((0 12,10 12,10 24,0 24,0 12))")
        s.building("garage", "POLYGON((11 8,15 8,15 12,11 12,11 8))", class: "garage")
        s.address("a1", 9, 6)   // frontage point, nearer the garage corner
        let l = try s.link().link("a1")
        #expect(l.buildingID == "house")
        #expect(l.streetMatch)
    }

    @Test func aFootprintTooSmallForAHomeIsAnOutbuildingWithoutAClass() throws {
        var s = Scene()
        s.road("r", "LINESTRING(-50 0,50 0)", name: "Main Street")
        s.building("house", "POLYGON((0 12,10 12,10 24,0 24,0 12))")
        s.building("shed", "POLYGON((6 6,10 6,10 10,6 10,6 6))")   // 16 m2 in the front yard, no class
        s.address("a1", 7, 4)   // geocoder-style point, in front of the shed
        #expect(try s.link().link("a1").buildingID == "house")
        #expect(try s.link(\.smallFootprint, 0).link("a1").buildingID == "shed")
    }

    /// A footprint of 64 m² in the front yard, its tags silent, too large for a garage by its size
    /// and over half the house's area: the point a metre before it takes it, 5 m nearer than the
    /// house behind, unless its measured height (3 m) says it is no home (6 m more). With no
    /// height (none, or 0), or one of a storey and a roof, it stays a home.
    @Test func aFootprintTooLowForAHomeIsAnOutbuildingWithoutAClass() throws {
        func linked(height: Double?, lowHeight: Double = LinkWeights().lowHeight) throws -> String? {
            var s = Scene()
            s.road("r", "LINESTRING(-50 0,50 0)", name: "Main Street")
            s.building("house", "POLYGON((-6 9,6 9,6 19,-6 19,-6 9))")   // 120 m2
            s.building("low", "POLYGON((-8 4,8 4,8 8,-8 8,-8 4))", height: height)   // 64 m2, a carport row
            s.address("a1", 0, 3)
            return try s.link(\.lowHeight, lowHeight).link("a1").buildingID
        }
        #expect(try linked(height: 3) == "house")
        #expect(try linked(height: nil) == "low")
        #expect(try linked(height: 0) == "low")   // no measure
        #expect(try linked(height: 6.5) == "low")
        #expect(try linked(height: 3, lowHeight: 0) == "low")
    }

    /// Two numbers before one footprint of 176 m² with no class (a pair of semi-detached houses
    /// drawn as one), and a footprint of 63 m² standing 23 m behind the second, its tags silent:
    /// as a home, it takes that number rather than the pair's second household (20 m). Under
    /// half the pair's area, it is the pair's garage or shed and costs 6 m more, so both numbers
    /// stay on the pair; beside a pair of 112 m² (under twice its size), or with
    /// `annexFootprint` at 50 m², it is a home again.
    @Test func aFootprintUnderHalfTheHomeItStandsByIsThatHomesOutbuilding() throws {
        func linked(pairDepth: Double, _ weight: WritableKeyPath<LinkWeights, Double> = \.annexShare,
                    _ value: Double = 0.5) throws -> [String?] {
            var s = Scene()
            s.road("r", "LINESTRING(-60 0,60 0)", name: "Main Street")
            s.building("pair", "POLYGON((-8 6,8 6,8 \(6 + pairDepth),-8 \(6 + pairDepth),-8 6))")
            s.building("shed", "POLYGON((0 27,7 27,7 36,0 36,0 27))")
            s.address("a1", -4, 4, number: "1")
            s.address("a3", 4, 4, number: "3")
            let r = try s.link(weight, value)
            return [r.link("a1").buildingID, r.link("a3").buildingID]
        }
        #expect(try linked(pairDepth: 11) == ["pair", "pair"])
        #expect(try linked(pairDepth: 11, \.annexShare, 0) == ["pair", "shed"])
        #expect(try linked(pairDepth: 7) == ["pair", "shed"])
        #expect(try linked(pairDepth: 11, \.annexFootprint, 50) == ["pair", "shed"])
    }

    /// A garage by its tag costs more than a footprint by its size alone: a point a metre before a
    /// tagged garage in front of its house goes to the house 9 m on, one a metre before an
    /// untagged footprint of that size takes the footprint (6 m, a garage's width, is less than
    /// the 8 m more to the house).
    @Test func aTaggedGarageCostsMoreThanAFootprintBySizeAlone() throws {
        func linked(class cls: String?) throws -> String? {
            var s = Scene()
            s.road("r", "LINESTRING(-50 0,50 0)", name: "Main Street")
            s.building("house", "POLYGON((-6 12,6 12,6 24,-6 24,-6 12))")
            s.building("garage", "POLYGON((-2.5 4,2.5 4,2.5 9,-2.5 9,-2.5 4))", class: cls)   // 25 m2
            s.address("a1", 0, 3)
            return try s.link().link("a1").buildingID
        }
        #expect(try linked(class: "garage") == "house")
        #expect(try linked(class: nil) == "garage")
    }

    @Test func equalDistancesGoToTheBuildingBehindThePoint() throws {
        var s = Scene()
        s.road("r", "LINESTRING(-50 0,50 0)", name: "Main Street")
        s.building("left", "POLYGON((-12 10,-2 10,-2 20,-12 20,-12 10))")
        s.building("right", "POLYGON((2 10,12 10,12 20,2 20,2 10))")
        s.building("behind", "POLYGON((-1.5 9,1.5 9,1.5 30,-1.5 30,-1.5 9))")
        s.address("a1", 0, 5)
        #expect(try s.link().link("a1").buildingID == "behind")
    }

    /// Thirty houses 12 m apart numbered as they were built, in no order along the street, each
    /// point slid up to 6 m along the street as a geocoder slides it: the order says nothing here
    /// and is not read, so each point goes to its own house. Read anyway, it pulls some to a
    /// neighbour.
    @Test func numbersInNoOrderAlongTheStreetAreNotRead() throws {
        var s = Scene()
        s.road("r", "LINESTRING(-50 0,400 0)", name: "Main Street")
        var g = SeededRandom(seed: 1)
        for (k, n) in (1...30).map({ 2 * $0 - 1 }).shuffled(using: &g).enumerated() {
            let x = Double(12 * k)
            s.building("h\(k)", "POLYGON((\(x) 14,\(x + 9) 14,\(x + 9) 24,\(x) 24,\(x) 14))")
            s.address("a\(k)", x + 4.5 + Double(g.next() % 1000) / 1000 * 12 - 6, 5, number: "\(n)")
        }
        let misses = { (r: LinkResult) in (0..<30).filter { r.link("a\($0)").buildingID != "h\($0)" }.count }
        #expect(misses(try s.link()) == 0)
        #expect(misses(try s.link(\.orderAgreement, 0)) > 0)
    }

    @Test func buildingAcrossTheStreetIsNotTaken() throws {
        var s = Scene()
        s.road("r", "LINESTRING(-50 0,50 0)", name: "Main Street")
        s.building("across", "POLYGON((-5 -9,5 -9,5 -19,-5 -19,-5 -9))")
        s.building("own", "POLYGON((-5 14,5 14,5 24,-5 24,-5 14))")
        s.address("a1", 0, 5)   // 9 m from its own house, 14 m from the house across the street
        #expect(try s.link().link("a1").buildingID == "own")
    }

    /// A lane's line drawn 0.4 m from a house's front: a door point a metre before the house
    /// stands 0.6 m past the line, and the house is its own, not across the lane from it (3 m to
    /// the house behind the point). Where the line runs 2.5 m from the front, a road lies between
    /// them, and the house 5 m behind the point is taken over the one 3.1 m across it.
    @Test func aLaneLineDrawnOnTheHouseFrontsPutsNoHouseAcrossIt() throws {
        func linked(front: Double, behind: Double) throws -> String? {
            var s = Scene()
            s.road("r", "LINESTRING(-50 0,50 0)", name: "Beco da Ostra")
            s.building("lane", "POLYGON((-3 \(front),3 \(front),3 \(front + 8),-3 \(front + 8),-3 \(front)))")
            s.building("behind", "POLYGON((-3 \(-behind),3 \(-behind),3 \(-behind - 8),-3 \(-behind - 8),-3 \(-behind)))")
            s.address("a1", 0, -0.6, street: "Beco da Ostra")
            return try s.link().link("a1").buildingID
        }
        #expect(try linked(front: 0.4, behind: 3.6) == "lane")
        #expect(try linked(front: 2.5, behind: 5.6) == "behind")
    }

    @Test func oneHousePerSingleFamilyFootprint() throws {
        var s = Scene()
        s.road("r", "LINESTRING(-50 0,50 0)", name: "Main Street")
        // Attached pair sharing the wall x=0; both points in front of the shared corner.
        s.building("west", "POLYGON((-6 10,0 10,0 20,-6 20,-6 10))")
        s.building("east", "POLYGON((0 10,6 10,6 20,0 20,0 10))")
        s.building("west2", "POLYGON((-20 10,-14 10,-14 20,-20 20,-20 10))")
        s.building("east2", "POLYGON((14 10,20 10,20 20,14 20,14 10))")
        s.address("a1", 0, 5, number: "12")
        s.address("a2", 0, 7, number: "14")
        s.address("a0", -17, 5, number: "10")
        s.address("a3", 17, 5, number: "16")
        let r = try s.link()
        #expect(r.link("a1").buildingID == "west")
        #expect(r.link("a2").buildingID == "east")
        #expect(r.buildings.allSatisfy { $0.addressCount == 1 && !$0.isMultiUnit })
    }

    @Test func multiUnitBuildingHoldsSeveralAddresses() throws {
        var s = Scene()
        s.building("apts", "POLYGON((0 0,30 0,30 20,0 20,0 0))")
        s.address("u1", 5, 5, number: "100", unit: "1")
        s.address("u2", 10, 5, number: "100", unit: "2")
        s.address("u3", 15, 5, number: "102")
        let r = try s.link()
        #expect(Set(["u1", "u2", "u3"].map { r.link($0).buildingID }) == ["apts"])
        let b = r.buildings.first { $0.buildingID == "apts" }!
        #expect(b.addressCount == 3 && b.isMultiUnit)
    }

    /// A block of flats drawn as one untagged footprint (360 m²) holds numbers 1 and 3, whose
    /// entrances' points stand before it; 5 and 7 stand before the next two houses. The face's
    /// alignment lets 1 and 3 share the block, at what the assignment charges a second household
    /// there: a footprint of `sharedFootprint` (300 m²) or more may hold several households.
    /// Under it, the block holds one household in the alignment, which leaves 1 or 3 out.
    @Test func aLargeFootprintMayHoldASecondNumberOfItsFace() throws {
        var s = Scene()
        s.road("r", "LINESTRING(-20 0,100 0)", name: "Main Street")
        s.building("block", "POLYGON((0 -5,30 -5,30 -17,0 -17,0 -5))")
        for (id, x) in [("b", 34.0), ("c", 48.0)] {
            s.building(id, "POLYGON((\(x) -5,\(x + 10) -5,\(x + 10) -17,\(x) -17,\(x) -5))")
        }
        for (n, x) in [("1", 8.0), ("3", 22.0), ("5", 39.0), ("7", 53.0)] { s.address("n" + n, x, -3, number: n) }
        var o = LinkerOptions()
        o.explain = ["n1", "n3"]
        let shared = try s.link(o)
        #expect(shared.explanations.map(\.aligned) == ["block", "block"])
        #expect(["n1", "n3", "n5", "n7"].map { shared.link($0).buildingID } == ["block", "block", "b", "c"])
        o.weights.sharedFootprint = 400
        let single = try s.link(o)
        #expect(single.explanations.filter { $0.aligned == "block" }.count == 1)
    }

    /// Two footprints side by side (wall x=0) and a point in front of their shared corner,
    /// 6 m from both; `east` covers the points of `covered` (street, number).
    func cornerScene(covered: [(String, String)], eastClass: String? = nil) throws -> Link {
        var s = Scene()
        s.road("r", "LINESTRING(-50 0,50 0)", name: "Main Street")
        s.road("cross", "LINESTRING(60 -50,60 50)", name: "Cross Street")
        s.building("west", "POLYGON((-20 6,0 6,0 30,-20 30,-20 6))")
        s.building("east", "POLYGON((0 6,20 6,20 30,0 30,0 6))", class: eastClass)
        for (i, c) in covered.enumerated() { s.address("c\(i)", 5 + 4 * Double(i), 20, number: c.1, street: c.0) }
        s.address("a", 0, 0.01, number: "34")
        return try s.link().link("a")
    }

    @Test func aSecondNumberOfAStreetPaysForTheFootprintHoldingOne() throws {
        #expect(try cornerScene(covered: [("Main Street", "36")]).buildingID == "west")
        // A class that says units (apartments) is no sign of several numbers.
        #expect(try cornerScene(covered: [("Main Street", "36")], eastClass: "apartments").buildingID == "west")
        // A corner building's number on each of its streets is no sign of several either.
        #expect(try cornerScene(covered: [("Main Street", "36"), ("Cross Street", "2")]).buildingID == "west")
    }

    @Test func aFootprintCoveringTwoNumbersOfOneStreetPaysForAThird() throws {
        // With nothing covered the tie at the corner goes east (the smaller id), the side a
        // held number pushes the address off; two held numbers of the street push it off too:
        // what a footprint covers is what it holds, not a sign that it holds any number more.
        #expect(try cornerScene(covered: []).buildingID == "east")
        #expect(try cornerScene(covered: [("Main Street", "36"), ("Main Street", "38")]).buildingID == "west")
    }

    @Test func aRoofIsAnOutbuilding() {
        let footprint = Footprint([PolygonCoords(rings: [[Coord(0, 0), Coord(1, 0), Coord(1, 1), Coord(0, 0)]])])
        #expect(Building(id: "r", footprint: footprint, buildingClass: "roof").isOutbuilding)
        #expect(!Building(id: "h", footprint: footprint, buildingClass: "house").isOutbuilding)
    }

    /// A point under a canopy (a roof on posts) beside a house is the house's, by BUFFER; a
    /// point under a canopy with nothing else near is the canopy's, by BUFFER too (never COVERS).
    @Test func aRoofOnPostsCoversNoAddress() throws {
        var s = Scene()
        s.building("house", "POLYGON((0 0,10 0,10 10,0 10,0 0))")
        s.building("canopy", "POLYGON((10.5 0,14 0,14 10,10.5 10,10.5 0))", class: "roof")
        s.building("lone", "POLYGON((200 0,204 0,204 10,200 10,200 0))", class: "roof")
        s.address("under", 11, 5)
        s.address("alone", 202, 5)
        let r = try s.link()
        #expect(r.link("under").method == .buffer && r.link("under").buildingID == "house")
        #expect(r.link("alone").method == .buffer && r.link("alone").buildingID == "lone" && r.link("alone").distance == 0)
    }

    @Test func nothingWithinReachIsReportedWithTheNearestThree() throws {
        var s = Scene()
        for i in 0..<4 { s.building("b\(i)", "POLYGON((\(100 + 20 * i) 0,\(110 + 20 * i) 0,\(110 + 20 * i) 10,\(100 + 20 * i) 10,\(100 + 20 * i) 0))") }
        s.address("far", 0, 5)
        let r = try s.link()
        #expect(r.link("far").method == .none && r.link("far").buildingID == nil)
        let near = r.unmatched["far"]!
        #expect(near.map(\.buildingID) == ["b0", "b1", "b2"])
        #expect(abs(near[0].distance - 100) < 0.05)
        #expect(r.orphanBuildings == 4)
    }

    /// Addresses kilometres from every footprint (an address extract wider than the buildings')
    /// still get their nearest three, found by a widening search rather than a scan of all.
    @Test func farAddressesGetTheirNearestThreeAtAnyDistance() throws {
        var s = Scene()
        for i in 0..<60 {
            let x = 1000 + 20 * i
            s.building("b\(i < 10 ? "0" : "")\(i)", "POLYGON((\(x) 0,\(x + 10) 0,\(x + 10) 10,\(x) 10,\(x) 0))")
        }
        s.address("west", 0, 5)
        s.address("east", 4000, 5)
        s.address("north", 1595, 6000)
        let r = try s.link()
        #expect(r.unmatched["west"]!.map(\.buildingID) == ["b00", "b01", "b02"])
        #expect(abs(r.unmatched["west"]![0].distance - 1000) < 0.5)
        #expect(r.unmatched["east"]!.map(\.buildingID) == ["b59", "b58", "b57"])
        #expect(r.unmatched["north"]!.map(\.buildingID) == ["b29", "b30", "b28"])
        #expect(r.unmatched["north"]!.map(\.distance) == r.unmatched["north"]!.map(\.distance).sorted())
    }

    @Test func streetMismatchIsRecorded() throws {
        var s = Scene()
        s.road("r", "LINESTRING(-50 0,50 0)", name: "Oak Avenue")
        s.building("b", "POLYGON((-5 8,5 8,5 18,-5 18,-5 8))")
        s.address("a", 0, 12, street: "Elm Street")
        s.address("c", 1, 12, number: "1", street: "OAK AVE.")
        let r = try s.link()
        #expect(!r.link("a").streetMatch)
        #expect(r.link("c").streetMatch)
    }

    /// An address naming its street in another language (a name the road carries in
    /// `names.common`) is read against that road, not against the nearer cross street: its rays
    /// run north from Oak Avenue to the house behind the point, where rays from Elm Street would
    /// run west to the house beside it.
    @Test func aStreetNamedInAnotherLanguageIsItsRoad() throws {
        func linked(names: String?) throws -> Link {
            var s = Scene()
            s.road("oak", "LINESTRING(-50 0,50 0)", name: "Oak Avenue", names: names)
            s.road("elm", "LINESTRING(30 -50,30 50)", name: "Elm Street")
            s.building("north", "POLYGON((17 20,27 20,27 30,17 30,17 20))")
            s.building("west", "POLYGON((5 7,13 7,13 17,5 17,5 7))")
            s.address("a", 22, 12, street: "Eichenallee")
            return try s.link().link("a")
        }
        let other = try linked(names: #"{"primary":"Oak Avenue","common":{"de":"Eichenallee"}}"#)
        #expect(other.buildingID == "north")
        #expect(other.streetMatch)
        let without = try linked(names: nil)
        #expect(without.buildingID == "west")
        #expect(!without.streetMatch)
    }

    @Test func bufferAndNearestTiersFollowTheDistance() throws {
        var s = Scene()
        s.building("b", "POLYGON((0 0,10 0,10 10,0 10,0 0))")
        s.address("near", 15, 5)
        s.address("mid", 35, 5)
        s.address("out", 10 + LinkerOptions().searchMeters + 10, 5)  // 10 m beyond the radius
        let r = try s.link()
        #expect(r.link("near").method == .buffer)
        #expect(r.link("mid").method == .nearest && r.link("mid").buildingID == "b")
        #expect(r.link("out").method == .none)
        #expect(r.link("near").confidence > r.link("mid").confidence)
    }

    /// Two numbers of one street on one home: at most one is its own, so each link's confidence
    /// is halved; not on a footprint whose class holds several households, nor for units of one
    /// number (one household).
    @Test func numbersSharingAHomeHalveTheirConfidence() throws {
        func scene(class cls: String?, second: (number: String, unit: String?)) throws -> LinkResult {
            var s = Scene()
            s.road("r", "LINESTRING(-20 0,140 0)", name: "Main Street")
            s.building("h1", "POLYGON((0 10,10 10,10 20,0 20,0 10))", class: cls)
            s.building("h2", "POLYGON((100 10,110 10,110 20,100 20,100 10))")
            s.address("a", 5, 5, number: "1")
            s.address("b", 5.5, 5, number: second.number, unit: second.unit)
            s.address("c", 105, 5, number: "5")
            return try s.link()
        }
        let house = try scene(class: nil, second: ("3", nil))
        #expect(house.link("a").buildingID == "h1" && house.link("b").buildingID == "h1")
        let alone = house.link("c").confidence
        // Whichever the alignment gives the house, neither link claims more than half.
        for id in ["a", "b"] { #expect(house.link(id).confidence <= Linker.sharedHome(alone, numbers: 2)) }
        for cls in ["apartments", "semidetached_house"] { #expect(try scene(class: cls, second: ("3", nil)).link("a").confidence == alone) }
        // `residential` names a use, not several households: two numbers still share one home.
        let residential = try scene(class: "residential", second: ("3", nil))
        for id in ["a", "b"] { #expect(residential.link(id).confidence <= Linker.sharedHome(alone, numbers: 2)) }
        #expect(try scene(class: nil, second: ("1", "B")).link("a").confidence == alone)
        #expect(Linker.sharedHome(0.8, numbers: 1) == 0.8 && Linker.sharedHome(0.8, numbers: 3) == 0.267)
    }

    /// A point a hair outside its footprint, with every piece of evidence for it, still ranks
    /// under a covered one, even one chosen among several footprints (0.9).
    @Test func aPointOutsideEveryFootprintStaysUnderCoversConfidence() {
        for method in [LinkMethod.buffer, .nearest] {
            let c = Linker.confidence(method: method, distance: 0, cost: 0, runnerUp: .infinity, directional: true, order: .agrees)
            #expect(c < 0.9 && c >= 0.8)
        }
        #expect(Linker.confidence(method: .buffer, distance: 3, cost: 0, runnerUp: 20, directional: true, order: .agrees)
                > Linker.confidence(method: .buffer, distance: 6, cost: 0, runnerUp: 20, directional: true, order: .agrees))
    }

    @Test func invalidFootprintIsRepairedAndCounted() throws {
        var s = Scene()
        s.building("bow", "POLYGON((0 0,10 10,10 0,0 10,0 0))")
        s.address("a", 8, 5)
        let r = try s.link()
        #expect(r.repairedFootprints == 1)
        #expect(r.link("a").method == .covers)
    }

    @Test func shuffledInputGivesIdenticalOutput() throws {
        var s = Scene()
        s.road("r", "LINESTRING(-100 0,100 0)", name: "Main Street")
        for i in 0..<12 {
            let x = Double(i * 8 - 48)
            s.building("b\(i)", "POLYGON((\(x) 10,\(x + 8) 10,\(x + 8) 20,\(x) 20,\(x) 10))")
            s.address("a\(i)", x + (i % 2 == 0 ? 0 : 8), 5 + Double(i % 3), number: "\(100 + 2 * i)")
        }
        let reference = LinkTable.csv(try s.link())
        var rng = SeededRandom(seed: 7)
        for _ in 0..<5 {
            var t = s
            t.buildings.shuffle(using: &rng)
            t.addresses.shuffle(using: &rng)
            t.segments.shuffle(using: &rng)
            #expect(LinkTable.csv(try t.link()) == reference)
        }
    }

    /// The linker's tiles are numbered by cell in a dense table, or in a dictionary when that
    /// table would be too large; both keep what is set, and nothing else, at any cell.
    @Test func cellTableDenseAndSparseKeepTheSameEntries() {
        var rng = SeededRandom(seed: 11)
        for (lo, hi) in [(TileGrid.Cell(i: -3, j: -2), TileGrid.Cell(i: 40, j: 25)),
                         (TileGrid.Cell(i: -5000, j: -3000), TileGrid.Cell(i: 5000, j: 3000))] {
            var table = TileGrid.CellTable(lo: lo, hi: hi)
            #expect(table.dense.isEmpty == ((hi.i - lo.i + 1) * (hi.j - lo.j + 1) > TileGrid.CellTable.denseLimit))
            var reference: [TileGrid.Cell: Int] = [:]
            for n in 0..<300 {
                let c = TileGrid.Cell(i: Int(rng.next() % UInt64(hi.i - lo.i + 1)) + lo.i,
                                      j: Int(rng.next() % UInt64(hi.j - lo.j + 1)) + lo.j)
                table[c] = n
                reference[c] = n
            }
            for (c, n) in reference { #expect(table[c] == n) }
            for _ in 0..<300 {
                let c = TileGrid.Cell(i: Int(rng.next() % UInt64(hi.i - lo.i + 3)) + lo.i - 1,
                                      j: Int(rng.next() % UInt64(hi.j - lo.j + 3)) + lo.j - 1)
                #expect(table[c] == reference[c], "cell \(c)")
            }
        }
    }

    /// Address attributes worked out ahead (as the CLI does while the buildings are read) give
    /// the same links, street matches and ties included.
    @Test func workersAndTileEdgesDoNotChangeTheLinks() throws {
        // Two rows of houses along a street, cut into 40 m tiles shared out among the workers.
        var s = Scene()
        s.road("r", "LINESTRING(-200 0,200 0)", name: "Main Street")
        for i in 0..<30 {
            let x = Double(i * 9 - 135), north = i % 2 == 0
            let y0 = north ? 8.0 : -18.0
            s.building("b\(i)", "POLYGON((\(x) \(y0),\(x + 8) \(y0),\(x + 8) \(y0 + 10),\(x) \(y0 + 10),\(x) \(y0)))")
            s.address("a\(i)", x + 4 + Double(i % 5) - 2, north ? 4 : -4, number: "\(100 + i)")
        }
        var one = LinkerOptions(), many = LinkerOptions()
        one.workers = 1
        many.workers = 3
        many.tileMeters = 40
        let reference = LinkTable.csv(try s.link(one))
        #expect(LinkTable.csv(try s.link(many)) == reference)
        #expect(reference.split(separator: "\n").count == 31)
    }

    @Test func preparedAddressAttributesGiveTheSameLinks() throws {
        var s = Scene()
        s.road("r", "LINESTRING(-100 0,100 0)", name: "Main Street")
        s.road("q", "LINESTRING(0 -100,0 100)", name: "Oak Avenue")
        for i in 0..<10 {
            let x = Double(i * 9 - 45)
            s.building("b\(i)", "POLYGON((\(x) 10,\(x + 8) 10,\(x + 8) 20,\(x) 20,\(x) 10))")
            s.address("a\(i)", x + 4, i % 3 == 0 ? 15 : 4, number: "\(200 - 2 * i)", street: i % 4 == 0 ? "Oak Ave" : "Main St")
        }
        let prepared = AddressPreparation(addresses: s.addresses, segments: s.segments)
        let ahead = try Linker().link(buildings: s.buildings, addresses: s.addresses, segments: s.segments, prepared: prepared)
        #expect(LinkTable.csv(ahead) == LinkTable.csv(try s.link()))
        #expect(LinkTable.json(ahead) == LinkTable.json(try s.link()))
    }
}

/// A small deterministic generator (SplitMix64) so shuffles repeat.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}

/// The block-face alignment on its own: numbers in order against footprints along the street.
@Suite struct FaceAlignmentTests {
    typealias Entry = FaceAlignment.Entry
    typealias Option = FaceAlignment.Option

    /// Four houses 8 m apart at along 0, 8, 16, 24; each address point slid about 6 m toward
    /// the next house, so each one's own best (extra 0) is its neighbour.
    func slidRow() -> [Entry] {
        (0..<4).map { i in
            let own = Option(building: i, along: Double(8 * i), extra: 4)
            let next = Option(building: min(i + 1, 3), along: Double(8 * min(i + 1, 3)), extra: i == 3 ? 4 : 0)
            return Entry(slot: i, number: Double(100 + 2 * i), at: Double(8 * i) + 6, household: "\(100 + 2 * i)", rank: Int32(i),
                         options: i == 3 ? [own] : [next, own])
        }
    }

    @Test func orderHoldsSlidPointsOnTheirOwnHouses() {
        let got = FaceAlignment.align(slidRow(), leaveOut: 80, backstep: 2, share: { _ in nil })
        #expect(got == [0: 0, 1: 1, 2: 2, 3: 3])
    }

    @Test func numbersRunningDownTheStreetAlignToo() {
        var row = slidRow()
        for k in row.indices { row[k].number = Double(200 - 2 * k) }
        row.reverse()
        let got = FaceAlignment.align(row, leaveOut: 80, backstep: 2, share: { _ in nil })
        #expect(got == [0: 0, 1: 1, 2: 2, 3: 3])
    }

    /// 10, 10a and 10b are one number as a value: along the street 10 comes first, then 10a,
    /// then 10b, though "10a|main st" sorts before "10|main st". Houses at along 0, 8 and 16, the
    /// points 5 m past their own, nearer the next house (each costs half a metre per metre): in
    /// number order every point keeps its house; with 10a taken first, 10a and 10b do not.
    @Test func aLetterAfterANumberComesAfterTheBareNumber() {
        func slid(_ i: Int, _ text: String, _ rank: Int32) -> Entry {
            let at = Double(8 * i + 5)
            let options = (0..<3).map { (b: Int) -> Option in
                let along = Double(8 * b)
                return Option(building: b, along: along, extra: 0.5 * abs(at - along))
            }
            return Entry(slot: i, number: 10, at: at, household: text + "|main st", rank: rank, options: options)
        }
        let given = [slid(2, "10b", 0), slid(0, "10", 1), slid(1, "10a", 2)]
        let ordered = FaceAlignment.inNumberOrder(given)
        #expect(ordered.map { String($0.numberText) } == ["10", "10a", "10b"])
        let align = { (entries: [Entry]) in FaceAlignment.align(entries, leaveOut: 80, backstep: 1000, share: { _ in nil }) }
        #expect(align(ordered) == [0: 0, 1: 1, 2: 2])
        let byKey = given.sorted { ($0.household, $0.rank) < ($1.household, $1.rank) }
        #expect(byKey.map { String($0.numberText) } == ["10a", "10b", "10"])
        #expect(align(byKey) == [0: 0, 1: 2, 2: 1])
    }

    @Test func twoNumbersShareAFootprintOnlyWhereItMayHoldSeveralHouseholds() {
        let one = [Option(building: 7, along: 0, extra: 0)]
        let entries = [Entry(slot: 0, number: 1, at: 0, household: "1", rank: 0, options: one),
                       Entry(slot: 1, number: 3, at: 0, household: "3", rank: 1, options: one)]
        let single = FaceAlignment.align(entries, leaveOut: 10, backstep: 2, share: { _ in nil })
        #expect(single.count == 1)
        let shared = FaceAlignment.align(entries, leaveOut: 10, backstep: 2, share: { _ in 0 })
        #expect(shared == [0: 7, 1: 7])
        // A second household at a price: shared where leaving a number out costs more.
        #expect(FaceAlignment.align(entries, leaveOut: 10, backstep: 2, share: { _ in 20 }).count == 1)
        #expect(FaceAlignment.align(entries, leaveOut: 80, backstep: 2, share: { _ in 20 }) == [0: 7, 1: 7])
    }

    @Test func locateRunsOnPastTheEnds() {
        let line = [Coord(0, 0), Coord(10, 0)]
        #expect(Planar.locate(Coord(-5, 2), on: line)! == (along: -5, offset: 2))
        #expect(Planar.locate(Coord(14, -3), on: line)! == (along: 14, offset: -3))
        #expect(Planar.locate(Coord(4, 1), on: line)! == (along: 4, offset: 1))
    }
}
