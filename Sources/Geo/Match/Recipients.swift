import Foundation

/// What a column of a recipient list holds.
public enum RecipientField: String, CaseIterable, Sendable {
    case address, number, street, unit, city, postcode, lat, lon, name

    /// Header names read as this field (compared lower-cased, spaces and hyphens as `_`).
    var aliases: [String] {
        switch self {
        case .address: ["address", "addr", "full_address", "street_address", "address_line_1", "address1", "mailing_address", "adresse"]
        case .number: ["number", "house_number", "housenumber", "house_no", "no", "num", "street_number", "nr", "hausnummer"]
        case .street: ["street", "street_name", "streetname", "road", "strasse", "rue"]
        case .unit: ["unit", "apt", "apartment", "suite", "address_line_2", "address2", "unit_number"]
        case .city: ["city", "town", "locality", "postal_city", "ort", "ville"]
        case .postcode: ["postcode", "zip", "zipcode", "zip_code", "postal_code", "postalcode", "plz"]
        case .lat: ["lat", "latitude"]
        case .lon: ["lon", "lng", "long", "longitude"]
        case .name: ["name", "full_name", "recipient", "contact"]
        }
    }
}

/// Which column holds which field: detected from the header's names, each choice overridable.
public struct RecipientColumns: Sendable, Equatable {
    /// Field → column index in the header.
    public var index: [RecipientField: Int]

    /// Detects the columns of `header`, then applies `overrides` (field → column name as in
    /// the header). Throws `RecipientColumnsError` for an override naming no column, or a header
    /// that has neither an address nor a street column.
    public init(header: [String], overrides: [RecipientField: String] = [:]) throws(RecipientColumnsError) {
        func canonical(_ s: String) -> String {
            s.lowercased().trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "_")
                .replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: ".", with: "")
        }
        let names = header.map(canonical)
        var index: [RecipientField: Int] = [:]
        for f in RecipientField.allCases {
            if let i = f.aliases.lazy.compactMap({ names.firstIndex(of: $0) }).first { index[f] = i }
        }
        for (f, column) in overrides {
            guard let i = header.firstIndex(of: column) ?? names.firstIndex(of: canonical(column)) else {
                throw .noSuchColumn(field: f, column: column, header: header)
            }
            index[f] = i
        }
        guard index[.address] != nil || index[.street] != nil else { throw .noAddress(header: header) }
        self.index = index
    }

    /// Parses `--columns address=Addr,number=No`: field=column pairs, commas between.
    public static func overrides(_ spec: String) throws(RecipientColumnsError) -> [RecipientField: String] {
        var out: [RecipientField: String] = [:]
        for pair in spec.split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2, !kv[1].isEmpty, let f = RecipientField(rawValue: kv[0].lowercased()) else {
                throw .badSpec(String(pair))
            }
            out[f] = kv[1]
        }
        return out
    }

    /// The column indices that are none of the fields: carried along as they are.
    public func extras(count: Int) -> [Int] {
        let used = Set(index.values)
        return (0..<count).filter { !used.contains($0) }
    }
}

/// A recipient list's columns cannot be made out.
public enum RecipientColumnsError: Error, CustomStringConvertible, Sendable, Equatable {
    case noSuchColumn(field: RecipientField, column: String, header: [String])
    case noAddress(header: [String])
    case badSpec(String)

    public var description: String {
        switch self {
        case let .noSuchColumn(f, c, h):
            "--columns \(f.rawValue)=\(c): the header has no column '\(c)' (it has: \(h.joined(separator: ", ")))"
        case let .noAddress(h):
            "the header names no address or street column (it has: \(h.joined(separator: ", "))); name one with --columns address=COLUMN or --columns street=COLUMN,number=COLUMN"
        case let .badSpec(s):
            "--columns takes FIELD=COLUMN pairs, FIELD one of \(RecipientField.allCases.map(\.rawValue).joined(separator: ", ")); got '\(s)'"
        }
    }
}

/// One row of a recipient list, read into the parts a match needs.
public struct Recipient: Sendable, Equatable {
    public var number: String?
    public var street: String?
    public var unit: String?
    public var city: String?
    public var postcode: String?
    /// Longitude/latitude in degrees, when both are given.
    public var point: Coord?
    /// Coordinates were given but are not a valid longitude/latitude.
    public var badPoint = false

    public init(number: String? = nil, street: String? = nil, unit: String? = nil, city: String? = nil,
                postcode: String? = nil, point: Coord? = nil) {
        self.number = number; self.street = street; self.unit = unit; self.city = city
        self.postcode = postcode; self.point = point
    }

    /// The row's fields by `columns`: a one-line `address` is split into its parts; a
    /// `street` that holds the number ("94-10 212th St") gives it when no `number` is given.
    public init(row: [String], columns: RecipientColumns) {
        func get(_ f: RecipientField) -> String? {
            guard let i = columns.index[f], i < row.count else { return nil }
            let v = row[i].trimmingCharacters(in: .whitespacesAndNewlines)
            return v.isEmpty ? nil : v
        }
        var line = StreetLine(number: get(.number), street: get(.street), unit: get(.unit))
        if line.street == nil, let a = get(.address) {
            let one = OneLineAddress(a)
            line = StreetLine(number: line.number ?? one.line.number, street: one.line.street, unit: line.unit ?? one.line.unit)
            city = one.city; postcode = one.postcode
        } else if let s = line.street {
            let parsed = StreetLine(s, findNumber: line.number == nil)
            line = StreetLine(number: line.number ?? parsed.number, street: parsed.street, unit: line.unit ?? parsed.unit)
        }
        number = line.number; street = line.street; unit = line.unit
        city = get(.city) ?? city
        postcode = get(.postcode) ?? postcode
        if let la = get(.lat), let lo = get(.lon) {
            if let y = Double(la), let x = Double(lo), abs(y) <= 90, abs(x) <= 180 { point = Coord(x, y) } else { badPoint = true }
        }
    }
}
