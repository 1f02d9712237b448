import Foundation

/// Why a territory selection was refused. A selection never succeeds empty.
public struct SelectionError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No address has that street (after normalising); the message suggests close names.
        case unknownStreet
        /// `near` on a street needs that street's segments.
        case needsSegments
        /// The territory has no area (no rings, or only degenerate ones).
        case emptyTerritory
        /// The rule matched no address.
        case nothingSelected
    }
    public var kind: Kind
    public var message: String
    public var description: String { message }
    /// True when the command line is at fault (the street typed), not the data.
    public var isUsage: Bool { kind == .unknownStreet || kind == .needsSegments }
}

/// A territory a user drew: polygons in degrees (lon, lat), rings closed.
public struct Territory: Sendable, Equatable {
    public var polygons: [PolygonCoords]
    public init(polygons: [PolygonCoords]) { self.polygons = polygons }
}

/// The three ways to choose a campaign's addresses.
public enum Selection {
    /// The `count` addresses nearest to `point` (lon, lat), by geodesic distance on WGS84 in
    /// metres, ties broken by id; nearest first. Fewer when there are fewer addresses.
    public static func nearest(to point: Coord, count: Int, in addresses: [Address]) throws(SelectionError) -> [Address] {
        let ranked = addresses.map { (a: $0, d: Geodesic.inverse(point, $0.point).distance) }
            .sorted { $0.d != $1.d ? $0.d < $1.d : $0.a.id < $1.a.id }
        let chosen = ranked.prefix(max(0, count)).map(\.a)
        guard !chosen.isEmpty else {
            throw SelectionError(kind: .nothingSelected, message: count <= 0 ? "the count must be at least 1" : "there are no addresses to choose from")
        }
        return chosen
    }

    /// The addresses of one street (names compared as the linker does, `StreetName.normalize`,
    /// a road's other names in `segments` as its primary name, `StreetAliases`),
    /// in house-number order: by the number's value (`HouseNumbers.value`, hyphens read as the
    /// extract writes them: "94-29" is block 94, house 29 where most numbers hold a hyphen, else
    /// a range read as 94), then its text, unit and id; addresses whose number has no digits
    /// come last.
    /// Both sides of the street interleave, as on a list sorted by number.
    ///
    /// With `near` (lon, lat): only the block nearest the point, that is the segment of this
    /// street nearest to it (Overture splits roads at intersections) and the street's addresses
    /// whose nearest segment of the street is that one, on both sides.
    public static func street(_ name: String, near: Coord? = nil, addresses: [Address],
                              segments: [Segment] = []) throws(SelectionError) -> [Address] {
        guard let typed = StreetName.normalize(name) else {
            throw SelectionError(kind: .unknownStreet, message: "the street name '\(name)' has no letters or digits; give a name such as --street \"218th Street\"")
        }
        // A road's other names (`StreetAliases`) select its addresses however they are written.
        let segmentKeys = StreetName.keys(of: segments)
        let aliases = StreetAliases.aliases(segments, segmentKeys)
        let key = aliases.key(of: name) ?? typed
        let keys = StreetAliases.addressKeys(addresses, aliases: aliases)
        var onStreet = addresses.indices.filter { keys[$0] == key }.map { addresses[$0] }
        guard !onStreet.isEmpty else {
            let hint = suggestions(for: key, among: addresses)
            throw SelectionError(kind: .unknownStreet, message: "no address is on a street named '\(name)'"
                + (hint.isEmpty ? "" : "; did you mean " + hint.map { "'\($0)'" }.joined(separator: ", ") + "?"))
        }
        if let near {
            let lines = segments.indices.filter { segmentKeys[$0] == key }.map { segments[$0].line }
            guard !lines.isEmpty else {
                throw SelectionError(kind: .needsSegments, message: "--near with --street needs --segments holding the street '\(name)'")
            }
            do { onStreet = try block(of: onStreet, lines: lines, near: near) } catch {
                throw SelectionError(kind: .nothingSelected, message: "cannot project around \(near.x),\(near.y): \(error)")
            }
        }
        let blocks = HouseNumbers.blockStyle(addresses.lazy.map(\.number))
        return onStreet.sorted { houseNumberOrder($0, $1, blocks: blocks) }
    }

    /// The addresses the territory covers (boundary included) and the buildings that intersect
    /// it, each by id. An invalid territory (self-intersecting) is repaired with make-valid.
    public static func within(_ territory: Territory, index: FeatureIndex) throws -> (addresses: [Address], buildings: [Building]) {
        let empty = SelectionError(kind: .emptyTerritory, message: "the territory polygon is empty (it has no area); draw a Polygon or MultiPolygon with at least three distinct corners")
        guard territory.polygons.contains(where: { ($0.rings.first?.count ?? 0) >= 4 }) else { throw empty }
        var g: Geometry
        do { g = try Geometry.polygon(index.context, territory.polygons) } catch { throw empty }
        if !g.isValid { g = try g.makeValid().polygonalPart() }
        guard !g.isEmpty, try g.area() > 0 else { throw empty }
        let a = try index.addresses(coveredBy: g)
        guard !a.isEmpty else {
            let e = BBox.extent(of: index.addresses)
            throw SelectionError(kind: .nothingSelected, message: "the territory covers none of the \(index.addresses.count) addresses"
                + (e.isEmpty ? "" : " (they lie within \(e.minX),\(e.minY),\(e.maxX),\(e.maxY))"))
        }
        return (a, try index.buildings(intersecting: g))
    }

    /// Orders addresses of one street as on a walk list; see `street(_:near:addresses:segments:)`.
    static func houseNumberOrder(_ a: Address, _ b: Address, blocks: Bool) -> Bool {
        let va = HouseNumbers.value(a.number, blocks: blocks), vb = HouseNumbers.value(b.number, blocks: blocks)
        if va != vb {
            guard let va else { return false }
            guard let vb else { return true }
            return va < vb
        }
        if (a.number ?? "") != (b.number ?? "") { return (a.number ?? "") < (b.number ?? "") }
        if (a.unit ?? "") != (b.unit ?? "") { return (a.unit ?? "") < (b.unit ?? "") }
        return a.id < b.id
    }

    /// The addresses whose nearest of `lines` is the line nearest to `point`, measured in metres
    /// in a transverse Mercator around the point.
    static func block(of addresses: [Address], lines: [[Coord]], near point: Coord) throws(ProjError) -> [Address] {
        let proj = try Projection.localMetric(around: point)
        let projected = try lines.map { l throws(ProjError) in var l = l; try proj.forward(&l); return l }
        func nearestLine(_ p: Coord) -> Int {
            var best = 0, bestD = Double.infinity
            for (i, l) in projected.enumerated() {
                if let c = Planar.closestOnLine(p, l), c.distance < bestD { best = i; bestD = c.distance }
            }
            return best
        }
        let target = nearestLine(Coord(0, 0))
        var pts = addresses.map(\.point)
        try proj.forward(&pts)
        return zip(addresses, pts).filter { nearestLine($0.1) == target }.map(\.0)
    }

    /// Up to five street names (as written) sharing a word with `key`: those with the same
    /// first word first, then the closest in length.
    static func suggestions(for key: String, among addresses: [Address]) -> [String] {
        let words = Set(key.split(separator: " "))
        let first = key.split(separator: " ").first
        var seen: [String: String] = [:]
        for a in addresses {
            guard let k = StreetName.normalize(a.street), seen[k] == nil else { continue }
            if k.contains(key) || key.contains(k) || !words.isDisjoint(with: k.split(separator: " ")) { seen[k] = a.street! }
        }
        func rank(_ k: String) -> (Int, Int, String) {
            (k.split(separator: " ").first == first ? 0 : 1, abs(k.count - key.count), k)
        }
        return seen.sorted { rank($0.key) < rank($1.key) }
            .prefix(5).map(\.value)
    }
}

extension Territory {
    /// Reads a territory file: a GeoJSON Polygon or MultiPolygon, as a bare geometry, a Feature,
    /// or a FeatureCollection (every polygonal feature kept, other geometries ignored).
    /// Rings left open are closed.
    public static func load(_ path: String) throws(InputError) -> Territory {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(.fileNotFound, file: path, detail: "no such file or not readable")
        }
        return try Territory(geoJSON: data, file: path)
    }

    public init(geoJSON data: Data, file: String) throws(InputError) {
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch {
            throw InputError(.invalidJSON, file: file, detail: "the territory is not JSON: \(error.localizedDescription)")
        }
        var found: [String] = []
        var polygons: [PolygonCoords] = []
        try Territory.collect(json, into: &polygons, found: &found, file: file)
        guard !polygons.isEmpty || found.contains("Polygon") || found.contains("MultiPolygon") else {
            throw InputError(.wrongGeometryType, file: file,
                             detail: "the territory must be a Polygon or MultiPolygon; found \(found.isEmpty ? "no geometry" : found.joined(separator: ", "))")
        }
        self.init(polygons: polygons)
    }

    private static func collect(_ json: Any, into polygons: inout [PolygonCoords], found: inout [String], file: String) throws(InputError) {
        guard let obj = json as? [String: Any], let type = obj["type"] as? String else {
            throw InputError(.notGeoJSON, file: file, detail: "expected a GeoJSON object with a \"type\"")
        }
        switch type {
        case "FeatureCollection":
            for f in obj["features"] as? [Any] ?? [] { try collect(f, into: &polygons, found: &found, file: file) }
        case "Feature":
            if let g = obj["geometry"], !(g is NSNull) { try collect(g, into: &polygons, found: &found, file: file) }
        case "GeometryCollection":
            for g in obj["geometries"] as? [Any] ?? [] { try collect(g, into: &polygons, found: &found, file: file) }
        case "Polygon":
            found.append(type)
            if let p = try polygon(obj["coordinates"], file: file) { polygons.append(p) }
        case "MultiPolygon":
            found.append(type)
            guard let parts = obj["coordinates"] as? [Any] else { throw badCoordinates(file) }
            for part in parts { if let p = try polygon(part, file: file) { polygons.append(p) } }
        default:
            found.append(type)
        }
    }

    /// A polygon's rings; nil when it has none (an empty polygon).
    private static func polygon(_ json: Any?, file: String) throws(InputError) -> PolygonCoords? {
        guard let rings = json as? [Any] else { throw badCoordinates(file) }
        var out: [[Coord]] = []
        for r in rings {
            guard let positions = r as? [Any] else { throw badCoordinates(file) }
            var ring: [Coord] = []
            for p in positions {
                guard let xy = p as? [Any], xy.count >= 2, let x = (xy[0] as? NSNumber)?.doubleValue,
                      let y = (xy[1] as? NSNumber)?.doubleValue, (-180...180).contains(x), (-90...90).contains(y) else {
                    throw badCoordinates(file)
                }
                ring.append(Coord(x, y))
            }
            if let first = ring.first, ring.last != first { ring.append(first) }
            if ring.isEmpty { continue }
            guard ring.count >= 4 else {
                throw InputError(.badRing, file: file, detail: "a territory ring needs at least three distinct corners, found \(ring.count - 1)")
            }
            out.append(ring)
        }
        return out.isEmpty ? nil : PolygonCoords(rings: out)
    }

    private static func badCoordinates(_ file: String) -> InputError {
        InputError(.badCoordinates, file: file, detail: "territory coordinates must be [longitude, latitude] pairs in degrees")
    }
}
