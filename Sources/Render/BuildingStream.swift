import Geo

/// Buildings read together for drawing: every ring's vertices one after another (degrees as
/// read; the renderer projects them in place), rings as ranges of `coords`, and each building
/// with its rings as a range of `rings`.
public struct BuildingBatch {
    public struct Member {
        /// The reader's key for the building (`BuildingReader.labels(keys:)`).
        public var key: Int64
        public var rings: Range<Int>
        /// Its state; `polygons` empty (the rings are the batch's) and `label` nil (asked for
        /// only where one could fit).
        public var building: MapBuilding
        public init(key: Int64, rings: Range<Int>, building: MapBuilding) { self.key = key; self.rings = rings; self.building = building }
    }
    public var coords: [Coord]
    public var rings: [Range<Int>]
    public var members: [Member]
    public init(coords: [Coord] = [], rings: [Range<Int>] = [], members: [Member] = []) {
        self.coords = coords; self.rings = rings; self.members = members
    }
}

/// The stored order of buildings is not their draw order: read again with `sortFirst`.
public struct BuildingOrderError: Error, CustomStringConvertible, Sendable {
    public var detail: String
    public init(_ detail: String) { self.detail = detail }
    public var description: String { detail }
}

/// Reads buildings for one view, used by one thread at a time.
public protocol BuildingReader: AnyObject {
    /// Calls `body` with successive batches of the buildings whose box may meet `area`
    /// (degrees; a reader may hand over a few more, never fewer) in draw order: ascending id,
    /// bytewise. Without `sortFirst` a reader may follow its stored order and throw
    /// `BuildingOrderError` when that is not the draw order; with it, it sorts first.
    func read(area: BBox, sortFirst: Bool, _ body: (inout BuildingBatch) throws -> Void) throws
    /// House numbers by key; a building without one is absent.
    func labels(keys: [Int64]) throws -> [Int64: String]
    /// Buildings read so far, counted as they come from storage.
    var buildingsRead: Int { get }
    func close() throws
}

/// A map whose buildings are read per view, never all at once: everything else (title, roads)
/// is loaded.
public protocol StreamingMapSource {
    /// The map without its buildings: title, attribution, roads.
    func loadOverlay() throws -> MapData
    /// The buildings' extent in degrees, exactly as their shells' boxes; empty when none.
    func buildingExtent() throws -> BBox
    /// A new reader, for one thread.
    func openReader() throws -> BuildingReader
}

/// A house number that may be placed: its building's box and interior point, pixels.
struct HouseNumberCandidate {
    var label: String
    var box: BBox
    var interior: Coord?
}
