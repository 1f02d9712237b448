import Foundation

/// A truth table for spatial regression tests: which building each address belongs to.
public struct TruthTable: Sendable {
    /// address id → building id.
    public var expected: [String: String]

    /// Reads CSV with a header holding `address_id` and `building_id` (other columns ignored).
    public static func load(_ path: String) throws(InputError) -> TruthTable {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(.fileNotFound, file: path, detail: "no such file or not readable")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputError(.invalidEncoding, file: path, detail: "the truth file is not UTF-8")
        }
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        while let l = lines.last, l.isEmpty { lines.removeLast() }
        guard let header = lines.first else { throw InputError(.badValue, file: path, line: 1, detail: "empty truth file: expected a header address_id,building_id") }
        let cols = CSV.fields(header)
        guard let ai = cols.firstIndex(of: "address_id"), let bi = cols.firstIndex(of: "building_id") else {
            throw InputError(.badValue, file: path, line: 1,
                             detail: "the header must name the columns address_id and building_id (found: \(cols.joined(separator: ",")))")
        }
        var expected: [String: String] = [:]
        for (n, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let f = CSV.fields(line)
            guard f.count > max(ai, bi), !f[ai].isEmpty, !f[bi].isEmpty else {
                throw InputError(.badValue, file: path, line: n + 1, detail: "expected address_id and building_id, found '\(line.prefix(120))'")
            }
            if let other = expected[f[ai]], other != f[bi] {
                throw InputError(.badValue, file: path, line: n + 1,
                                 detail: "address \(f[ai]) is given two buildings, \(other) and \(f[bi])")
            }
            expected[f[ai]] = f[bi]
        }
        guard !expected.isEmpty else {
            throw InputError(.badValue, file: path, line: lines.count,
                             detail: "the truth file has a header but no rows: nothing to check against")
        }
        return TruthTable(expected: expected)
    }

    public struct Miss: Sendable, Equatable {
        public var addressID: String
        public var expected: String
        /// The building linked instead (nil when the address was not linked, or is missing).
        public var linked: String?
        public var method: LinkMethod?
    }

    public struct Report: Sendable {
        public var total: Int
        public var correct: Int
        /// Sorted by address id.
        public var misses: [Miss]
        /// correct / total; 1 for an empty truth table.
        public var accuracy: Double { total == 0 ? 1 : Double(correct) / Double(total) }
    }

    public func check(_ result: LinkResult) -> Report {
        var byAddress: [String: Link] = [:]
        for l in result.links { byAddress[l.addressID] = l }
        var correct = 0
        var misses: [Miss] = []
        for (a, b) in expected {
            let l = byAddress[a]
            if l?.buildingID == b { correct += 1 } else {
                misses.append(Miss(addressID: a, expected: b, linked: l?.buildingID, method: l?.method))
            }
        }
        misses.sort { $0.addressID < $1.addressID }
        return Report(total: expected.count, correct: correct, misses: misses)
    }
}

/// Minimal RFC 4180 field splitting for one line.
public enum CSV {
    public static func fields<S: StringProtocol>(_ line: S) -> [String] {
        var out: [String] = [], cur = "", quoted = false, i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            if quoted {
                if c == "\"" {
                    let n = line.index(after: i)
                    if n < line.endIndex, line[n] == "\"" { cur.append("\""); i = n } else { quoted = false }
                } else { cur.append(c) }
            } else if c == "\"" { quoted = true }
            else if c == "," { out.append(cur); cur = "" }
            else if c != "\r" { cur.append(c) }
            i = line.index(after: i)
        }
        out.append(cur)
        return out
    }
}
