/// Where a layer's points lie against the buildings: catches an addresses file written as
/// `[latitude, longitude]`, whose points are all in range yet far from every building.
public enum ExtentCheck {
    /// How far outside the buildings' bbox an address may lie before it counts as far, in
    /// degrees (0.05° is about 5.5 km north–south).
    public static let margin = 0.05

    public enum Finding: Equatable, Sendable {
        /// Most addresses lie far outside the buildings' extent, and swapping their two
        /// ordinates brings most of them inside it.
        case swapped(outside: Int, total: Int)
        /// Most addresses lie far outside the buildings' extent.
        case outside(outside: Int, total: Int)
    }

    /// A finding when more than half of the addresses lie farther than `margin` outside the
    /// buildings' bbox; nil when they do not, or when either layer is empty.
    public static func check(buildings: [Building], addresses: [Address]) -> Finding? {
        var extent = BBox.empty
        for b in buildings { extent.expand(b.bbox) }
        guard !extent.isEmpty, !addresses.isEmpty else { return nil }
        let near = extent.expanded(by: margin)
        var outside = 0, insideSwapped = 0
        for a in addresses where !near.contains(a.point) {
            outside += 1
            if near.contains(Coord(a.point.y, a.point.x)) { insideSwapped += 1 }
        }
        guard 2 * outside > addresses.count else { return nil }
        return 2 * insideSwapped > outside ? .swapped(outside: outside, total: addresses.count)
                                           : .outside(outside: outside, total: addresses.count)
    }
}
