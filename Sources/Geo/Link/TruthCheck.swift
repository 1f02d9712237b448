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

    /// How many truth rows fell in one group, and how many of them were linked right.
    public struct Tally: Sendable, Equatable {
        public var rows = 0
        public var correct = 0
        public init(rows: Int = 0, correct: Int = 0) { self.rows = rows; self.correct = correct }
    }

    /// The lower edges of the confidence buckets `Report.byConfidence` counts (each runs to the
    /// next edge, the last to 1 inclusive): the buckets of the README's calibration table.
    public static let confidenceEdges: [Double] = [0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9]

    public struct Report: Sendable {
        public var total: Int
        public var correct: Int
        /// Sorted by address id.
        public var misses: [Miss]
        /// The truth rows by the method of their link (`LinkMethod.none` for an address not
        /// linked); rows whose address was not among the inputs are in none of them.
        public var byMethod: [LinkMethod: Tally] = [:]
        /// The truth rows linked by BUFFER or NEAREST, by confidence as written (three
        /// decimals), one tally per bucket of `confidenceEdges`: what a calibration reads.
        public var byConfidence = [Tally](repeating: Tally(), count: TruthTable.confidenceEdges.count)
        /// The same for the truth rows linked by COVERS.
        public var byCoversConfidence = [Tally](repeating: Tally(), count: TruthTable.confidenceEdges.count)
        /// correct / total; 1 for an empty truth table.
        public var accuracy: Double { total == 0 ? 1 : Double(correct) / Double(total) }

        /// Bucket k's range: from its edge to the next (the last to 1).
        public static func bucketRange(_ k: Int) -> (from: Double, to: Double) {
            let e = TruthTable.confidenceEdges
            return (e[k], k + 1 < e.count ? e[k + 1] : 1)
        }

        /// The bucket of `confidenceEdges` a confidence falls in, read at three decimals rounded
        /// as the link table writes them (`ByteText.appendFixed`, half away from zero), so that
        /// the check and a calibration counted from the CSV agree.
        static func bucket(_ confidence: Double) -> Int {
            let written = (confidence * 1000).rounded() / 1000
            return (TruthTable.confidenceEdges.lastIndex { written >= $0 }) ?? 0
        }
    }

    public func check(_ result: LinkResult) -> Report {
        var byAddress: [String: Link] = [:]
        for l in result.links { byAddress[l.addressID] = l }
        var report = Report(total: expected.count, correct: 0, misses: [])
        for (a, b) in expected {
            let l = byAddress[a]
            let right = l?.buildingID == b
            if right { report.correct += 1 } else {
                report.misses.append(Miss(addressID: a, expected: b, linked: l?.buildingID, method: l?.method))
            }
            guard let l else { continue }
            report.byMethod[l.method, default: Tally()].rows += 1
            if right { report.byMethod[l.method, default: Tally()].correct += 1 }
            if l.method == .buffer || l.method == .nearest || l.method == .covers {
                let k = Report.bucket(l.confidence)
                let count = { (t: inout [Tally]) in t[k].rows += 1; if right { t[k].correct += 1 } }
                if l.method == .covers { count(&report.byCoversConfidence) } else { count(&report.byConfidence) }
            }
        }
        report.misses.sort { $0.addressID < $1.addressID }
        return report
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
