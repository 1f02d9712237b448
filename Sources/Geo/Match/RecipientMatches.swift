/// A whole recipient list matched: the outcome of each row, the rows that share an address,
/// and the tables written from them.
public struct RecipientMatches: Sendable {
    public var table: CSVTable
    public var results: [RowMatch]
    /// By row index: the other rows matched to the same address (none for most rows).
    public var sharedWith: [Int: [Int]]
    let book: AddressBook

    /// Matches every row of `table` against `book`.
    public init(table: CSVTable, columns: RecipientColumns, book: AddressBook) {
        var matcher = RecipientMatcher(book: book)
        self.table = table
        self.book = book
        results = table.rows.map { matcher.match(Recipient(row: $0, columns: columns)) }
        var byAddress: [Int: [Int]] = [:]
        for (i, r) in results.enumerated() { if case .matched(let a, _, _) = r { byAddress[a, default: []].append(i) } }
        sharedWith = [:]
        for rows in byAddress.values where rows.count > 1 {
            for r in rows { sharedWith[r] = rows.filter { $0 != r } }
        }
    }

    public var matchedCount: Int { results.count { if case .matched = $0 { true } else { false } } }
    /// Rows in review with no candidate at all.
    public var notFoundCount: Int { results.count { if case .review(_, _, let c) = $0 { c.isEmpty } else { false } } }
    /// Rows in review with candidates to choose from.
    public var reviewCount: Int { results.count - matchedCount - notFoundCount }
    /// Addresses that two rows or more were matched to.
    public var sharedAddressCount: Int { Set(sharedWith.keys.compactMap { matchedAddress($0) }).count }

    /// The address row `i` was matched to, nil when it went to review.
    public func matchedAddress(_ i: Int) -> Int? {
        if case .matched(let a, _, _) = results[i] { return a }
        return nil
    }

    /// The matched rows: the list's line, the address found (id, how, score, its parts and
    /// point), the lines of other rows matched to it, then the row's own columns.
    public func matchedCSV() -> String {
        var out = (["line", "address_id", "how", "score", "matched_number", "matched_street", "matched_unit",
                    "matched_postcode", "lon", "lat", "shared_with"] + table.header).map(LinkTable.csvField).joined(separator: ",") + "\n"
        for (i, r) in results.enumerated() {
            guard case .matched(let a, let score, let how) = r else { continue }
            let ad = book.addresses[a]
            let shared = (sharedWith[i] ?? []).map { String(table.lines[$0]) }.joined(separator: " ")
            let fields = [String(table.lines[i]), ad.id, how.rawValue, LinkTable.format(score, 3), ad.number ?? "", ad.street ?? "",
                          ad.unit ?? "", ad.postcode ?? "", "\(ad.point.x)", "\(ad.point.y)", shared] + table.rows[i]
            out += fields.map(LinkTable.csvField).joined(separator: ",") + "\n"
        }
        return out
    }

    /// The rows to review: line, reason, detail, the row's own columns, then up to three
    /// candidates (id, the address as one line, score).
    public func reviewCSV() -> String {
        let cands = (1...3).flatMap { ["candidate_\($0)", "candidate_\($0)_address", "candidate_\($0)_score"] }
        var out = (["line", "reason", "detail"] + table.header + cands).map(LinkTable.csvField).joined(separator: ",") + "\n"
        for (i, r) in results.enumerated() {
            guard case .review(let reason, let detail, let c) = r else { continue }
            var fields = [String(table.lines[i]), reason.rawValue, detail] + table.rows[i]
            for k in 0..<3 {
                fields += k < c.count ? [book.addresses[c[k].address].id, oneLine(c[k].address), LinkTable.format(c[k].score, 3)] : ["", "", ""]
            }
            out += fields.map(LinkTable.csvField).joined(separator: ",") + "\n"
        }
        return out
    }

    /// The summary: counts, reasons, and one result per row.
    public func json(seconds: Double) -> String {
        var reasons: [String: Int] = [:]
        for r in results { if case .review(let why, _, _) = r { reasons[why.rawValue, default: 0] += 1 } }
        var out = "{\"rows\":\(results.count),\"matched\":\(matchedCount),\"review\":\(reviewCount),\"not_found\":\(notFoundCount),"
            + "\"shared_addresses\":\(sharedAddressCount),\"reasons\":{"
            + reasons.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "},\"results\":["
        for (i, r) in results.enumerated() {
            if i > 0 { out += "," }
            out += "{\"line\":\(table.lines[i]),"
            switch r {
            case let .matched(a, score, how):
                out += "\"result\":\"matched\",\"address_id\":\(LinkTable.jsonString(book.addresses[a].id)),\"how\":\"\(how.rawValue)\",\"score\":\(LinkTable.format(score, 3))"
                if let s = sharedWith[i] { out += ",\"shared_with\":[\(s.map { String(table.lines[$0]) }.joined(separator: ","))]" }
            case let .review(reason, detail, c):
                out += "\"result\":\"\(c.isEmpty ? "not_found" : "review")\",\"reason\":\"\(reason.rawValue)\",\"detail\":\(LinkTable.jsonString(detail)),\"candidates\":["
                out += c.map { "{\"address_id\":\(LinkTable.jsonString(book.addresses[$0.address].id)),\"score\":\(LinkTable.format($0.score, 3))}" }
                    .joined(separator: ",") + "]"
            }
            out += "}"
        }
        return out + "],\"seconds\":\(LinkTable.format(seconds, 3))}\n"
    }

    /// "94-10 212th Street Apt 2, 11428".
    func oneLine(_ a: Int) -> String {
        let ad = book.addresses[a]
        var s = [ad.number, ad.street].compactMap { $0 }.joined(separator: " ")
        if let u = ad.unit, !u.isEmpty { s += " Unit \(u)" }
        if let p = ad.postcode, !p.isEmpty { s += ", \(p)" }
        return s
    }
}
