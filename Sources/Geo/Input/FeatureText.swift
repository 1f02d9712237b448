/// Features written back as text: one-line GeoJSON Features (for GeoJSONSeq) with the layer's
/// main properties and a `layer` property, and address CSV rows. Coordinates in degrees as read.
public enum FeatureText {
    public static func geoJSON(_ b: Building) -> String {
        let polys = b.polygons.map { "[" + $0.rings.map(ring).joined(separator: ",") + "]" }
        let geometry = polys.count == 1
            ? "{\"type\":\"Polygon\",\"coordinates\":\(polys[0])}"
            : "{\"type\":\"MultiPolygon\",\"coordinates\":[\(polys.joined(separator: ","))]}"
        var props = ["\"layer\":\"buildings\""]
        if let v = b.height { props.append("\"height\":\(v)") }
        if let v = b.numFloors { props.append("\"num_floors\":\(v)") }
        if let v = b.subtype { props.append("\"subtype\":\(LinkTable.jsonString(v))") }
        if let v = b.buildingClass { props.append("\"class\":\(LinkTable.jsonString(v))") }
        if let v = b.namesJSON { props.append("\"names\":\(v)") }
        return feature(b.id, geometry, props)
    }

    public static func geoJSON(_ a: Address) -> String {
        let geometry = "{\"type\":\"Point\",\"coordinates\":\(position(a.point))}"
        var props = ["\"layer\":\"addresses\""]
        for (k, v) in [("number", a.number), ("street", a.street), ("unit", a.unit), ("postcode", a.postcode),
                       ("postal_city", a.postalCity), ("country", a.country)] {
            if let v { props.append("\"\(k)\":\(LinkTable.jsonString(v))") }
        }
        return feature(a.id, geometry, props)
    }

    public static func geoJSON(_ s: Segment) -> String {
        let geometry = "{\"type\":\"LineString\",\"coordinates\":\(ring(s.line))}"
        var props = ["\"layer\":\"segments\""]
        for (k, v) in [("subtype", s.subtype), ("class", s.segmentClass), ("subclass", s.subclass), ("name", s.name)] {
            if let v { props.append("\"\(k)\":\(LinkTable.jsonString(v))") }
        }
        return feature(s.id, geometry, props)
    }

    public static let addressCSVHeader = "address_id,number,street,unit,postcode,lon,lat"

    /// One row under `addressCSVHeader` (absent values empty), without the line break.
    public static func csvRow(_ a: Address) -> String {
        ([a.id, a.number ?? "", a.street ?? "", a.unit ?? "", a.postcode ?? ""].map(LinkTable.csvField)
            + ["\(a.point.x)", "\(a.point.y)"]).joined(separator: ",")
    }

    private static func position(_ c: Coord) -> String { "[\(c.x),\(c.y)]" }
    private static func ring(_ r: [Coord]) -> String { "[" + r.map(position).joined(separator: ",") + "]" }
    private static func feature(_ id: String, _ geometry: String, _ props: [String]) -> String {
        "{\"type\":\"Feature\",\"id\":\(LinkTable.jsonString(id)),\"geometry\":\(geometry),\"properties\":{\(props.joined(separator: ","))}}"
    }
}
