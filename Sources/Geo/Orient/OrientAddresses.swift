import Foundation

extension Orienter {
    /// Links the addresses (the Stable Linker), then orients each from its building's
    /// footprint, preferring a road named like its street; an address linked to no building
    /// is oriented from its own point. One row per address, sorted by address id.
    public static func orientAddresses(buildings: [Building], addresses: [Address], segments: [Segment],
                                       options: OrientationOptions = .init(),
                                       linker: LinkerOptions = .init()) throws -> [AddressOrientation] {
        var linker = linker
        linker.keepsProjectedFootprints = true
        let links = try Linker(options: linker).link(buildings: buildings, addresses: addresses, segments: segments)
        return try orientAddresses(buildings: buildings, addresses: addresses, segments: segments, links: links, options: options)
    }

    /// Orients each address from the building `links` gives it (see above), without linking
    /// again. Addresses are split into fixed chunks oriented in parallel, each by its own
    /// `Orienter` (its own GEOS context); the rows do not depend on the number of workers.
    public static func orientAddresses(buildings: [Building], addresses: [Address], segments: [Segment],
                                       links: LinkResult, options: OrientationOptions = .init(),
                                       workers: Int? = nil) throws -> [AddressOrientation] {
        let (order, linked) = linkedInOrder(buildings, addresses, links)
        var rows = order.indices.map { k in
            AddressOrientation(addressID: addresses[order[k]].id,
                               buildingID: linked[k].link >= 0 ? links.links[Int(linked[k].link)].buildingID : nil, orientation: nil)
        }
        try rows.withUnsafeMutableBufferPointer { out in
            let out = SharedSlots(out)
            try orientEach(buildings: buildings, addresses: addresses, segments: segments, links: links, order: order,
                           linked: linked, options: options, workers: workers) { k, facing, orienter in
                out.buffer[k].orientation = facing.map(orienter.orientation)
            }
        }
        return rows
    }

    /// The same, kept compact (a few numbers an address, no texts): what a provision writes.
    /// `niceness` above 0 runs the workers at that lower priority (see `runWorkers`): a
    /// provision orients beside its writer, which must not wait for a core.
    public static func orientAddressFacings(buildings: [Building], addresses: [Address], segments: [Segment],
                                            links: LinkResult, options: OrientationOptions = .init(),
                                            workers: Int? = nil, niceness: Int32 = 0) throws -> AddressFacings {
        let (order, linked) = linkedInOrder(buildings, addresses, links)
        var out = AddressFacings(count: order.count)
        out.address = order.map { Int32($0) }
        try out.segment.withUnsafeMutableBufferPointer { segment in
            try out.roadBearing.withUnsafeMutableBufferPointer { road in
                try out.houseBearing.withUnsafeMutableBufferPointer { house in
                    let (segment, road, house) = (SharedSlots(segment), SharedSlots(road), SharedSlots(house))
                    try orientEach(buildings: buildings, addresses: addresses, segments: segments, links: links, order: order,
                                   linked: linked, options: options, workers: workers, niceness: niceness) { k, facing, orienter in
                        guard let facing else { return }
                        segment.buffer[k] = orienter.sourceIndex[facing.segment]
                        road.buffer[k] = facing.roadBearing ?? .nan
                        house.buffer[k] = facing.houseBearing ?? .nan
                    }
                }
            }
        }
        return out
    }

    /// The addresses' indexes in id order (the order of the rows), each with its building.
    private static func linkedInOrder(_ buildings: [Building], _ addresses: [Address], _ links: LinkResult)
        -> (order: [Int], linked: [LinkedBuilding]) {
        let order = links.addressOrder(of: addresses) ?? IDOrder.sortedIndices(addresses.map { $0.id })
        return (order, linkedBuildings(buildings, addresses, order: order, links: links))
    }

    /// Orients the addresses in `order`, calling `store(k, facing, orienter)` for the k-th
    /// from a worker (each k once; distinct k may be stored at once).
    private static func orientEach(buildings: [Building], addresses: [Address], segments: [Segment], links: LinkResult,
                                   order: [Int], linked: [LinkedBuilding], options: OrientationOptions, workers: Int?,
                                   niceness: Int32 = 0, store: @Sendable (Int, Facing?, Orienter) -> Void) throws {
        let origin = Projection.localOrigin(buildings, addresses)
        // The linker's footprints in metres, when it kept them and projected as the orienters do.
        let metres = links.projectedFootprints.flatMap {
            $0.definition == Projection.localMetricDefinition(around: origin) ? $0 : nil
        }
        let streetKeys = StreetAliases.addressKeys(addresses, segments: segments)
        // How many addresses each building serves: only the footprints of buildings serving
        // several are kept for reuse (most serve one, and a million kept footprints weigh).
        let uses = linked.reduce(into: [Int32](repeating: 0, count: buildings.count)) { u, l in
            if l.index >= 0 { u[Int(l.index)] += 1 }
        }
        let chunk = 20_000
        let chunks = stride(from: 0, to: order.count, by: chunk).map { $0..<min(order.count, $0 + chunk) }
        let failures = SlotResults<Void>(count: chunks.count)
        let counter = TileCounter()
        let n = max(1, min(workers ?? ProcessInfo.processInfo.activeProcessorCount, chunks.count))
        runWorkers(n, niceness: niceness) { _ in
            // One orienter (one GEOS context, one projection of the segments) per worker.
            let orienter: Orienter
            do { orienter = try Orienter(segments: segments, origin: origin, options: options) } catch {
                while let c = counter.take(below: chunks.count) { failures.set(c, .failure(error)) }
                return
            }
            var footprints: [Int: Orienter.Footprint?] = [:]
            while let c = counter.take(below: chunks.count) {
                do {
                    for k in chunks[c] {
                        let b = Int(linked[k].index)
                        // Its place among the footprints in metres (-1: none there).
                        let inMetres = linked[k].asLinked ? metres?.place(b) ?? -1 : -1
                        var f: Facing? = nil
                        if b >= 0 {
                            let fp: Orienter.Footprint?
                            if uses[b] > 1, let cached = footprints[b] { fp = cached } else {
                                fp = try orienter.projectedFootprint(buildings[b].footprint, metres: metres?.rings, at: inMetres)
                                if uses[b] > 1 { footprints[b] = .some(fp) }
                            }
                            if let fp { f = try orienter.facing(fp, street: streetKeys[order[k]]) }
                        } else {
                            f = try orienter.facing(point: addresses[order[k]].point, key: streetKeys[order[k]])
                        }
                        store(k, f, orienter)
                    }
                    failures.set(c, .success(()))
                } catch {
                    failures.set(c, .failure(error))
                }
            }
        }
        for c in chunks.indices { if let e = failures.error(c) { throw e } }
    }

    /// The building of an address: its link's place in `links.links` (-1: none), the building's
    /// index in `buildings` (-1 when not there), and whether that is its index in the array
    /// linked too (the linker's footprints then hold it there).
    struct LinkedBuilding { var link: Int32, index: Int32, asLinked: Bool }

    /// For each address in `order`, its `LinkedBuilding`. Uses the linker's indexes when
    /// `links` came from these very arrays, checking each id; a dictionary otherwise.
    static func linkedBuildings(_ buildings: [Building], _ addresses: [Address], order: [Int],
                                links: LinkResult) -> [LinkedBuilding] {
        // `links.links` is sorted by address id, one per address: in step with `order` when
        // it belongs to these addresses.
        let inStep = links.links.count == order.count && zip(order, links.links).allSatisfy { addresses[$0].id == $1.addressID }
        let byAddress: [String: Int] = inStep ? [:] : Dictionary(
            links.links.enumerated().map { ($1.addressID, $0) }, uniquingKeysWith: { first, _ in first })
        var byID: [String: Int]? = nil
        return order.enumerated().map { k, a -> LinkedBuilding in
            guard let l = inStep ? k : byAddress[addresses[a].id], let bid = links.links[l].buildingID else {
                return LinkedBuilding(link: -1, index: -1, asLinked: false)
            }
            if l < links.buildingIndexes.count {
                let hint = Int(links.buildingIndexes[l])
                if hint >= 0, hint < buildings.count, buildings[hint].id == bid {
                    return LinkedBuilding(link: Int32(l), index: Int32(hint), asLinked: true)
                }
            }
            if byID == nil {
                byID = Dictionary(buildings.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
            }
            return LinkedBuilding(link: Int32(l), index: Int32(byID![bid] ?? -1), asLinked: false)
        }
    }

    /// Each building's facing road (no street preference), sorted by building id.
    public static func orientBuildings(_ buildings: [Building], segments: [Segment],
                                       options: OrientationOptions = .init()) throws -> [BuildingOrientation] {
        let orienter = try Orienter(segments: segments, origin: Projection.localOrigin(buildings, []), options: options)
        return try buildings.map { b in
            BuildingOrientation(buildingID: b.id, orientation: try orienter.orient(footprint: b.polygons))
        }.sorted { $0.buildingID < $1.buildingID }
    }
}
