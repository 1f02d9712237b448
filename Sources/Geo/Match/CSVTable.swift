import Foundation

/// A CSV table read whole under RFC 4180: a header line of column names, then records of as
/// many fields; fields may be quoted (`"…"`, a quote doubled inside), and a quoted field may
/// hold commas and line breaks. Lines end in LF or CRLF; a UTF-8 byte order mark is skipped;
/// blank lines are skipped.
public struct CSVTable: Sendable {
    /// The column names as written in the header (surrounding spaces trimmed).
    public var header: [String]
    /// The records, each with `header.count` fields.
    public var rows: [[String]]
    /// By record: the 1-based line of the file where it starts.
    public var lines: [Int]

    public init(header: [String], rows: [[String]], lines: [Int]) {
        self.header = header; self.rows = rows; self.lines = lines
    }

    /// Reads a CSV file ('-' reads stdin).
    public static func load(_ path: String) throws(InputError) -> CSVTable {
        let data: Data?
        if path == "-" { data = FileHandle.standardInput.readDataToEndOfFile() } else {
            guard FileManager.default.fileExists(atPath: path) else {
                throw InputError(.fileNotFound, file: path, detail: "no such recipient list")
            }
            data = FileManager.default.contents(atPath: path)
        }
        guard let data else { throw InputError(.unreadable, file: path, detail: "cannot read the recipient list") }
        return try parse(data, file: path)
    }

    /// Parses CSV bytes; `file` names the source in errors. Throws `InputError.badValue` naming
    /// the line of an unterminated quote, a stray quote, a record whose field count differs
    /// from the header's, an empty or repeated column name, or a missing header.
    public static func parse(_ data: Data, file: String) throws(InputError) -> CSVTable {
        guard let text = String(validating: data, as: UTF8.self) else {
            throw InputError(.invalidEncoding, file: file, line: firstBadLine(data),
                             detail: "the recipient list is not UTF-8 text (save it as CSV UTF-8)")
        }
        var records: [(line: Int, fields: [String])] = []
        try split(Array(text.utf8), file: file) { records.append(($0, $1)) }
        guard let head = records.first else {
            throw InputError(.badValue, file: file, line: 1, detail: "empty file: expected a header line such as address,city,postcode")
        }
        let header = head.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        var seen: Set<String> = []
        for (i, name) in header.enumerated() {
            if name.isEmpty {
                throw InputError(.badValue, file: file, line: head.line, detail: "column \(i + 1) of the header has no name")
            }
            if !seen.insert(name.lowercased()).inserted {
                throw InputError(.badValue, file: file, line: head.line, detail: "the header names the column '\(name)' twice")
            }
        }
        var rows: [[String]] = [], lines: [Int] = []
        rows.reserveCapacity(records.count - 1); lines.reserveCapacity(records.count - 1)
        for r in records.dropFirst() {
            guard r.fields.count == header.count else {
                throw InputError(.badValue, file: file, line: r.line,
                                 detail: "the record has \(r.fields.count) field(s), the header \(header.count) (quote a field that holds a comma)")
            }
            rows.append(r.fields); lines.append(r.line)
        }
        return CSVTable(header: header, rows: rows, lines: lines)
    }

    /// Splits the bytes into records, calling `record(line, fields)` for each non-blank one.
    static func split(_ b: [UInt8], file: String, _ record: (Int, [String]) -> Void) throws(InputError) {
        var i = b.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1, fields: [String] = [], field: [UInt8] = [], recordLine = 1
        func endField() { fields.append(String(decoding: field, as: UTF8.self)); field.removeAll(keepingCapacity: true) }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) { record(recordLine, fields) }
            fields.removeAll(keepingCapacity: true)
        }
        var atFieldStart = true
        while i < b.count {
            let c = b[i]
            if atFieldStart && c == 34 {  // a quoted field, up to its closing quote
                let opened = line
                i += 1
                while true {
                    guard i < b.count else {
                        throw InputError(.badValue, file: file, line: opened, detail: "a quoted field opened on this line is never closed")
                    }
                    if b[i] == 34 {
                        if i + 1 < b.count && b[i + 1] == 34 { field.append(34); i += 2; continue }
                        i += 1; break
                    }
                    if b[i] == 10 { line += 1 }
                    field.append(b[i]); i += 1
                }
                if i < b.count, b[i] != 44, b[i] != 10, !(b[i] == 13 && (i + 1 == b.count || b[i + 1] == 10)) {
                    throw InputError(.badValue, file: file, line: line, detail: "text after the closing quote of a field (a quote inside a field is written twice: \"\")")
                }
                atFieldStart = false
                continue
            }
            atFieldStart = false
            switch c {
            case 44: endField(); atFieldStart = true
            case 10: endRecord(); line += 1; recordLine = line; atFieldStart = true
            case 13 where i + 1 < b.count && b[i + 1] == 10: break
            case 34:
                throw InputError(.badValue, file: file, line: line, detail: "a quote inside an unquoted field (quote the whole field and write the quote twice)")
            default: field.append(c)
            }
            i += 1
        }
        if !fields.isEmpty || !field.isEmpty || !atFieldStart { endRecord() }
    }

    /// The 1-based line of the first byte that is not UTF-8 (by decoding line by line).
    static func firstBadLine(_ data: Data) -> Int {
        var line = 1
        for chunk in data.split(separator: 10, omittingEmptySubsequences: false) {
            if String(validating: chunk, as: UTF8.self) == nil { return line }
            line += 1
        }
        return line
    }
}
