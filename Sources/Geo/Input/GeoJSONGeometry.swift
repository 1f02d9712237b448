/// The geometry of a GeoJSON Feature, read for a layer: positions, rings and parts, with a
/// fast path for compact position lists and the general path for everything else.
extension JSONScanner {
    mutating func geometry(_ layer: Layer) throws(ScanError) -> ParsedGeometry {
        var type: GeometryType?
        var typeName: String?
        var coordinatesAt: Int?
        var result: ParsedGeometry?
        guard try beginObject() else { throw ScanError(.notGeoJSON, "geometry is an empty object") }
        repeat {
            let k = try key()
            if keyIs(k, "type") {
                guard try nextKind() == .string else { throw ScanError(.notGeoJSON, "geometry type is not a string") }
                let name = try string()
                typeName = name
                type = GeometryType(rawValue: name)
                guard let type, layer.geometryTypes.contains(type) else {
                    let expected = layer.geometryTypes.map(\.rawValue).joined(separator: " or ")
                    throw ScanError(.wrongGeometryType, "expected \(expected) for \(layer.rawValue), found \(name)")
                }
                if let at = coordinatesAt {
                    // Coordinates came first: go back and read them now the type is known.
                    let resume = i
                    i = at
                    result = try coordinates(type)
                    i = resume
                }
            } else if keyIs(k, "coordinates") {
                if let type {
                    result = try coordinates(type)
                } else {
                    skipSpace()
                    coordinatesAt = i
                    try skipValue()
                }
            } else {
                try skipValue()
            }
        } while try more(Byte.closeBrace)
        guard typeName != nil else { throw ScanError(.notGeoJSON, "geometry has no type") }
        guard let result else { throw ScanError(.badCoordinates, "geometry has no coordinates") }
        return result
    }

    private mutating func coordinates(_ type: GeometryType) throws(ScanError) -> ParsedGeometry {
        switch type {
        case .point:
            return .point(try position())
        case .lineString:
            let line = try positions()
            guard line.count >= 2 else {
                throw ScanError(.badCoordinates, "LineString has \(line.count) position(s); at least 2 are needed")
            }
            return .lineString(line)
        case .polygon:
            scratch.reset()
            try polygon()
            return .footprint(gatheredFootprint())
        case .multiPolygon:
            try expectArray("MultiPolygon coordinates")
            scratch.reset()
            if try beginArray() {
                repeat { try polygon() } while try more(Byte.closeBracket)
            }
            guard !scratch.partEnds.isEmpty else { throw ScanError(.badCoordinates, "MultiPolygon has no polygons") }
            return .footprint(gatheredFootprint())
        default:
            preconditionFailure("only layer geometry types reach coordinates()")
        }
    }

    private mutating func expectArray(_ what: String) throws(ScanError) {
        let kind = try nextKind()
        guard kind == .array else {
            throw ScanError(.badCoordinates, "\(what) is \(kind == .object ? "an" : "a") \(kind.rawValue); expected an array")
        }
    }

    /// Reads one polygon's rings onto the scratch positions, and where each ends.
    private mutating func polygon() throws(ScanError) {
        try expectArray("polygon")
        var rings = 0
        if try beginArray() {
            repeat {
                let start = scratch.positions.count
                try gatherPositions()
                let n = scratch.positions.count - start
                guard n >= 4 else {
                    throw ScanError(.badRing, "ring \(rings) has \(n) position(s); at least 4 are needed")
                }
                let first = scratch.positions[start], last = scratch.positions[scratch.positions.count - 1]
                guard first == last else {
                    throw ScanError(.badRing, "ring \(rings) is not closed: first \(describe(first)), last \(describe(last))")
                }
                scratch.ringEnds.append(Int32(scratch.positions.count))
                rings += 1
            } while try more(Byte.closeBracket)
        }
        guard rings > 0 else { throw ScanError(.badRing, "polygon has no rings") }
        scratch.partEnds.append(Int32(scratch.ringEnds.count))
    }

    /// The footprint gathered in the scratch buffers, copied out at its exact size.
    private func gatheredFootprint() -> Footprint {
        Footprint(coords: exactCopy(scratch.positions), ringEnds: scratch.ringEnds, partEnds: scratch.partEnds)
    }

    private func exactCopy<T>(_ a: [T]) -> [T] {
        a.withUnsafeBufferPointer { gathered in
            [T](unsafeUninitializedCapacity: gathered.count) { out, n in
                _ = out.initialize(fromContentsOf: gathered)
                n = gathered.count
            }
        }
    }

    private func describe(_ c: Coord) -> String { "[\(c.x), \(c.y)]" }

    /// A position list, copied out at its exact size: no regrowing while reading, no spare
    /// capacity kept.
    private mutating func positions() throws(ScanError) -> [Coord] {
        scratch.reset()
        try gatherPositions()
        return exactCopy(scratch.positions)
    }

    /// Appends a position list to the scratch positions.
    private mutating func gatherPositions() throws(ScanError) {
        try expectArray("position list")
        // Compact lists (`[[x,y],[x,y]]`, as Overture writes them) in one tight loop; on
        // anything else (spaces, Z or M, an error to report) the list is read again below.
        let start = i, kept = scratch.positions.count
        i += 1
        while let c = compactPosition(), i < count {
            scratch.positions.append(c)
            let next = base[i]
            i += 1
            if next == Byte.closeBracket { return }
            if next != Byte.comma { break }
        }
        i = start
        scratch.positions.removeLast(scratch.positions.count - kept)
        if try beginArray() {
            repeat { scratch.positions.append(try position()) } while try more(Byte.closeBracket)
        }
    }

    /// `[lon, lat]`, optionally with Z and M, which are dropped.
    private mutating func position() throws(ScanError) -> Coord {
        try expectArray("position")
        let start = i
        if let c = compactPosition() { return c }
        i = start
        i += 1
        let x = try ordinate()
        skipSpace()
        if i < count, base[i] == Byte.closeBracket {
            throw ScanError(.badCoordinates, "position has fewer than 2 numbers")
        }
        try expect(Byte.comma, "',' and a latitude in a position")
        let y = try ordinate()
        var extra = 0
        while try more(Byte.closeBracket) {
            _ = try ordinate()
            extra += 1
            guard extra <= 2 else { throw ScanError(.badCoordinates, "position has more than 4 numbers") }
        }
        guard x.isFinite, y.isFinite else { throw ScanError(.badCoordinates, "position [\(x), \(y)] is not finite") }
        guard x >= -180, x <= 180 else { throw ScanError(.badCoordinates, "longitude \(x) is outside [-180, 180]") }
        guard y >= -90, y <= 90 else { throw ScanError(.badCoordinates, "latitude \(y) is outside [-90, 90]") }
        return Coord(x, y)
    }

    /// `[x,y]` at `i` with no spaces, two plain decimals (`shortDecimal`) and both within
    /// range; nil otherwise, with `i` left anywhere (the caller goes back).
    @inline(__always) private mutating func compactPosition() -> Coord? {
        guard i < count, base[i] == Byte.openBracket else { return nil }
        i += 1
        guard let x = shortDecimal()?.value, i < count, base[i] == Byte.comma else { return nil }
        i += 1
        guard let y = shortDecimal()?.value, i < count, base[i] == Byte.closeBracket else { return nil }
        i += 1
        guard x >= -180, x <= 180, y >= -90, y <= 90 else { return nil }
        return Coord(x, y)
    }

    private mutating func ordinate() throws(ScanError) -> Double {
        skipSpace()
        if i < count, base[i] == Byte.closeBracket {
            throw ScanError(.badCoordinates, "position has fewer than 2 numbers")
        }
        let kind = try nextKind()
        guard kind == .number else {
            if kind == .string, let s = try? string() {
                throw ScanError(.badCoordinates, "coordinate is the string \"\(s)\"; expected a number")
            }
            throw ScanError(.badCoordinates, "coordinate is \(kind == .array || kind == .object ? "an" : "a") \(kind.rawValue); expected a number")
        }
        return try number().value
    }
}
