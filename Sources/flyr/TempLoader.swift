// TEMPORARY: replaced by Geo's streaming reader. Not committed.
import Foundation
import Geo

func tmpFeatures(_ path: String) -> [[String: Any]] {
    let data = try! Data(contentsOf: URL(fileURLWithPath: path))
    if data.first == UInt8(ascii: "{"), let s = String(data: data.prefix(40), encoding: .utf8), s.contains("FeatureCollection") {
        let o = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        return o["features"] as! [[String: Any]]
    }
    return data.split(separator: 10).map { try! JSONSerialization.jsonObject(with: Data($0)) as! [String: Any] }
}
func tmpC(_ a: Any) -> Coord { let v = a as! [Double]; return Coord(v[0], v[1]) }
func tmpRings(_ a: Any) -> PolygonCoords { PolygonCoords(rings: (a as! [Any]).map { ($0 as! [Any]).map(tmpC) }) }
func tmpLoadBuildings(_ p: String) -> [Building] {
    tmpFeatures(p).map { f in
        let g = f["geometry"] as! [String: Any]; let pr = f["properties"] as! [String: Any]
        let polys = g["type"] as! String == "Polygon" ? [tmpRings(g["coordinates"]!)] : (g["coordinates"] as! [Any]).map(tmpRings)
        return Building(id: (f["id"] as? String) ?? (pr["id"] as! String), polygons: polys, height: pr["height"] as? Double,
                        subtype: pr["subtype"] as? String, buildingClass: pr["class"] as? String)
    }
}
func tmpLoadAddresses(_ p: String) -> [Address] {
    tmpFeatures(p).map { f in
        let g = f["geometry"] as! [String: Any]; let pr = f["properties"] as! [String: Any]
        return Address(id: f["id"] as! String, point: tmpC(g["coordinates"]!), number: pr["number"] as? String, street: pr["street"] as? String, unit: pr["unit"] as? String)
    }
}
func tmpLoadSegments(_ p: String) -> [Segment] {
    tmpFeatures(p).map { f in
        let g = f["geometry"] as! [String: Any]; let pr = f["properties"] as! [String: Any]
        return Segment(id: f["id"] as! String, line: (g["coordinates"] as! [Any]).map(tmpC), subtype: pr["subtype"] as? String,
                       segmentClass: pr["class"] as? String, subclass: pr["subclass"] as? String, name: (pr["names"] as? [String: Any])?["primary"] as? String)
    }
}
