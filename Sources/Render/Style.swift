import Foundation

/// A fill pattern drawn over a status colour, for printers without colour.
public enum Hatch: String, CaseIterable, Sendable {
    case none, diagonal, crosshatch, horizontal, vertical, dots
}

/// How buildings of one status are filled.
public struct StatusPaint: Hashable, Sendable {
    public var fill: RGBA
    public var hatch: Hatch
    /// Colour of the hatch lines or dots.
    public var hatchColor: RGBA
    public init(fill: RGBA, hatch: Hatch = .none, hatchColor: RGBA = RGBA(0, 0, 0)) {
        self.fill = fill; self.hatch = hatch; self.hatchColor = hatchColor
    }
}

/// A map style. Lengths are CSS pixels (1/96 in): on paper they scale with the dpi, on a
/// `--size` canvas one style pixel is one image pixel. The JSON keys are listed in the README (Styles).
public struct Style: Equatable, Sendable {
    public var background: RGBA
    /// Font family for every text (fontconfig name, e.g. "DejaVu Sans").
    public var font: String
    public var textColor: RGBA
    /// Background of the title, legend and attribution panels.
    public var panelColor: RGBA

    public var statusPaint: [MapStatus: StatusPaint]
    public var showOrphans: Bool
    public var buildingStroke: RGBA
    public var buildingStrokeWidth: Double

    public var roadColor: RGBA
    public var roadCasing: RGBA
    /// Casing on each side of a road, in style pixels.
    public var roadCasingWidth: Double
    /// Road width by Overture segment class; `default` for any other class.
    public var roadWidths: [String: Double]

    public var labelsVisible: Bool
    public var labelSize: Double
    public var labelColor: RGBA
    public var labelHalo: RGBA
    /// Halo width around label glyphs; 0 for none.
    public var labelHaloWidth: Double
    /// Minimum free space kept around each label, in style pixels.
    public var labelPadding: Double

    /// Street names drawn along their roads (halo as for house-number labels).
    public var streetLabelsVisible: Bool
    public var streetLabelSize: Double
    public var streetLabelColor: RGBA
    /// Least distance between two labels of one street name, style pixels: a long street is
    /// named again every this many pixels.
    public var streetLabelSpacing: Double

    public var titleSize: Double
    public var legendVisible: Bool
    public var legendSize: Double
    public var attributionSize: Double
    /// Appended to the mandatory attribution, after " · ".
    public var attributionExtra: String

    /// Road width in style pixels for an Overture class.
    public func roadWidth(_ roadClass: String?) -> Double {
        roadWidths[roadClass ?? "default"] ?? roadWidths["default"] ?? 3
    }

    /// The product's palette; `styles/default.json` holds the same values.
    public static let `default` = Style(
        background: RGBA(hex: "#f1f5f9")!, font: "DejaVu Sans", textColor: RGBA(hex: "#0f172a")!,
        panelColor: RGBA(hex: "#ffffffe6")!,
        statusPaint: [
            .scanned: StatusPaint(fill: RGBA(hex: "#facc15")!),
            .hot: StatusPaint(fill: RGBA(hex: "#3b82f6")!),
            .visited: StatusPaint(fill: RGBA(hex: "#22c55e")!),
            .other: StatusPaint(fill: RGBA(hex: "#ef4444")!),
            .orphan: StatusPaint(fill: RGBA(hex: "#cbd5e1")!),
        ],
        showOrphans: true, buildingStroke: RGBA(hex: "#475569")!, buildingStrokeWidth: 0.5,
        roadColor: RGBA(hex: "#ffffff")!, roadCasing: RGBA(hex: "#94a3b8")!, roadCasingWidth: 1,
        roadWidths: [
            "motorway": 10, "trunk": 9, "primary": 8, "secondary": 7, "tertiary": 6,
            "residential": 5, "unclassified": 5, "living_street": 4, "service": 3,
            "pedestrian": 2, "footway": 1.5, "path": 1.5, "cycleway": 1.5, "steps": 1.5,
            "track": 2, "default": 3,
        ],
        labelsVisible: true, labelSize: 9, labelColor: RGBA(hex: "#0f172a")!, labelHalo: RGBA(hex: "#ffffffcc")!,
        labelHaloWidth: 2, labelPadding: 2,
        streetLabelsVisible: true, streetLabelSize: 10, streetLabelColor: RGBA(hex: "#334155")!, streetLabelSpacing: 400,
        titleSize: 22, legendVisible: true, legendSize: 12, attributionSize: 10, attributionExtra: "")
}

/// A style file that cannot be used: names the file and the key (`roads.widths.primary`).
public struct StyleError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    /// Dotted path of the offending key; empty for the whole document.
    public var key: String
    public var problem: String
    public var description: String {
        key.isEmpty ? "\(file): \(problem)" : "\(file): key '\(key)': \(problem)"
    }
}

extension Style {
    /// Reads a style file. Keys left out keep their `Style.default` value; an unknown key,
    /// a bad colour or a value of the wrong type is a `StyleError`.
    public static func load(path: String) throws(StyleError) -> Style {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StyleError(file: path, key: "", problem: "cannot read the file")
        }
        return try parse(data, file: path)
    }

    /// Parses style JSON; `file` names it in errors.
    public static func parse(_ data: Data, file: String) throws(StyleError) -> Style {
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw StyleError(file: file, key: "", problem: "invalid JSON: " + jsonProblem(error, in: data))
        }
        var s = Style.default
        let r = StyleReader(file: file)
        let top = try r.object(root, "")
        try r.allow(top, "", ["background", "font", "text_color", "panel", "buildings", "roads", "labels",
                               "street_labels", "title", "legend", "attribution"])
        try r.color(top, "background", "", into: &s.background)
        try r.string(top, "font", "", into: &s.font)
        try r.color(top, "text_color", "", into: &s.textColor)
        try r.color(top, "panel", "", into: &s.panelColor)
        if let b = try top["buildings"].map({ v throws(StyleError) in try r.object(v, "buildings") }) {
            try parseBuildings(b, r, into: &s)
        }
        if let o = try top["roads"].map({ v throws(StyleError) in try r.object(v, "roads") }) {
            try r.allow(o, "roads", ["color", "casing", "casing_width", "widths"])
            try r.color(o, "color", "roads", into: &s.roadColor)
            try r.color(o, "casing", "roads", into: &s.roadCasing)
            try r.number(o, "casing_width", "roads", into: &s.roadCasingWidth)
            if let w = try o["widths"].map({ v throws(StyleError) in try r.object(v, "roads.widths") }) {
                for key in w.keys.sorted() {
                    var width = 0.0
                    try r.number(w, key, "roads.widths", into: &width)
                    s.roadWidths[key] = width
                }
            }
        }
        if let o = try top["labels"].map({ v throws(StyleError) in try r.object(v, "labels") }) {
            try r.allow(o, "labels", ["visible", "size", "color", "halo", "halo_width", "padding"])
            try r.bool(o, "visible", "labels", into: &s.labelsVisible)
            try r.number(o, "size", "labels", into: &s.labelSize)
            try r.color(o, "color", "labels", into: &s.labelColor)
            try r.color(o, "halo", "labels", into: &s.labelHalo)
            try r.number(o, "halo_width", "labels", into: &s.labelHaloWidth)
            try r.number(o, "padding", "labels", into: &s.labelPadding)
        }
        if let o = try top["street_labels"].map({ v throws(StyleError) in try r.object(v, "street_labels") }) {
            try r.allow(o, "street_labels", ["visible", "size", "color", "spacing"])
            try r.bool(o, "visible", "street_labels", into: &s.streetLabelsVisible)
            try r.number(o, "size", "street_labels", into: &s.streetLabelSize)
            try r.color(o, "color", "street_labels", into: &s.streetLabelColor)
            try r.number(o, "spacing", "street_labels", into: &s.streetLabelSpacing)
        }
        if let o = try top["title"].map({ v throws(StyleError) in try r.object(v, "title") }) {
            try r.allow(o, "title", ["size"])
            try r.number(o, "size", "title", into: &s.titleSize)
        }
        if let o = try top["legend"].map({ v throws(StyleError) in try r.object(v, "legend") }) {
            try r.allow(o, "legend", ["visible", "size"])
            try r.bool(o, "visible", "legend", into: &s.legendVisible)
            try r.number(o, "size", "legend", into: &s.legendSize)
        }
        if let o = try top["attribution"].map({ v throws(StyleError) in try r.object(v, "attribution") }) {
            try r.allow(o, "attribution", ["size", "extra"])
            try r.number(o, "size", "attribution", into: &s.attributionSize)
            try r.string(o, "extra", "attribution", into: &s.attributionExtra)
        }
        return s
    }

    /// The `buildings` block: outline, orphans, and the paint of each status.
    private static func parseBuildings(_ b: [String: Any], _ r: StyleReader, into s: inout Style) throws(StyleError) {
        try r.allow(b, "buildings", ["stroke", "stroke_width", "show_orphans", "status"])
        try r.color(b, "stroke", "buildings", into: &s.buildingStroke)
        try r.number(b, "stroke_width", "buildings", into: &s.buildingStrokeWidth)
        try r.bool(b, "show_orphans", "buildings", into: &s.showOrphans)
        if let st = try b["status"].map({ v throws(StyleError) in try r.object(v, "buildings.status") }) {
            try r.allow(st, "buildings.status", MapStatus.allCases.map(\.rawValue))
            for status in MapStatus.allCases {
                guard let v = st[status.rawValue] else { continue }
                let path = "buildings.status.\(status.rawValue)"
                let o = try r.object(v, path)
                try r.allow(o, path, ["fill", "hatch", "hatch_color"])
                var paint = s.statusPaint[status]!
                try r.color(o, "fill", path, into: &paint.fill)
                try r.color(o, "hatch_color", path, into: &paint.hatchColor)
                var hatch = paint.hatch.rawValue
                try r.string(o, "hatch", path, into: &hatch)
                guard let h = Hatch(rawValue: hatch) else {
                    throw StyleError(file: r.file, key: path + ".hatch", problem:
                        "unknown hatch '\(hatch)'; use one of \(Hatch.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                paint.hatch = h
                s.statusPaint[status] = paint
            }
        }
    }
}

/// What Foundation's JSON parser objects to, with the line and column when it names a byte
/// offset ("around character 8").
private func jsonProblem(_ error: Error, in data: Data) -> String {
    let text = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? error.localizedDescription
    guard let r = text.range(of: "around character "),
          let offset = Int(text[r.upperBound...].prefix { $0.isNumber }), offset <= data.count else { return text }
    let before = data.prefix(offset)
    let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    let column = offset - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
    return "\(text) (line \(line), column \(column))"
}

/// Typed reads from parsed JSON that name the file and the key when they fail.
private struct StyleReader {
    let file: String

    func fail(_ key: String, _ problem: String) -> StyleError { StyleError(file: file, key: key, problem: problem) }
    func join(_ parent: String, _ key: String) -> String { parent.isEmpty ? key : parent + "." + key }

    func object(_ v: Any, _ path: String) throws(StyleError) -> [String: Any] {
        guard let o = v as? [String: Any] else { throw fail(path, "expected an object") }
        return o
    }
    func allow(_ o: [String: Any], _ path: String, _ keys: [String]) throws(StyleError) {
        for k in o.keys.sorted() where !keys.contains(k) {
            throw fail(join(path, k), "unknown key; known keys here: \(keys.joined(separator: ", "))")
        }
    }
    func color(_ o: [String: Any], _ key: String, _ path: String, into out: inout RGBA) throws(StyleError) {
        guard let v = o[key] else { return }
        guard let s = v as? String, let c = RGBA(hex: s) else {
            throw fail(join(path, key), "bad color \(Self.show(v)); use #rgb, #rrggbb or #rrggbbaa")
        }
        out = c
    }
    func number(_ o: [String: Any], _ key: String, _ path: String, into out: inout Double) throws(StyleError) {
        guard let v = o[key] else { return }
        guard !(v is String), let d = (v as? NSNumber)?.doubleValue, d.isFinite, d >= 0 else {
            throw fail(join(path, key), "expected a number >= 0, got \(Self.show(v))")
        }
        out = d
    }
    func bool(_ o: [String: Any], _ key: String, _ path: String, into out: inout Bool) throws(StyleError) {
        guard let v = o[key] else { return }
        guard let b = v as? Bool else { throw fail(join(path, key), "expected true or false, got \(Self.show(v))") }
        out = b
    }
    func string(_ o: [String: Any], _ key: String, _ path: String, into out: inout String) throws(StyleError) {
        guard let v = o[key] else { return }
        guard let s = v as? String else { throw fail(join(path, key), "expected a string, got \(Self.show(v))") }
        out = s
    }
    static func show(_ v: Any) -> String { v is String ? "'\(v)'" : "\(v)" }
}
