/// A sheet of die-cut labels: page, label size, grid and margins, in points (1/72 inch),
/// measured from the page's top-left corner.
public struct LabelSheet: Sendable, Equatable {
    public var name: String
    public var pageWidth: Double
    public var pageHeight: Double
    public var labelWidth: Double
    public var labelHeight: Double
    public var columns: Int
    public var rows: Int
    /// From the page's top edge to the first row's top.
    public var top: Double
    /// From the page's left edge to the first column's left.
    public var left: Double
    /// From one column's left edge to the next one's.
    public var pitchX: Double
    /// From one row's top edge to the next one's.
    public var pitchY: Double

    public var perPage: Int { columns * rows }

    /// Avery 5160 (US letter): 30 labels 2.625" × 1", 3 columns of 10, top margin 0.5",
    /// side margin 0.1875", columns 2.75" apart.
    public static let avery5160 = LabelSheet(
        name: "avery-5160", pageWidth: 8.5 * 72, pageHeight: 11 * 72, labelWidth: 2.625 * 72, labelHeight: 72,
        columns: 3, rows: 10, top: 0.5 * 72, left: 0.1875 * 72, pitchX: 2.75 * 72, pitchY: 72)

    /// Avery L7160 (A4): 21 labels 63.5 × 38.1 mm, 3 columns of 7, top margin 15.15 mm, left
    /// margin 7.2 mm, columns 66.04 mm apart.
    public static let averyL7160 = LabelSheet(
        name: "avery-l7160", pageWidth: 210 * pointsPerMillimetre, pageHeight: 297 * pointsPerMillimetre,
        labelWidth: 63.5 * pointsPerMillimetre, labelHeight: 38.1 * pointsPerMillimetre, columns: 3, rows: 7,
        top: 15.15 * pointsPerMillimetre, left: 7.2 * pointsPerMillimetre, pitchX: 66.04 * pointsPerMillimetre,
        pitchY: 38.1 * pointsPerMillimetre)

    public static let all = [avery5160, averyL7160]

    /// The sheet of that name (case ignored), or nil.
    public static func named(_ name: String) -> LabelSheet? { all.first { $0.name == name.lowercased() } }

    /// The rectangle of label `index` (0-based, row by row) on its page.
    public func cell(_ index: Int) -> (x: Double, y: Double, width: Double, height: Double) {
        let i = index % perPage
        return (left + Double(i % columns) * pitchX, top + Double(i / columns) * pitchY, labelWidth, labelHeight)
    }
}
