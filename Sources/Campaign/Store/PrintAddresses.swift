import Foundation
import GRDB
import Geo

/// An address as print needs it: its walking order, postal lines and QR slug.
public struct PrintAddress: Sendable, Equatable {
    /// Walking order, from 1.
    public var seq: Int
    public var addressID: String
    /// Number and street: "81-42 243rd Street".
    public var line1: String
    /// "Unit 2", or empty.
    public var line2: String
    public var city: String
    public var region: String
    public var postcode: String
    public var country: String
    /// The one-line form: "81-42 243rd Street, Unit 2, QUEENS, NY 11426".
    public var formatted: String
    public var slug: String?
    /// The address's point (degrees), and its building's footprint when asked for.
    public var location: Coord?
    public var footprint: [PolygonCoords] = []

    /// City, region and postcode on one line: "QUEENS, NY 11426" (parts left out when empty).
    public var lastLine: String {
        let tail = [region, postcode].filter { !$0.isEmpty }.joined(separator: " ")
        return [city, tail].filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// The address block, top to bottom, without empty lines.
    public var lines: [String] { [line1, line2, lastLine].filter { !$0.isEmpty } }
}

/// A QR base URL that cannot be used.
public struct QRBaseURLError: Error, CustomStringConvertible, Sendable {
    public var url: String
    public var description: String {
        "bad QR base URL \"\(url)\": give http:// or https://, a host and no query, e.g. https://flyrpro.app"
    }
}

/// The links the campaign's QR codes hold: BASE/q/SLUG.
public enum QRLink {
    public static let defaultBase = "https://flyrpro.app"

    /// `base` checked (http or https, a host, no query, fragment or blanks) and without a
    /// trailing slash.
    public static func checkedBase(_ base: String) throws(QRBaseURLError) -> String {
        var b = base
        while b.hasSuffix("/") { b.removeLast() }
        guard let u = URLComponents(string: b), let scheme = u.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = u.host, !host.isEmpty, u.query == nil, u.fragment == nil,
              !b.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x21 }) else {
            throw QRBaseURLError(url: base)
        }
        return b
    }

    public static func url(base: String, slug: String) -> String { base + "/q/" + slug }
}

extension CampaignStore {
    /// The campaign's QR base URL (the default when none was set or the file predates the setting).
    public func qrBaseURL() throws -> String {
        try db.read { db in
            guard try db.columns(in: "campaigns").contains(where: { $0.name == "qr_base_url" }) else { return QRLink.defaultBase }
            return try String.fetchOne(db, sql: "SELECT qr_base_url FROM campaigns WHERE id = ?", arguments: [campaignID])
                ?? QRLink.defaultBase
        }
    }

    /// Sets the campaign's QR base URL (checked first); returns it as stored.
    @discardableResult
    public func setQRBaseURL(_ url: String) throws -> String {
        let base = try QRLink.checkedBase(url)
        try db.write { db in
            try db.execute(sql: "UPDATE campaigns SET qr_base_url = ? WHERE id = ?", arguments: [base, campaignID])
        }
        return base
    }

    /// Addresses that have no QR slug.
    public func addressesWithoutSlug() throws -> Int {
        try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM campaign_addresses WHERE qr_slug IS NULL OR qr_slug = ''") ?? 0 }
    }

    /// Calls `body` with each address in walking order, read one at a time in one read
    /// transaction; with `footprints`, its location and its building's footprint too.
    public func forEachPrintAddress(footprints: Bool = false, _ body: (PrintAddress) throws -> Void) throws {
        try db.read { db in
            let rows = try RawRows(db, sql: """
                SELECT a.seq, a.gers_id, a.number, a.street, a.unit, a.postal_city, a.address_levels, a.postcode, a.country,
                       a.formatted, a.qr_slug\(footprints ? ", a.geom, b.geom" : "")
                FROM campaign_addresses a\(footprints ? " LEFT JOIN buildings b ON b.gers_id = a.building_gers_id" : "")
                ORDER BY a.seq
                """)
            while try rows.next() {
                let levels = AddressFormat.levelValues(rows.text(6))
                let line1 = [rows.text(2), rows.text(3)].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
                let unit = rows.text(4) ?? ""
                var location: Coord?
                var footprint: [PolygonCoords] = []
                if footprints {
                    if !rows.isNull(11), case .point(let p) = try GeoPackageGeometry.decode(bytes: rows.blob(11)) { location = p }
                    if !rows.isNull(12), case .multiPolygon(let ps) = try GeoPackageGeometry.decode(bytes: rows.blob(12)) { footprint = ps }
                }
                try body(PrintAddress(
                    seq: rows.int(0), addressID: rows.text(1) ?? "", line1: line1, line2: unit.isEmpty ? "" : "Unit " + unit,
                    city: rows.text(5) ?? (levels.count > 1 ? levels[1] : ""), region: levels.first ?? "",
                    postcode: rows.text(7) ?? "", country: rows.text(8) ?? "", formatted: rows.text(9) ?? "",
                    slug: rows.text(10), location: location, footprint: footprint))
            }
        }
    }
}

/// The VDP (variable data printing) manifest: one CSV row per address, the columns a print
/// shop's merge tool takes. A value starting with =, +, -, @, tab or carriage return gets a
/// leading apostrophe, so that a spreadsheet does not run it as a formula.
public enum VDPManifest {
    public static let header = "sequence,address_id,address_line1,address_line2,city,region,postcode,country,formatted,qr_slug,qr_url,qr_file"

    /// One row (with its newline); `file` is the QR image's name.
    public static func row(_ a: PrintAddress, url: String, file: String) -> String {
        let fields = [String(a.seq), a.addressID, a.line1, a.line2, a.city, a.region, a.postcode, a.country, a.formatted,
                      a.slug ?? "", url, file]
        return fields.map { LinkTable.csvField(neutralised($0)) }.joined(separator: ",") + "\n"
    }

    /// `value` with a leading apostrophe when a spreadsheet would read it as a formula.
    public static func neutralised(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return value }
        return "'" + value
    }
}

/// A campaign whose addresses cannot all be printed.
public struct PrintInputError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}

extension CampaignStore {
    /// The number of addresses, after checking that every one has a QR slug.
    public func checkedPrintCount() throws -> Int {
        let missing = try addressesWithoutSlug()
        let total = try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM campaign_addresses") ?? 0 }
        guard missing == 0 else {
            throw PrintInputError(message: "\(path): \(missing) of \(total) addresses have no QR slug; provision the campaign again (flyr provision … -o \(path) --force) to give them one")
        }
        guard total > 0 else { throw PrintInputError(message: "\(path): the campaign has no addresses") }
        return total
    }
}
