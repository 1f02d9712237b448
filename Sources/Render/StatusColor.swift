/// A building's campaign status as the map shows it. Cases are in the product's priority
/// order: a building that qualifies for several shows the first.
public enum MapStatus: String, CaseIterable, Sendable {
    /// A flyer's QR code was scanned (`qr_scanned`, a `qr_scanned`/`scanned` status, or `scans_total` > 0).
    case scanned
    /// Marked `hot` (a lead worth a return visit).
    case hot
    /// Marked `visited`.
    case visited
    /// Anything else: not yet reached.
    case other
    /// No status and no address: nobody to visit. A style may hide these.
    case orphan

    /// The legend's label.
    public var title: String {
        switch self {
        case .scanned: "QR scanned"
        case .hot: "Hot lead"
        case .visited: "Visited"
        case .other: "Not visited"
        case .orphan: "No address"
        }
    }
}

/// The one place that decides how a building is painted; every output and the legend use it.
public enum StatusColor {
    /// The status a building shows, by priority: scanned over hot over visited over the rest.
    /// A building without status whose address is unknown is an orphan.
    public static func status(of b: MapBuilding) -> MapStatus {
        // Statuses are nearly always written in lower case already: lowered only when a byte
        // could change (an ASCII capital, or any non-ASCII byte).
        let s = b.status.map { $0.utf8.contains { $0 >= 0x80 || ($0 >= 0x41 && $0 <= 0x5A) } ? $0.lowercased() : $0 }
        if b.qrScanned || b.scansTotal > 0 || s == "qr_scanned" || s == "scanned" { return .scanned }
        if s == "hot" { return .hot }
        if s == "visited" { return .visited }
        if b.isOrphan { return .orphan }
        return .other
    }

    /// The paint for a status in a style; nil when the style hides it (orphans turned off).
    public static func paint(for status: MapStatus, style: Style) -> StatusPaint? {
        if status == .orphan && !style.showOrphans { return nil }
        return style.statusPaint[status]
    }

    /// The paint of one building; nil when hidden.
    public static func paint(for b: MapBuilding, style: Style) -> StatusPaint? {
        paint(for: status(of: b), style: style)
    }
}
