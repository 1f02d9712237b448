/// An Overture layer, and the GeoJSON geometry types its features may have.
public enum Layer: String, Sendable, CaseIterable {
    case buildings, addresses, segments

    /// Geometry types accepted for this layer.
    var geometryTypes: [GeometryType] {
        switch self {
        case .buildings: [.polygon, .multiPolygon]
        case .addresses: [.point]
        case .segments: [.lineString]
        }
    }

    /// Properties read for this layer, in slot order.
    var schema: [PropertySpec] {
        switch self {
        case .buildings: PropertySpec.buildings
        case .addresses: PropertySpec.addresses
        case .segments: PropertySpec.segments
        }
    }
}

/// A feature type the GeoJSON reader can produce.
public protocol OvertureFeature: Sendable, Equatable {
    static var layer: Layer { get }
    var id: String { get }
    /// Bounding box of the geometry, in degrees.
    var bbox: BBox { get }
    /// True when both features have exactly the same coordinates.
    func hasSameGeometry(as other: Self) -> Bool
}

extension Building: OvertureFeature {
    public static var layer: Layer { .buildings }
    public func hasSameGeometry(as other: Building) -> Bool { footprint == other.footprint }
}

extension Address: OvertureFeature {
    public static var layer: Layer { .addresses }
    public func hasSameGeometry(as other: Address) -> Bool { point == other.point }
}

extension Segment: OvertureFeature {
    public static var layer: Layer { .segments }
    public func hasSameGeometry(as other: Segment) -> Bool { line == other.line }
}

/// GeoJSON geometry types, by their `type` member.
enum GeometryType: String {
    case point = "Point", lineString = "LineString", polygon = "Polygon"
    case multiPoint = "MultiPoint", multiLineString = "MultiLineString", multiPolygon = "MultiPolygon"
    case geometryCollection = "GeometryCollection"
}

enum ParsedGeometry {
    case point(Coord)
    case lineString([Coord])
    case footprint(Footprint)
}

/// How a property's JSON value is read.
enum PropertyKind {
    /// A string; null means absent.
    case string
    /// A number; null means absent.
    case number
    /// An integral number; null means absent.
    case integer
    /// An object or array kept as its exact text; null means absent.
    case raw
    /// Like `raw`, and its string member `primary` is read as well.
    case rawWithPrimary
}

struct PropertySpec {
    let key: StaticString
    let kind: PropertyKind
    /// Values recur from feature to feature (a street, a region): read through the interner
    /// so the repeats share one string.
    let shared: Bool
    init(_ key: StaticString, _ kind: PropertyKind, shared: Bool = false) { self.key = key; self.kind = kind; self.shared = shared }

    static let buildings = [
        PropertySpec("height", .number), PropertySpec("num_floors", .integer),
        PropertySpec("subtype", .string, shared: true), PropertySpec("class", .string, shared: true),
        PropertySpec("names", .raw), PropertySpec("sources", .raw),
    ]
    static let addresses = [
        PropertySpec("number", .string), PropertySpec("street", .string, shared: true), PropertySpec("unit", .string),
        PropertySpec("postcode", .string, shared: true), PropertySpec("postal_city", .string, shared: true),
        PropertySpec("country", .string, shared: true), PropertySpec("address_levels", .raw, shared: true),
        PropertySpec("sources", .raw),
    ]
    static let segments = [
        PropertySpec("subtype", .string, shared: true), PropertySpec("class", .string, shared: true),
        PropertySpec("subclass", .string, shared: true), PropertySpec("names", .rawWithPrimary, shared: true),
        PropertySpec("sources", .raw),
    ]
}

enum PropertyValue {
    case string(String)
    case number(Double)
    case integer(Int)
    case raw(String, primary: String?)

    var string: String? { if case .string(let s) = self { s } else { nil } }
    var number: Double? { if case .number(let v) = self { v } else { nil } }
    var integer: Int? { if case .integer(let v) = self { v } else { nil } }
    var raw: String? { if case .raw(let s, _) = self { s } else { nil } }
    var primary: String? { if case .raw(_, let p) = self { p } else { nil } }
}

/// One feature as read, before it becomes a model type.
struct ParsedFeature {
    var id: String
    var geometry: ParsedGeometry
    /// A `features` array came before any `"type": "Feature"`: read as a top-level value, the
    /// object may be a FeatureCollection.
    var mayBeCollection = false

    /// The model feature, with the property values `feature(_:knownID:)` left in the scanner's
    /// `scratch.properties`.
    func make<F: OvertureFeature>(_: F.Type, properties p: [PropertyValue?]) -> F {
        switch (F.layer, geometry) {
        case (.buildings, .footprint(let footprint)):
            return Building(id: id, footprint: footprint, height: p[0]?.number, numFloors: p[1]?.integer,
                            subtype: p[2]?.string, buildingClass: p[3]?.string,
                            namesJSON: p[4]?.raw, sourcesJSON: p[5]?.raw) as! F
        case (.addresses, .point(let point)):
            return Address(id: id, point: point, number: p[0]?.string, street: p[1]?.string, unit: p[2]?.string,
                           postcode: p[3]?.string, postalCity: p[4]?.string, country: p[5]?.string,
                           addressLevelsJSON: p[6]?.raw, sourcesJSON: p[7]?.raw) as! F
        case (.segments, .lineString(let line)):
            return Segment(id: id, line: line, subtype: p[0]?.string, segmentClass: p[1]?.string,
                           subclass: p[2]?.string, name: p[3]?.primary, namesJSON: p[3]?.raw,
                           sourcesJSON: p[4]?.raw) as! F
        default:
            preconditionFailure("geometry was checked against the layer while parsing")
        }
    }
}

extension JSONScanner {
    /// Parses one GeoJSON Feature object for `layer`. `knownID` is set as soon as the id is read,
    /// so a caller can name it in an error.
    mutating func feature(_ layer: Layer, knownID: inout String?) throws(ScanError) -> ParsedFeature {
        var id: String?
        var propertiesID: String?
        var geometry: ParsedGeometry?
        let schema = layer.schema
        // The values go to a buffer lent by the reader, taken out of `scratch` while this
        // method writes it (and put back, read or not): no array is made per feature.
        var properties: [PropertyValue?] = []
        swap(&properties, &scratch.properties)
        if properties.count == schema.count {
            for slot in properties.indices { properties[slot] = nil }
        } else {
            properties = Array(repeating: nil, count: schema.count)
        }
        defer { swap(&properties, &scratch.properties) }
        var typed = false, mayBeCollection = false
        guard try nextKind() == .object else { throw ScanError(.notGeoJSON, "expected a Feature object") }
        if try beginObject() {
            repeat {
                let k = try key()
                if keyIs(k, "type") {
                    guard try nextKind() == .string else { throw ScanError(.notGeoJSON, "feature type is not a string") }
                    let type = try string()
                    guard type == "Feature" else {
                        throw ScanError(.notGeoJSON, "expected an object of type Feature, found type \(type)")
                    }
                    typed = true
                } else if keyIs(k, "id") {
                    id = try featureID()
                    if id != nil { knownID = id }
                } else if keyIs(k, "geometry") {
                    switch try nextKind() {
                    case .null: try literal("null")
                    case .object: geometry = try self.geometry(layer)
                    case let kind: throw ScanError(.notGeoJSON, "geometry is \(kind == .array ? "an" : "a") \(kind.rawValue), expected an object")
                    }
                } else if keyIs(k, "properties") {
                    switch try nextKind() {
                    case .null: try literal("null")
                    case .object:
                        try self.properties(schema, into: &properties, id: &propertiesID)
                        if knownID == nil, let propertiesID { knownID = propertiesID }
                    case let kind: throw ScanError(.notGeoJSON, "properties is \(kind == .array ? "an" : "a") \(kind.rawValue), expected an object")
                    }
                } else {
                    if !typed, keyIs(k, "features"), try nextKind() == .array { mayBeCollection = true }
                    try skipValue()
                }
            } while try more(Byte.closeBrace)
        }
        guard let id = id ?? propertiesID else {
            throw ScanError(.missingID, "feature has no id (neither at top level nor in properties)")
        }
        guard let geometry else { throw ScanError(.missingGeometry, "feature has no geometry") }
        return ParsedFeature(id: id, geometry: geometry, mayBeCollection: mayBeCollection)
    }

    /// An id value: a string as is, a number as its literal text, null as nil.
    mutating func featureID() throws(ScanError) -> String? {
        switch try nextKind() {
        case .string:
            let s = try string()
            guard !s.isEmpty else { throw ScanError(.missingID, "id is an empty string") }
            return s
        case .number:
            let n = try number()
            return text(n.start, n.end)
        case .null:
            try literal("null")
            return nil
        case let kind:
            throw ScanError(.badID, "id is \(kind == .array || kind == .object ? "an" : "a") \(kind.rawValue); expected a string or number")
        }
    }

    mutating func properties(_ schema: [PropertySpec], into values: inout [PropertyValue?],
                             id: inout String?) throws(ScanError) {
        guard try beginObject() else { return }
        repeat {
            let k = try key()
            if keyIs(k, "id") {
                id = try featureID()
                continue
            }
            guard let slot = schema.firstIndex(where: { keyIs(k, $0.key) }) else {
                try skipValue()
                continue
            }
            let spec = schema[slot]
            var name: String { spec.key.description }
            let kind = try nextKind()
            if kind == .null {
                try literal("null")
                values[slot] = nil
                continue
            }
            switch spec.kind {
            case .string:
                guard kind == .string else { throw badValue(name, kind, "a string") }
                values[slot] = .string(spec.shared ? try sharedString() : try string())
            case .number:
                guard kind == .number else { throw badValue(name, kind, "a number") }
                values[slot] = .number(try number().value)
            case .integer:
                guard kind == .number else { throw badValue(name, kind, "an integer") }
                let n = try number()
                guard let v = Int(exactly: n.value) else {
                    throw ScanError(.badValue, "property \(name) is \(text(n.start, n.end)); expected an integer")
                }
                values[slot] = .integer(v)
            case .raw:
                guard kind == .object || kind == .array else { throw badValue(name, kind, "an object or array") }
                values[slot] = .raw(spec.shared ? try sharedRawValue() : try rawValue(), primary: nil)
            case .rawWithPrimary:
                guard kind == .object else { throw badValue(name, kind, "an object") }
                let start = i
                var primary: String?
                if try beginObject() {
                    repeat {
                        let member = try key()
                        if keyIs(member, "primary") {
                            switch try nextKind() {
                            case .string: primary = spec.shared ? try sharedString() : try string()
                            case .null: try literal("null")
                            case let other: throw badValue(name + ".primary", other, "a string")
                            }
                        } else {
                            try skipValue()
                        }
                    } while try more(Byte.closeBrace)
                }
                values[slot] = .raw(spec.shared ? interner.string(UnsafeBufferPointer(start: base + start, count: i - start))
                                                 : text(start, i), primary: primary)
            }
        } while try more(Byte.closeBrace)
    }

    private func badValue(_ name: String, _ kind: JSONKind, _ expected: String) -> ScanError {
        ScanError(.badValue, "property \(name) is \(kind == .array || kind == .object ? "an" : "a") \(kind.rawValue); expected \(expected)")
    }
}
