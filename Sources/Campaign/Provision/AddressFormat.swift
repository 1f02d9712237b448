import Foundation
import Geo

/// One-line postal formatting: "81-42 243rd Street, Unit 2, QUEENS, NY 11426".
public enum AddressFormat {
    public static func oneLine(_ a: Address) -> String {
        var out: [UInt8] = []
        oneLine(a, levels: levelValues(a.addressLevelsJSON), into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The same, its UTF-8 appended to `out`, given the values of the address's
    /// `address_levels`: the parts (number and street; unit; city; region and postcode)
    /// joined by ", ", each left out when it has nothing.
    static func oneLine(_ a: Address, levels: [String], into out: inout [UInt8]) {
        var parts = 0
        func startPart() {
            if parts > 0 { out.append(44); out.append(32) }
            parts += 1
        }
        func append(_ s: String) { var s = s; s.withUTF8 { out.append(contentsOf: $0) } }
        /// Two texts joined by a space (either may be absent), as a part unless that is empty.
        func pair(_ x: String?, _ y: String?) {
            guard x != nil || y != nil else { return }
            if (x ?? "").isEmpty && (y ?? "").isEmpty && (x == nil || y == nil) { return }
            startPart()
            if let x { append(x) }
            if x != nil && y != nil { out.append(32) }
            if let y { append(y) }
        }
        pair(a.number, a.street)
        if let u = a.unit, !u.isEmpty { startPart(); append("Unit "); append(u) }
        if let city = a.postalCity ?? (levels.count > 1 ? levels[1] : nil) { startPart(); append(city) }
        pair(levels.first, a.postcode)
    }

    /// The `value`s of Overture's `address_levels` ([{"value":"NY"},{"value":"QUEENS"}]).
    /// The same few texts repeat over a whole extract, so each is parsed once.
    static func levelValues(_ json: String?) -> [String] {
        guard let json else { return [] }
        return levelCache.value(for: json) {
            guard let data = json.data(using: .utf8),
                  let arr = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
            return arr.compactMap { $0["value"] as? String }
        }
    }
    static let levelCache = MemoCache<String, [String]>()
}
