/// What the COVERS links tell of a footprint's house numbers. A house key is "number|street"
/// (`FeatureAttributes.houseKeys`): units of one number share a key.
enum Occupancy {
    /// The street part of a house key.
    static func street(of key: String) -> Substring {
        guard let bar = key.firstIndex(of: "|") else { return Substring(key) }
        return key[key.index(after: bar)...]
    }

    /// Numbers beyond the first on each street: distinct keys less distinct streets. Above 0,
    /// the footprint holds several numbers along one street (a row of entrances) and takes more
    /// without the occupancy penalty; a corner building's one number on each of its streets
    /// shows only that it is a corner.
    static func extra(_ keys: some Collection<String>) -> Int {
        keys.count - Set(keys.map { street(of: $0) }).count
    }
}
