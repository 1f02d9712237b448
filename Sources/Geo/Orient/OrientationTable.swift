/// Writers for `flyr orient`: one row per address in the rows' order (by address id).
/// Bearings in degrees with two decimals; absent bearings are empty (CSV) or null (GeoJSON).
public enum OrientationTable {
    public static let csvHeader = "address_id,building_id,segment_id,road_bearing,house_bearing,is_oriented"

    public static func csv(_ rows: [AddressOrientation]) -> String {
        ByteText.rows(rows.count, header: csvHeader) { range, out in
            for r in rows[range] {
                let o = r.orientation
                out.append(LinkTable.csvField(r.addressID)); out.append(44)
                out.append(LinkTable.csvField(r.buildingID ?? "")); out.append(44)
                out.append(LinkTable.csvField(o?.segmentID ?? "")); out.append(44)
                if let v = o?.roadBearing { out.appendFixed(wrapped(v, period: 180), 2) }
                out.append(44)
                if let v = o?.houseBearing { out.appendFixed(wrapped(v, period: 360), 2) }
                out.append(44)
                out.append(r.isOriented ? "true" : "false"); out.append(10)
            }
        }
    }

    /// A FeatureCollection of address points carrying the CSV's columns as properties.
    public static func geojson(_ rows: [AddressOrientation], addresses: [Address]) -> String {
        var at: [String: Coord] = [:]
        for a in addresses { at[a.id] = a.point }
        let string = { (s: String?) in s.map(LinkTable.jsonString) ?? "null" }
        var out = "{\"type\":\"FeatureCollection\",\"features\":["
        for (i, r) in rows.enumerated() {
            if i > 0 { out += "," }
            let p = at[r.addressID] ?? Coord(0, 0)
            let o = r.orientation
            out += "\n{\"type\":\"Feature\",\"id\":\(LinkTable.jsonString(r.addressID)),"
            out += "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(p.x),\(p.y)]},"
            out += "\"properties\":{\"address_id\":\(LinkTable.jsonString(r.addressID)),\"building_id\":\(string(r.buildingID)),"
            out += "\"segment_id\":\(string(o?.segmentID)),\"road_bearing\":\(o?.roadBearing.map { bearing($0, period: 180) } ?? "null"),"
            out += "\"house_bearing\":\(o?.houseBearing.map { bearing($0, period: 360) } ?? "null"),\"is_oriented\":\(r.isOriented)}}"
        }
        return out + "]}\n"
    }

    /// Two decimals, wrapped so that rounding never reaches `period` (359.999 → "0.00").
    static func bearing(_ v: Double, period: Double) -> String {
        LinkTable.format(wrapped(v, period: period), 2)
    }

    /// Rounded to two decimals, then wrapped below `period`.
    static func wrapped(_ v: Double, period: Double) -> Double {
        let r = (v * 100).rounded() / 100
        return r >= period ? r - period : r
    }
}
