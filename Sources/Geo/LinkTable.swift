import Foundation

/// Writers for the link table. Rows are in the result's order (by address id), so the same
/// links give byte-identical output.
public enum LinkTable {
    public static let csvHeader = "address_id,building_id,method,confidence,distance_m,street_match"

    /// CSV with `csvHeader`; unmatched addresses have an empty building_id and method NONE.
    public static func csv(_ result: LinkResult) -> String {
        var out = csvHeader + "\n"
        out.reserveCapacity(result.links.count * 100)
        for l in result.links {
            out += csvField(l.addressID); out += ","
            out += csvField(l.buildingID ?? ""); out += ","
            out += l.method.rawValue; out += ","
            out += format(l.confidence, 3); out += ","
            out += format(l.distance, 2); out += ","
            out += l.streetMatch ? "true\n" : "false\n"
        }
        return out
    }

    /// JSON: {"links":[…],"unmatched":[{address_id, nearest:[{building_id, distance_m}]}],"buildings":[…]}.
    public static func json(_ result: LinkResult) -> String {
        var out = "{\"links\":["
        for (i, l) in result.links.enumerated() {
            if i > 0 { out += "," }
            out += "\n{\"address_id\":\(jsonString(l.addressID)),\"building_id\":\(l.buildingID.map(jsonString) ?? "null"),"
            out += "\"method\":\"\(l.method.rawValue)\",\"confidence\":\(format(l.confidence, 3)),"
            out += "\"distance_m\":\(format(l.distance, 2)),\"street_match\":\(l.streetMatch)}"
        }
        out += "],\n\"unmatched\":["
        for (i, id) in result.unmatched.keys.sorted().enumerated() {
            if i > 0 { out += "," }
            let near = result.unmatched[id]!.map { "{\"building_id\":\(jsonString($0.buildingID)),\"distance_m\":\(format($0.distance, 2))}" }
            out += "\n{\"address_id\":\(jsonString(id)),\"nearest\":[\(near.joined(separator: ","))]}"
        }
        out += "],\n\"buildings\":["
        for (i, b) in result.buildings.enumerated() {
            if i > 0 { out += "," }
            out += "\n{\"building_id\":\(jsonString(b.buildingID)),\"status\":\"\(b.isOrphan ? "orphan" : "linked")\","
            out += "\"address_count\":\(b.addressCount),\"is_multi_unit\":\(b.isMultiUnit)}"
        }
        out += "]}\n"
        return out
    }

    /// Fixed decimals, no exponent, no negative zero.
    public static func format(_ v: Double, _ decimals: Int) -> String {
        let s = String(format: "%.\(decimals)f", v)
        return s.hasPrefix("-") && Double(s) == 0 ? String(s.dropFirst()) : s
    }

    /// RFC 4180 quoting when the field holds a comma, quote or line break.
    public static func csvField(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    public static func jsonString(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}

extension LinkTable {
    /// A GeoJSON FeatureCollection: one Point feature per address (at the address), with the
    /// link's columns as properties.
    public static func geojson(_ result: LinkResult, addresses: [Address]) -> String {
        var where_: [String: Coord] = [:]
        for a in addresses { where_[a.id] = a.point }
        var out = "{\"type\":\"FeatureCollection\",\"features\":["
        for (i, l) in result.links.enumerated() {
            if i > 0 { out += "," }
            let p = where_[l.addressID] ?? Coord(0, 0)
            out += "\n{\"type\":\"Feature\",\"id\":\(jsonString(l.addressID)),"
            out += "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(p.x),\(p.y)]},"
            out += "\"properties\":{\"address_id\":\(jsonString(l.addressID)),\"building_id\":\(l.buildingID.map(jsonString) ?? "null"),"
            out += "\"method\":\"\(l.method.rawValue)\",\"confidence\":\(format(l.confidence, 3)),"
            out += "\"distance_m\":\(format(l.distance, 2)),\"street_match\":\(l.streetMatch)}}"
        }
        out += "]}\n"
        return out
    }
}
