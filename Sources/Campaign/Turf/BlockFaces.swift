import Foundation
import Geo

/// An address as the turf cutter sees it.
public struct TurfDoor: Sendable {
    public var id: String
    /// Longitude/latitude, degrees.
    public var point: Coord
    /// The street name's key (`StreetName.normalize`), nil without a street.
    public var streetKey: String?
    /// The road segment the orienter chose for it, if any.
    public var segmentID: String?
    public init(id: String, point: Coord, streetKey: String?, segmentID: String?) {
        self.id = id; self.point = point; self.streetKey = streetKey; self.segmentID = segmentID
    }
}

/// A road segment as the turf cutter sees it.
public struct TurfRoad: Sendable {
    public var id: String
    /// Longitude/latitude, degrees.
    public var line: [Coord]
    public var roadClass: String?
    public var nameKey: String?
    public init(id: String, line: [Coord], roadClass: String?, nameKey: String?) {
        self.id = id; self.line = line; self.roadClass = roadClass; self.nameKey = nameKey
    }
}

/// Degrees to metres on a plane tangent at the area's mean latitude (equirectangular; under
/// 0.1 % off across a city's few kilometres).
struct LocalPlane {
    static let metresPerDegree = 6_371_008.8 * Double.pi / 180
    let kx: Double, ky = LocalPlane.metresPerDegree
    init(meanLatitude: Double) { kx = Self.metresPerDegree * cos(meanLatitude * .pi / 180) }
    func metres(_ c: Coord) -> Coord { Coord(c.x * kx, c.y * ky) }
    func degrees(_ c: Coord) -> Coord { Coord(c.x / kx, c.y / ky) }
}

/// A road between two junctions: a piece of one segment, cut where it meets another.
struct RoadPiece {
    var road: Int
    /// Junction numbers of its two ends.
    var from: Int, to: Int
    /// The line in metres.
    var line: [Coord]
    /// Both sides walked as one (a quiet street is crossed freely); else each side apart.
    var bothSides: Bool
}

/// Where a door falls on a piece: metres along it, and its side (+1 left, -1 right, walking
/// from the piece's start).
struct PiecePlace { var piece: Int; var along: Double; var side: Int; var distance: Double }

/// The road network cut at its junctions, and each door placed on one piece.
struct BlockFaces {
    /// Classes whose two sides are canvassed together.
    static let quietClasses: Set<String> = ["residential", "living_street", "unclassified", "service", "pedestrian"]
    /// Classes no door is walked from.
    static let unwalkable: Set<String> = ["motorway", "trunk", "footway", "cycleway", "path", "steps", "bridleway"]

    let plane: LocalPlane
    private(set) var pieces: [RoadPiece] = []
    private var piecesOfRoad: [[Int]]
    private var roadsOfName: [String: [Int]] = [:]
    private var roadIndex: [String: Int] = [:]
    private var walkable: [Int] = []

    init(roads: [TurfRoad], plane: LocalPlane) {
        self.plane = plane
        piecesOfRoad = Array(repeating: [], count: roads.count)
        // A vertex used twice (by two roads, or a road's end) is a junction.
        var uses: [Coord: Int] = [:]
        for r in roads {
            for c in r.line { uses[c, default: 0] += 1 }
            if let f = r.line.first { uses[f, default: 0] += 1 }
            if let l = r.line.last { uses[l, default: 0] += 1 }
        }
        var junction: [Coord: Int] = [:]
        func node(_ c: Coord) -> Int {
            if let n = junction[c] { return n }
            junction[c] = junction.count
            return junction.count - 1
        }
        for (k, r) in roads.enumerated() where r.line.count >= 2 {
            roadIndex[r.id] = k
            let cls = r.roadClass ?? ""
            if Self.unwalkable.contains(cls) { continue }
            walkable.append(k)
            if let n = r.nameKey { roadsOfName[n, default: []].append(k) }
            var start = 0
            for i in 1..<r.line.count where i == r.line.count - 1 || (uses[r.line[i]] ?? 0) >= 2 {
                piecesOfRoad[k].append(pieces.count)
                pieces.append(RoadPiece(road: k, from: node(r.line[start]), to: node(r.line[i]),
                                        line: r.line[start...i].map(plane.metres), bothSides: Self.quietClasses.contains(cls)))
                start = i
            }
        }
    }

    /// The door's piece: on its oriented segment when that is walkable, else on the nearest
    /// road of its street within 150 m, else on the nearest walkable road; nil without roads.
    func place(_ d: TurfDoor) -> PiecePlace? {
        let p = plane.metres(d.point)
        if let s = d.segmentID, let k = roadIndex[s], !piecesOfRoad[k].isEmpty { return nearest(p, roads: [k]) }
        if let n = d.streetKey, let rs = roadsOfName[n], let best = nearest(p, roads: rs), best.distance <= 150 { return best }
        return nearest(p, roads: walkable)
    }

    private func nearest(_ p: Coord, roads: [Int]) -> PiecePlace? {
        var best: PiecePlace?
        for k in roads {
            for i in piecesOfRoad[k] {
                let pl = Self.project(p, on: pieces[i].line, piece: i)
                if best == nil || pl.distance < best!.distance { best = pl }
            }
        }
        return best
    }

    /// The closest point of `line` to `p`: distance and metres along (ties: the earlier edge).
    static func project(_ p: Coord, on line: [Coord], piece: Int) -> PiecePlace {
        var best = PiecePlace(piece: piece, along: 0, side: 1, distance: .infinity)
        var walked = 0.0
        for i in 0..<(line.count - 1) {
            let a = line[i], b = line[i + 1]
            let dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy
            let t = len2 == 0 ? 0 : max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2))
            let qx = a.x + t * dx, qy = a.y + t * dy
            let d = hypot(p.x - qx, p.y - qy)
            if d < best.distance {
                let cross = dx * (p.y - a.y) - dy * (p.x - a.x)
                best = PiecePlace(piece: piece, along: walked + t * len2.squareRoot(), side: cross >= 0 ? 1 : -1, distance: d)
            }
            walked += len2.squareRoot()
        }
        return best
    }
}
