import Foundation

/// How bearings are measured against true north.
public enum BearingMethod: String, Sendable, CaseIterable {
    /// Geodesic azimuths on WGS84 (PROJ's geodesic routines) between lon/lat points.
    case geodesic
    /// Grid azimuths in the local transverse Mercator, corrected for meridian convergence.
    case projected
}

public struct OrientationOptions: Sendable {
    /// Road classes a house may face by default (service, footway, motorway and links are not).
    public static let defaultRoadClasses: Set<String> = [
        "primary", "secondary", "tertiary", "residential", "living_street", "unclassified",
    ]
    /// Segment `class` values eligible as the facing road. A segment without a class never is.
    public var roadClasses = OrientationOptions.defaultRoadClasses
    /// The facing road lies within this many metres of the footprint.
    public var radiusMeters = 100.0
    public var method = BearingMethod.geodesic
    public init() {}
}

/// The road a house faces, and which way.
public struct Orientation: Sendable, Equatable {
    public var segmentID: String
    /// Metres from the footprint to the road (0 when they touch).
    public var distance: Double
    /// Axis of the road's sub-segment at the closest point: degrees clockwise from true north,
    /// in [0, 180). Nil when the whole road has no length.
    public var roadBearing: Double?
    /// From the footprint's centre (centroid, or a point on its surface when the centroid
    /// falls outside) to the closest point of the road: degrees clockwise from true north in
    /// [0, 360). Nil when the centre lies on the road.
    public var houseBearing: Double?
}

/// One address's row of `flyr orient`. Not oriented (nil) when no eligible road lies within
/// the radius; bearings are then absent, never 0.
public struct AddressOrientation: Sendable, Equatable {
    public var addressID: String
    /// The building the linker chose; nil when it linked none (the point stands in for it).
    public var buildingID: String?
    public var orientation: Orientation?
    public var isOriented: Bool { orientation != nil }
}

/// The roads addresses face, compact (no texts): row k for the k-th address oriented in id
/// order, as `Orienter.orientAddressFacings` gives them.
public struct AddressFacings: Sendable, Equatable {
    /// The address's index in the addresses oriented.
    public var address: [Int32]
    /// The segment faced: its index in the segments given; -1 when the address is not oriented.
    public var segment: [Int32]
    /// As in `Orientation`; NaN when there is none.
    public var roadBearing: [Double], houseBearing: [Double]

    /// `count` rows, none oriented.
    public init(count: Int) {
        address = [Int32](repeating: -1, count: count)
        segment = [Int32](repeating: -1, count: count)
        roadBearing = [Double](repeating: .nan, count: count)
        houseBearing = roadBearing
    }

    public var count: Int { address.count }

    public static func == (a: AddressFacings, b: AddressFacings) -> Bool {
        func same(_ x: [Double], _ y: [Double]) -> Bool { x.map(\.bitPattern) == y.map(\.bitPattern) }
        return a.address == b.address && a.segment == b.segment && same(a.roadBearing, b.roadBearing)
            && same(a.houseBearing, b.houseBearing)
    }
}

public struct BuildingOrientation: Sendable, Equatable {
    public var buildingID: String
    public var orientation: Orientation?
    public var isOriented: Bool { orientation != nil }
}
