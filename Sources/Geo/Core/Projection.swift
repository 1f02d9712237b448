import CProj

/// A failure inside PROJ.
public struct ProjError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var message: String
    public var description: String { "PROJ \(operation) failed: \(message)" }
}

/// One PROJ transformation from longitude/latitude in degrees (EPSG:4326 axis order lon, lat)
/// to a projected CRS in metres, with its own PROJ context. Confine it to one task.
public final class Projection {
    private let ctx: OpaquePointer
    private let pj: OpaquePointer
    /// The PROJ string or pipeline this projection runs.
    public let definition: String

    /// `definition`: a PROJ pipeline whose forward direction takes degrees (lon, lat).
    public init(pipeline definition: String) throws(ProjError) {
        guard let ctx = proj_context_create() else { throw ProjError(operation: "context", message: "out of memory") }
        proj_log_level(ctx, PJ_LOG_NONE)
        guard let pj = proj_create(ctx, definition) else {
            let msg = String(cString: proj_context_errno_string(ctx, proj_context_errno(ctx)))
            proj_context_destroy(ctx)
            throw ProjError(operation: "create '\(definition)'", message: msg)
        }
        self.ctx = ctx
        self.pj = pj
        self.definition = definition
    }

    deinit {
        if let step { proj_destroy(step) }
        proj_destroy(pj)
        proj_context_destroy(ctx)
    }

    /// A transverse Mercator centred on `origin` (lon, lat in degrees) on the WGS84 ellipsoid:
    /// metres, scale 1 at the central meridian, x east and y north of the origin. Distances
    /// within ~50 km of the origin are off by less than 0.01 %.
    public static func localMetric(around origin: Coord) throws(ProjError) -> Projection {
        try Projection(pipeline: localMetricDefinition(around: origin))
    }

    /// The origin of the local metric projection for these features: the centre of the
    /// buildings' and addresses' extent (0, 0 when both are empty). The linker and the
    /// orientation both use it, so the orientation can reuse the linker's footprints.
    static func localOrigin(_ buildings: [Building], _ addresses: [Address]) -> Coord {
        var e = BBox.extent(of: addresses)
        for b in buildings { e.expand(b.bbox) }
        return e.center ?? Coord(0, 0)
    }

    /// The PROJ pipeline of `localMetric(around:)`.
    static func localMetricDefinition(around origin: Coord) -> String {
        let lon = origin.x.isFinite ? origin.x : 0, lat = origin.y.isFinite ? origin.y : 0
        return "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad " +
            "+step +proj=tmerc +lat_0=\(lat) +lon_0=\(lon) +k=1 +x_0=0 +y_0=0 +ellps=WGS84"
    }

    /// Web Mercator (EPSG:3857) in metres.
    public static func webMercator() throws(ProjError) -> Projection {
        try Projection(pipeline:
            "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad " +
            "+step +proj=webmerc +lat_0=0 +lon_0=0 +x_0=0 +y_0=0 +ellps=WGS84")
    }

    /// Projects coordinates in place (degrees → metres).
    public func forward(_ coords: inout [Coord]) throws(ProjError) { try trans(&coords, PJ_FWD) }
    /// Unprojects coordinates in place (metres → degrees).
    public func inverse(_ coords: inout [Coord]) throws(ProjError) { try trans(&coords, PJ_INV) }

    public func forward(_ c: Coord) throws(ProjError) -> Coord {
        var a = [c]; try forward(&a); return a[0]
    }
    public func inverse(_ c: Coord) throws(ProjError) -> Coord {
        var a = [c]; try inverse(&a); return a[0]
    }

    /// Projects coordinates in place (degrees → metres) in memory the caller owns, so that
    /// parts of one array can be projected on several threads, one `Projection` each. A pipeline
    /// that turns degrees into radians and then runs one step (as `localMetricDefinition` writes)
    /// runs here as that step alone, on radians converted first: PROJ's pipeline costs about a
    /// fifth more time per coordinate, and PROJ converts by the same factor, so the metres are
    /// the same to the bit (`ProjectionTests` holds them to it).
    public func forward(_ coords: UnsafeMutableBufferPointer<Coord>) throws(ProjError) {
        guard let step = try radiansStep() else { return try trans(coords, PJ_FWD) }
        let factor = Double.pi / 180
        for i in coords.indices { coords[i] = Coord(coords[i].x * factor, coords[i].y * factor) }
        try trans(coords, PJ_FWD, on: step)
    }

    /// The pipelines of this form: degrees to radians, then one step.
    private static let degreesToRadians = "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step "
    /// The one step after the conversion, made on first use; nil for any other definition.
    private var step: OpaquePointer?
    private var stepChecked = false

    private func radiansStep() throws(ProjError) -> OpaquePointer? {
        if stepChecked { return step }
        stepChecked = true
        guard definition.hasPrefix(Self.degreesToRadians) else { return nil }
        let rest = String(definition.dropFirst(Self.degreesToRadians.count))
        guard !rest.contains("+step"), !rest.contains("+inv"), let made = proj_create(ctx, rest) else { return nil }
        step = made
        return made
    }

    private func trans(_ coords: inout [Coord], _ dir: PJ_DIRECTION) throws(ProjError) {
        let result: Result<Void, ProjError> = coords.withUnsafeMutableBufferPointer { buffer in
            do throws(ProjError) { try trans(buffer, dir); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }

    private func trans(_ coords: UnsafeMutableBufferPointer<Coord>, _ dir: PJ_DIRECTION, on pj: OpaquePointer? = nil) throws(ProjError) {
        guard let start = coords.baseAddress, !coords.isEmpty else { return }
        let pj = pj ?? self.pj
        let n = coords.count
        let stride = MemoryLayout<Coord>.stride
        let base = UnsafeMutableRawPointer(start).assumingMemoryBound(to: Double.self)
        let failed = proj_trans_generic(pj, dir, base, stride, n, base + 1, stride, n, nil, 0, 0, nil, 0, 0)
        guard failed == n, coords.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            let msg = String(cString: proj_context_errno_string(ctx, proj_errno(pj)))
            proj_errno_reset(pj)
            throw ProjError(operation: "transform", message: msg)
        }
    }
}

/// Geodesic measures on the WGS84 ellipsoid (PROJ's geodesic routines, Karney's algorithm).
public enum Geodesic {
    nonisolated(unsafe) private static var wgs84: geod_geodesic = {
        var g = geod_geodesic()
        geod_init(&g, 6378137.0, 1.0 / 298.257223563)
        return g
    }()

    /// Distance in metres and initial azimuth in degrees clockwise from true north in [0, 360)
    /// from `a` to `b` (lon, lat in degrees). Equal points have no azimuth (nil).
    public static func inverse(_ a: Coord, _ b: Coord) -> (distance: Double, azimuth: Double?) {
        var s12 = 0.0, azi1 = 0.0, azi2 = 0.0
        var g = wgs84
        geod_inverse(&g, a.y, a.x, b.y, b.x, &s12, &azi1, &azi2)
        if s12 == 0 { return (0, nil) }
        var az = azi1.truncatingRemainder(dividingBy: 360)
        if az < 0 { az += 360 }
        if az >= 360 { az = 0 }
        return (s12, az)
    }
}
