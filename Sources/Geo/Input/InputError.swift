/// A problem with the user's input data, located as precisely as the reader can.
public struct InputError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: String, Sendable {
        case fileNotFound = "file not found"
        case unreadable = "cannot read file"
        case invalidJSON = "invalid JSON"
        case truncated = "truncated input"
        case notGeoJSON = "not GeoJSON"
        case invalidEncoding = "invalid encoding"
        case wrongGeometryType = "wrong geometry type"
        case missingGeometry = "missing geometry"
        case badCoordinates = "bad coordinates"
        case badRing = "bad ring"
        case missingID = "missing id"
        case badID = "bad id"
        case conflictingID = "one id, two geometries"
        case badValue = "bad value"
        /// One feature larger than `ChunkedInput.maxValueBytes`, or a count beyond Int32.
        case tooLarge = "too large"
    }
    public var kind: Kind
    public var file: String
    /// 1-based line number where the feature starts, when known.
    public var line: Int?
    /// 0-based index of the feature in the file, when known.
    public var featureIndex: Int?
    public var featureID: String?
    public var detail: String

    public init(_ kind: Kind, file: String, line: Int? = nil, featureIndex: Int? = nil,
                featureID: String? = nil, detail: String) {
        self.kind = kind; self.file = file; self.line = line; self.featureIndex = featureIndex
        self.featureID = featureID; self.detail = detail
    }

    public var description: String {
        var where_ = file
        if let line { where_ += ":\(line)" }
        var what: [String] = []
        if let featureIndex { what.append("feature \(featureIndex)") }
        if let featureID { what.append("id \(featureID)") }
        let loc = what.isEmpty ? where_ : "\(where_): \(what.joined(separator: ", "))"
        return "\(loc): \(kind.rawValue): \(detail)"
    }
}
