import Foundation

/// Writers for the link table. Rows are in the result's order (by address id), so the same
/// links give byte-identical output.
public enum LinkTable {
    public static let csvHeader = "address_id,building_id,method,confidence,distance_m,street_match"

    /// CSV with `csvHeader`; unmatched addresses have an empty building_id and method NONE.
    public static func csv(_ result: LinkResult) -> String {
        let links = result.links
        return ByteText.rows(links.count, header: csvHeader) { rows, out in
            for l in links[rows] {
                out.append(csvField(l.addressID)); out.append(44)
                out.append(csvField(l.buildingID ?? "")); out.append(44)
                out.append(l.method.rawValue); out.append(44)
                out.appendFixed(l.confidence, 3); out.append(44)
                out.appendFixed(l.distance, 2); out.append(44)
                out.append(l.streetMatch ? "true" : "false"); out.append(10)
            }
        }
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

    /// One CSV cell: RFC 4180 quoting when it holds a comma, quote or line break. A text a
    /// spreadsheet would take for a formula (first character =, +, -, @, tab or carriage
    /// return) gets a leading apostrophe; a plain decimal number (-73.7409) is left as it is.
    public static func csvField(_ s: String) -> String {
        var s = s
        switch s.utf8.first {
        case 61, 43, 45, 64, 9, 13: if !isPlainNumber(s.utf8) { s = "'" + s }
        default: break
        }
        // Read in place where the text is stored as UTF-8 (native strings): far fewer steps a byte.
        func special(_ c: UInt8) -> Bool { c == 44 || c == 34 || c == 10 || c == 13 }
        let quoted = s.utf8.withContiguousStorageIfAvailable { $0.contains(where: special) } ?? s.utf8.contains(where: special)
        guard quoted else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A sign, digits with at most one decimal point, and an optional exponent: a number a
    /// spreadsheet reads as one, and nothing else.
    static func isPlainNumber(_ u: String.UTF8View) -> Bool {
        var i = u.startIndex, digits = 0, point = false
        if i < u.endIndex, u[i] == 43 || u[i] == 45 { i = u.index(after: i) }
        while i < u.endIndex, (48...57).contains(u[i]) || (u[i] == 46 && !point) {
            if u[i] == 46 { point = true } else { digits += 1 }
            i = u.index(after: i)
        }
        guard digits > 0 else { return false }
        if i < u.endIndex, u[i] == 101 || u[i] == 69 {
            i = u.index(after: i)
            if i < u.endIndex, u[i] == 43 || u[i] == 45 { i = u.index(after: i) }
            var exponent = 0
            while i < u.endIndex, (48...57).contains(u[i]) { exponent += 1; i = u.index(after: i) }
            guard exponent > 0 else { return false }
        }
        return i == u.endIndex
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

/// A growing UTF-8 buffer for writing large tables without per-field String work.
public struct ByteText {
    public private(set) var bytes: [UInt8] = []
    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }
    public mutating func append(_ b: UInt8) { bytes.append(b) }
    public mutating func append(_ s: String) { bytes.append(contentsOf: s.utf8) }

    /// A finite value with `decimals` fixed decimals, rounded half away from zero; no
    /// exponent, no negative zero. Non-finite values are written as empty.
    public mutating func appendFixed(_ v: Double, _ decimals: Int) {
        guard v.isFinite else { return }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(v) * scale).rounded()
        guard scaled < 9e15 else { append(LinkTable.format(v, decimals)); return }
        var n = UInt64(scaled)
        if v < 0 && n != 0 { bytes.append(45) }
        // Digits least significant first, at least one before the point.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20 + decimals) { digits in
            var count = 0
            repeat { digits[count] = UInt8(48 + n % 10); n /= 10; count += 1 } while n > 0
            while count <= decimals { digits[count] = 48; count += 1 }
            for i in stride(from: count - 1, through: decimals, by: -1) { bytes.append(digits[i]) }
            if decimals > 0 {
                bytes.append(46)
                for i in stride(from: decimals - 1, through: 0, by: -1) { bytes.append(digits[i]) }
            }
        }
    }

    /// A header line, then `count` rows written by `body` in two halves side by side (each
    /// half given its range of rows) and joined in order.
    static func rows(_ count: Int, header: String, _ body: @Sendable (Range<Int>, inout ByteText) -> Void) -> String {
        let half = count / 2
        let parts = SlotResults<ByteText>(count: 2)
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            let rows = k == 0 ? 0..<half : half..<count
            var out = ByteText(capacity: rows.count * 110 + (k == 0 ? header.utf8.count + 1 : 0))
            if k == 0 { out.append(header); out.append(10) }
            body(rows, &out)
            parts.set(k, .success(out))
        }
        let texts = (0..<2).compactMap { try? parts.get($0).bytes }
        return String(unsafeUninitializedCapacity: texts.reduce(0) { $0 + $1.count }) { buffer in
            var n = 0
            for t in texts { n = buffer[n...].initialize(fromContentsOf: t) }
            return n
        }
    }

    public var string: String { String(decoding: bytes, as: UTF8.self) }
}
