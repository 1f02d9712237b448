/// Which features a load keeps.
public struct LoadOptions: Sendable {
    /// Keep only features whose bounding box intersects this one (touching counts), as the
    /// Overture CLI selects them. Nil keeps everything.
    public var bbox: BBox?
    public init(bbox: BBox? = nil) { self.bbox = bbox }
}

/// The features read from one or more files.
public struct Loaded<T: Sendable>: Sendable {
    /// Features in order of first appearance, each id once.
    public var features: [T]
    /// Repeats of an id with the same geometry (from overlapping extracts) that were dropped.
    public var duplicatesSkipped: Int
    /// Bytes read over all files.
    public var bytesRead: Int

    public init(features: [T] = [], duplicatesSkipped: Int = 0, bytesRead: Int = 0) {
        self.features = features; self.duplicatesSkipped = duplicatesSkipped; self.bytesRead = bytesRead
    }
}

public func loadBuildings(_ paths: [String], options: LoadOptions = .init()) throws(InputError) -> Loaded<Building> {
    try loadFeatures(Building.self, from: paths, options: options)
}

public func loadAddresses(_ paths: [String], options: LoadOptions = .init()) throws(InputError) -> Loaded<Address> {
    try loadFeatures(Address.self, from: paths, options: options)
}

public func loadSegments(_ paths: [String], options: LoadOptions = .init()) throws(InputError) -> Loaded<Segment> {
    try loadFeatures(Segment.self, from: paths, options: options)
}

/// Reads every file in turn and merges them: an id seen again with the same geometry is
/// skipped, with a different geometry it is an `InputError.Kind.conflictingID`.
public func loadFeatures<F: OvertureFeature>(_ type: F.Type, from paths: [String],
                                             options: LoadOptions = .init()) throws(InputError) -> Loaded<F> {
    try loadFeatures(type, from: paths, options: options, chunkSize: ChunkedInput.defaultChunkSize)
}

func loadFeatures<F: OvertureFeature>(_: F.Type, from paths: [String], options: LoadOptions,
                                      chunkSize: Int) throws(InputError) -> Loaded<F> {
    var result = Loaded<F>(features: [], duplicatesSkipped: 0, bytesRead: 0)
    var seen: [String: FirstSeen] = [:]
    for (fileNumber, path) in paths.enumerated() {
        let reader = try GeoJSONReader<F>(path: path, chunkSize: chunkSize)
        if let size = reader.fileSize {
            // Overture features take a few hundred bytes each; sizing up front avoids rehashing.
            seen.reserveCapacity(seen.count + size / 256)
        }
        while let feature = try reader.next() {
            if let bbox = options.bbox, !feature.bbox.intersects(bbox) { continue }
            if let first = seen[feature.id] {
                guard result.features[first.slot].hasSameGeometry(as: feature) else {
                    throw InputError(.conflictingID, file: path, line: reader.featureLine,
                                     featureIndex: reader.featureIndex, featureID: feature.id,
                                     detail: "id also in \(paths[first.file]) (feature \(first.featureIndex)) with a different geometry")
                }
                result.duplicatesSkipped += 1
                continue
            }
            seen[feature.id] = FirstSeen(slot: result.features.count, file: fileNumber, featureIndex: reader.featureIndex)
            result.features.append(feature)
        }
        result.bytesRead += reader.bytesRead
    }
    return result
}

/// Where an id was first kept during a load.
private struct FirstSeen {
    var slot: Int
    var file: Int
    var featureIndex: Int
}
