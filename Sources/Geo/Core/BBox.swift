import Foundation

/// An axis-aligned box, `minX,minY,maxX,maxY` (W,S,E,N in degrees, or metres once projected).
/// An empty box has min > max.
public struct BBox: Hashable, Sendable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }
    public static let empty = BBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

    /// The square of half-side `r` centred on `c`: every point within `r` of `c` lies in it.
    public init(around c: Coord, radius r: Double) {
        self.init(minX: c.x - r, minY: c.y - r, maxX: c.x + r, maxY: c.y + r)
    }

    public init<S: Sequence>(covering coords: S) where S.Element == Coord {
        self = .empty
        for c in coords { expand(c) }
    }
    public var isEmpty: Bool { minX > maxX || minY > maxY }

    @inlinable public mutating func expand(_ c: Coord) {
        if c.x < minX { minX = c.x }; if c.x > maxX { maxX = c.x }
        if c.y < minY { minY = c.y }; if c.y > maxY { maxY = c.y }
    }
    public mutating func expand(_ b: BBox) {
        guard !b.isEmpty else { return }
        minX = Swift.min(minX, b.minX); minY = Swift.min(minY, b.minY)
        maxX = Swift.max(maxX, b.maxX); maxY = Swift.max(maxY, b.maxY)
    }
    /// True when the boxes share at least one point (touching edges count).
    public func intersects(_ o: BBox) -> Bool {
        !isEmpty && !o.isEmpty && minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
    }
    public func contains(_ c: Coord) -> Bool { c.x >= minX && c.x <= maxX && c.y >= minY && c.y <= maxY }
    public func expanded(by d: Double) -> BBox { BBox(minX: minX - d, minY: minY - d, maxX: maxX + d, maxY: maxY + d) }
    /// Distance from `p` to the nearest point of the box (0 inside or on it): never more than
    /// the distance to anything the box holds.
    public func distance(to p: Coord) -> Double {
        let dx = Swift.max(minX - p.x, 0, p.x - maxX), dy = Swift.max(minY - p.y, 0, p.y - maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Parses `W,S,E,N` in degrees. Refuses a box in the wrong order or out of range with a
    /// message that restates the expected form.
    public init(parsing text: String) throws(BBoxError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let w = parts[0], let s = parts[1], let e = parts[2], let n = parts[3],
              w.isFinite, s.isFinite, e.isFinite, n.isFinite else {
            throw BBoxError(text: text, problem: "expected four numbers")
        }
        guard (-180...180).contains(w), (-180...180).contains(e) else {
            throw BBoxError(text: text, problem: "longitude out of range [-180, 180]")
        }
        guard (-90...90).contains(s), (-90...90).contains(n) else {
            throw BBoxError(text: text, problem: "latitude out of range [-90, 90]")
        }
        guard s <= n else { throw BBoxError(text: text, problem: "south (\(s)) is greater than north (\(n))") }
        guard w <= e else { throw BBoxError(text: text, problem: "west (\(w)) is greater than east (\(e))") }
        self.init(minX: w, minY: s, maxX: e, maxY: n)
    }
}

public struct BBoxError: Error, CustomStringConvertible, Sendable {
    public var text: String
    public var problem: String
    public var description: String {
        "bad bbox '\(text)': \(problem); give W,S,E,N in degrees (west,south,east,north), e.g. --bbox -73.75,40.71,-73.74,40.72"
    }
}
