import Foundation

/// A flyer template that cannot be used: bad JSON, an unknown page, or a box off its page.
public struct TemplateError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var message: String
    public var description: String { "\(file): \(message)" }
}

/// A rectangle on a page, in millimetres from its top-left corner.
public struct PageBox: Codable, Sendable, Equatable {
    public var x_mm: Double
    public var y_mm: Double
    public var width_mm: Double
    public var height_mm: Double

    public init(x_mm: Double, y_mm: Double, width_mm: Double, height_mm: Double) {
        self.x_mm = x_mm; self.y_mm = y_mm; self.width_mm = width_mm; self.height_mm = height_mm
    }

    func overlaps(_ o: PageBox) -> Bool {
        x_mm < o.x_mm + o.width_mm && o.x_mm < x_mm + width_mm && y_mm < o.y_mm + o.height_mm && o.y_mm < y_mm + height_mm
    }
}

/// One flyer a page: the page size, where the QR code, the address block, an optional small
/// map of the house and an optional headline go. JSON, lengths in millimetres, e.g.
/// `{"page": "a6", "landscape": true, "safe_margin_mm": 4, "qr": {"x_mm": 95, "y_mm": 45,
/// "size_mm": 45}, "address": {"x_mm": 8, "y_mm": 60, "width_mm": 80, "height_mm": 30}}`.
public struct FlyerTemplate: Codable, Sendable, Equatable {
    public struct QRBox: Codable, Sendable, Equatable {
        public var x_mm: Double
        public var y_mm: Double
        /// The code's side, quiet zone included.
        public var size_mm: Double
    }
    public struct TextBox: Codable, Sendable, Equatable {
        public var x_mm: Double
        public var y_mm: Double
        public var width_mm: Double
        public var height_mm: Double
        /// The largest size tried, shrunk until the text fits (points; default 12).
        public var font_size_pt: Double?
        /// The headline's text (unused for the address block).
        public var text: String?
        var box: PageBox { PageBox(x_mm: x_mm, y_mm: y_mm, width_mm: width_mm, height_mm: height_mm) }
    }

    /// letter, legal, a4, a5, a6 or postcard (4 × 6 in); or give page_width_mm and page_height_mm.
    public var page: String?
    public var page_width_mm: Double?
    public var page_height_mm: Double?
    public var landscape: Bool?
    /// No box may come closer than this to the page's edge (default 3 mm).
    public var safe_margin_mm: Double?
    public var qr: QRBox
    public var address: TextBox
    public var headline: TextBox?
    public var map: PageBox?

    static let pages: [String: (Double, Double)] = [
        "letter": (215.9, 279.4), "legal": (215.9, 355.6), "a4": (210, 297), "a5": (148, 210), "a6": (105, 148),
        "postcard": (101.6, 152.4),
    ]

    /// Smallest QR side accepted: a 37-module code (a version 3 with its quiet zone) keeps
    /// modules of 0.4 mm, what phone cameras read from arm's length.
    static let minimumQRMillimetres = 15.0

    /// The page's width and height in millimetres.
    public var pageSize: (width: Double, height: Double) {
        var (w, h) = page.flatMap { Self.pages[$0.lowercased()] } ?? (page_width_mm ?? 0, page_height_mm ?? 0)
        if landscape == true { (w, h) = (h, w) }
        return (w, h)
    }

    /// Reads and checks a template file.
    public static func load(_ path: String) throws -> FlyerTemplate {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw TemplateError(file: path, message: "cannot read the template: \(error.localizedDescription)")
        }
        let t: FlyerTemplate
        do { t = try JSONDecoder().decode(FlyerTemplate.self, from: data) } catch let DecodingError.keyNotFound(key, context) {
            throw TemplateError(file: path, message: "missing \"\(key.stringValue)\" in \(Self.where(context))")
        } catch let DecodingError.typeMismatch(_, context) {
            throw TemplateError(file: path, message: "wrong type at \(Self.where(context)): \(context.debugDescription)")
        } catch {
            throw TemplateError(file: path, message: "not a template JSON: \(error)")
        }
        try t.check(path)
        return t
    }

    private static func `where`(_ c: DecodingError.Context) -> String {
        c.codingPath.isEmpty ? "the template" : c.codingPath.map(\.stringValue).joined(separator: ".")
    }

    /// Every box on the page inside the safe margin, with a positive size; QR and address apart.
    public func check(_ file: String) throws {
        if let page, Self.pages[page.lowercased()] == nil {
            throw TemplateError(file: file, message: "unknown page \"\(page)\": use \(Self.pages.keys.sorted().joined(separator: ", ")) or page_width_mm and page_height_mm")
        }
        let (w, h) = pageSize
        guard w > 0, h > 0, w <= 1200, h <= 1200 else {
            throw TemplateError(file: file, message: "give \"page\" or page_width_mm and page_height_mm (1 to 1200 mm)")
        }
        let margin = safe_margin_mm ?? 3
        guard margin >= 0, 2 * margin < min(w, h) else { throw TemplateError(file: file, message: "safe_margin_mm \(margin) leaves no page") }
        guard qr.size_mm >= Self.minimumQRMillimetres else {
            throw TemplateError(file: file, message: "qr.size_mm \(qr.size_mm) is below \(Self.minimumQRMillimetres) mm, too small to scan")
        }
        let qrBox = PageBox(x_mm: qr.x_mm, y_mm: qr.y_mm, width_mm: qr.size_mm, height_mm: qr.size_mm)
        var boxes = [("qr", qrBox), ("address", address.box)]
        if let headline { boxes.append(("headline", headline.box)) }
        if let map { boxes.append(("map", map)) }
        for (name, b) in boxes {
            guard b.width_mm > 0, b.height_mm > 0, b.x_mm >= margin, b.y_mm >= margin,
                  b.x_mm + b.width_mm <= w - margin, b.y_mm + b.height_mm <= h - margin else {
                throw TemplateError(file: file, message: """
                    \(name) (x \(b.x_mm), y \(b.y_mm), \(b.width_mm) × \(b.height_mm) mm) does not fit the \
                    \(w) × \(h) mm page inside its \(margin) mm safe margin
                    """)
            }
        }
        for (i, (n1, b1)) in boxes.enumerated() {
            for (n2, b2) in boxes[(i + 1)...] where b1.overlaps(b2) {
                throw TemplateError(file: file, message: "\(n1) and \(n2) overlap")
            }
        }
    }
}
