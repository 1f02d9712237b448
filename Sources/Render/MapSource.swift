import Foundation
import Geo

/// Where a map's data comes from. The seam for more inputs (a campaign GeoPackage later).
public protocol MapSource {
    func loadMapData() throws -> MapData
}

/// A FeatureCollection of building features in the web map's format: Polygon or
/// MultiPolygon geometry; properties `gers_id` (else the feature `id`), `status`,
/// `scans_total`, `qr_scanned`, `feature_status`, `house_number`, `address_text`.
/// A building is an orphan when `feature_status` is `orphan` or `orphan_building`, or it has neither
/// `house_number` nor `address_text`.
public struct FeaturesGeoJSONSource: MapSource {
    public var path: String
    public init(path: String) { self.path = path }

    public func loadMapData() throws -> MapData {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard FileManager.default.fileExists(atPath: path) else {
                throw InputError(.fileNotFound, file: path, detail: "no such file")
            }
            guard let d = FileManager.default.contents(atPath: path) else {
                throw InputError(.unreadable, file: path, detail: "cannot read")
            }
            data = d
        }
        return try Self.parse(data, file: path)
    }

    public static func parse(_ data: Data, file: String) throws(InputError) -> MapData {
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw InputError(.invalidJSON, file: file, detail: error.localizedDescription)
        }
        guard let fc = root as? [String: Any], fc["type"] as? String == "FeatureCollection",
              let features = fc["features"] as? [Any] else {
            throw InputError(.notGeoJSON, file: file, detail: "expected a FeatureCollection with a features array")
        }
        var buildings: [MapBuilding] = []
        buildings.reserveCapacity(features.count)
        for (i, f) in features.enumerated() {
            guard let feature = f as? [String: Any] else {
                throw InputError(.notGeoJSON, file: file, featureIndex: i, detail: "a feature is not an object")
            }
            let props = feature["properties"] as? [String: Any] ?? [:]
            let id = (props["gers_id"] as? String) ?? (feature["id"] as? String) ?? (props["id"] as? String)
            guard let id, !id.isEmpty else { throw InputError(.missingID, file: file, featureIndex: i, detail: "no gers_id") }
            func fail(_ k: InputError.Kind, _ d: String) -> InputError { InputError(k, file: file, featureIndex: i, featureID: id, detail: d) }
            guard let g = feature["geometry"] as? [String: Any], let type = g["type"] as? String else {
                throw fail(.missingGeometry, "no geometry")
            }
            let coords = g["coordinates"]
            var polygons: [PolygonCoords]
            switch type {
            case "Polygon":
                guard let p = polygon(coords) else { throw fail(.badCoordinates, "Polygon coordinates are not rings of [lon, lat]") }
                polygons = [p]
            case "MultiPolygon":
                guard let list = coords as? [Any] else { throw fail(.badCoordinates, "MultiPolygon coordinates are not a list") }
                polygons = []
                for item in list {
                    guard let p = polygon(item) else { throw fail(.badCoordinates, "MultiPolygon part is not rings of [lon, lat]") }
                    polygons.append(p)
                }
            default:
                throw fail(.wrongGeometryType, "\(type); buildings are Polygon or MultiPolygon")
            }
            let houseNumber = nonEmpty(props["house_number"]) ?? nonEmpty(props["number"])
            let addressText = nonEmpty(props["address_text"])
            let featureStatus = props["feature_status"] as? String
            let scans: Int
            switch props["scans_total"] {
            case nil, is NSNull: scans = 0
            case let n as NSNumber: scans = n.intValue
            default: throw fail(.badValue, "scans_total is not a number")
            }
            let label = houseNumber ?? addressText.map { text in
                String(text.split(separator: " ", maxSplits: 1).first ?? Substring(text))
            }
            buildings.append(MapBuilding(
                id: id, polygons: polygons, status: props["status"] as? String, scansTotal: scans,
                qrScanned: props["qr_scanned"] as? Bool ?? false, featureStatus: featureStatus, label: label,
                isOrphan: featureStatus?.lowercased().hasPrefix("orphan") == true || (houseNumber == nil && addressText == nil)))
        }
        return MapData(buildings: buildings)
    }

    private static func nonEmpty(_ v: Any?) -> String? {
        if let s = v as? String { return s.isEmpty ? nil : s }
        if let n = v as? NSNumber, !(v is Bool) { return n.stringValue }
        return nil
    }

    private static func polygon(_ v: Any?) -> PolygonCoords? {
        guard let rings = v as? [Any], !rings.isEmpty else { return nil }
        var out: [[Coord]] = []
        for r in rings {
            guard let pts = r as? [Any], pts.count >= 4 else { return nil }
            var ring: [Coord] = []
            ring.reserveCapacity(pts.count)
            for p in pts {
                guard let xy = p as? [Any], xy.count >= 2, let x = (xy[0] as? NSNumber)?.doubleValue,
                      let y = (xy[1] as? NSNumber)?.doubleValue, x.isFinite, y.isFinite else { return nil }
                ring.append(Coord(x, y))
            }
            out.append(ring)
        }
        return PolygonCoords(rings: out)
    }
}

/// Campaign state per building from a CSV `gers_id,status,scans_total` (header required;
/// `status` and `scans_total` may be empty).
public struct StatusTable: Sendable {
    public struct Entry: Sendable, Equatable {
        public var status: String?
        public var scansTotal: Int
        public init(status: String?, scansTotal: Int) { self.status = status; self.scansTotal = scansTotal }
    }
    public var entries: [String: Entry]

    public static func load(_ path: String) throws(InputError) -> StatusTable {
        guard FileManager.default.fileExists(atPath: path) else { throw InputError(.fileNotFound, file: path, detail: "no such file") }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw InputError(.unreadable, file: path, detail: "cannot read as UTF-8")
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws(InputError) -> StatusTable {
        var entries: [String: Entry] = [:]
        var columns: [String: Int] = [:]
        // "\r\n" is one Character in Swift, and a newline.
        for (n, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if columns.isEmpty {
                for (i, f) in fields.enumerated() { columns[f] = i }
                guard columns["gers_id"] != nil else {
                    throw InputError(.badValue, file: file, line: n + 1, detail: "the header must name gers_id (gers_id,status,scans_total)")
                }
                continue
            }
            func field(_ k: String) -> String? {
                guard let i = columns[k], i < fields.count, !fields[i].isEmpty else { return nil }
                return fields[i]
            }
            guard let id = field("gers_id") else { throw InputError(.missingID, file: file, line: n + 1, detail: "empty gers_id") }
            var scans = 0
            if let s = field("scans_total") {
                guard let v = Int(s), v >= 0 else {
                    throw InputError(.badValue, file: file, line: n + 1, featureID: id, detail: "scans_total '\(s)' is not a whole number >= 0")
                }
                scans = v
            }
            entries[id] = Entry(status: field("status"), scansTotal: scans)
        }
        return StatusTable(entries: entries)
    }
}

/// Raw Overture extracts, linked with the Stable Linker so orphans and house numbers are known.
public struct ExtractsSource: MapSource {
    public var buildings: [String]
    public var addresses: [String]
    public var segments: [String]
    public var options: LoadOptions
    public var statusFile: String?

    public init(buildings: [String], addresses: [String], segments: [String], options: LoadOptions = .init(), statusFile: String? = nil) {
        self.buildings = buildings; self.addresses = addresses; self.segments = segments
        self.options = options; self.statusFile = statusFile
    }

    public func loadMapData() throws -> MapData {
        let statuses = try statusFile.map { p throws(InputError) in try StatusTable.load(p) }
        let b = try loadBuildings(buildings, options: options).features
        let a = try addresses.isEmpty ? [] : loadAddresses(addresses, options: options).features
        let s = try segments.isEmpty ? [] : loadSegments(segments, options: options).features
        let links = try Linker().link(buildings: b, addresses: a, segments: s)
        return MapData(buildings: b, addresses: a, segments: s, links: links, statuses: statuses)
    }
}

extension MapData {
    /// Joins extracts, a link table and optional statuses. A building's label is the lowest
    /// house number linked to it; it is an orphan when no address is linked.
    public init(buildings: [Building], addresses: [Address], segments: [Segment], links: LinkResult, statuses: StatusTable?) {
        var number: [String: String] = [:]
        for a in addresses { if let n = a.number, !n.isEmpty { number[a.id] = n } }
        var labels: [String: String] = [:]
        for l in links.links {
            guard let b = l.buildingID, let n = number[l.addressID] else { continue }
            if let old = labels[b], old.compare(n, options: .numeric) != .orderedDescending { continue }
            labels[b] = n
        }
        var linked = Set<String>()
        for bl in links.buildings where !bl.isOrphan { linked.insert(bl.buildingID) }
        let mapBuildings = buildings.map { b in
            let entry = statuses?.entries[b.id]
            return MapBuilding(id: b.id, polygons: b.polygons, status: entry?.status, scansTotal: entry?.scansTotal ?? 0,
                               label: labels[b.id], isOrphan: !linked.contains(b.id))
        }
        self.init(buildings: mapBuildings,
                  roads: segments.filter { $0.subtype == nil || $0.subtype == "road" }
                      .map { MapRoad(line: $0.line, roadClass: $0.segmentClass, name: $0.name) })
    }
}
