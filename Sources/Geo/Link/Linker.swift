import Foundation

/// How an address was linked to its building.
public enum LinkMethod: String, Sendable, CaseIterable {
    /// The footprint covers the point (boundary included).
    case covers = "COVERS"
    /// The best-scored footprint lies within the buffer distance of the point.
    case buffer = "BUFFER"
    /// The best-scored footprint lies beyond the buffer, within the search radius.
    case nearest = "NEAREST"
    /// No footprint within the search radius.
    case none = "NONE"
}

public struct LinkerOptions: Sendable {
    /// BUFFER tier: the winner lies within this many metres of the point.
    public var bufferMeters = 10.0
    /// NEAREST tier: candidates lie within this many metres of the point. A house in a court or
    /// on a deep lot stands well back from the street its number is on, and a geocoder's point
    /// stands on that street: 50 m left some of Queens' out of reach; 80, 100 and 150 m link
    /// the same to within one address (README, "Why these values").
    public var searchMeters = 80.0
    /// How far from the point the address's street is looked for (metres).
    public var streetSearchMeters = 150.0
    /// A building fronts a street whose segment lies within this many metres of it.
    public var frontageMeters = 40.0
    /// Side of the square tiles the area is linked in (metres).
    public var tileMeters = 3000.0
    /// Features this far around a tile are seen by it (metres): more than every radius the
    /// scoring looks at. A larger search radius widens it (`effectiveTileMargin`).
    public var tileMarginMeters = 300.0
    /// The margin in use: at least what one decision reads around its point (the candidates
    /// within the search radius, the addresses competing for them within as much again, and
    /// the street looked for around each; the addresses that tell a point on the line its side,
    /// or how the points around were placed (`LinkWorld.amongSetOutPoints`), and their streets),
    /// so no link depends on where a tile ends.
    public var effectiveTileMargin: Double {
        max(tileMarginMeters, 2 * candidateReach + max(streetSearchMeters, weights.numberRadius),
            weights.sideRadius + streetSearchMeters)
    }
    /// How far from its point an address's candidates may stand: the search radius, or at a
    /// piled street end (`StreetEnd`) the street's continuation over the street search radius
    /// and the search radius around it.
    var candidateReach: Double {
        weights.endReach > 0 ? weights.endReach + streetSearchMeters + searchMeters : searchMeters
    }
    /// Parallel workers (default: one per core). The output does not depend on it.
    public var workers: Int? = nil
    /// The scoring's weights and distances (see `LinkWeights`).
    public var weights: LinkWeights
    /// Keep the footprints in metres in the result (`LinkResult.projectedFootprints`), for
    /// `Orienter.orientAddresses(links:)` to use instead of projecting them again.
    public var keepsProjectedFootprints = false
    /// Addresses (by id) whose links are explained in `LinkResult.explanations`.
    public var explain: Set<String> = []
    public init() { weights = LinkWeights() }
}

/// One address's link. `distance` is metres from the point to the footprint (0 for COVERS).
public struct Link: Sendable, Equatable {
    public var addressID: String
    public var buildingID: String?
    public var method: LinkMethod
    /// In [0, 1]; see the README for the formula.
    public var confidence: Double
    public var distance: Double
    /// The address's street names a segment the building fronts.
    public var streetMatch: Bool
}

public struct NearbyBuilding: Sendable, Equatable {
    public var buildingID: String
    public var distance: Double
}

public struct BuildingLinks: Sendable, Equatable {
    public var buildingID: String
    public var addressCount: Int
    /// Two or more addresses linked, or one and a class that says several households
    /// (`LinkWorld.multiUnitByClass`).
    public var isMultiUnit: Bool
    public var isOrphan: Bool { addressCount == 0 }
}

public struct LinkResult: Sendable {
    /// One per address, sorted by address id; unmatched ones have method NONE.
    public var links: [Link]
    /// For each unmatched address (by id), its three nearest buildings.
    public var unmatched: [String: [NearbyBuilding]]
    /// One per building, sorted by id.
    public var buildings: [BuildingLinks]
    /// Footprints that were invalid and repaired with make-valid.
    public var repairedFootprints: Int
    /// Wall-clock seconds per phase, in order.
    public var phases: [(name: String, seconds: Double)]
    /// Beside `links`: the linked building's index in the buildings linked (-1: none). A hint
    /// for callers holding that same array; check the id before use.
    var buildingIndexes: [Int32] = []
    /// Beside `links` too: the address's index in the array linked. Callers holding that same
    /// array get its id order from it without sorting the ids again (check before use: see
    /// `addressOrder(of:)`).
    var addressIndexes: [Int32] = []
    /// Beside `buildings`: the building's index in the array linked (see `buildingOrder(of:)`).
    var buildingOrderIndexes: [Int32] = []
    /// The footprints in metres, when `LinkerOptions.keepsProjectedFootprints` asked for them;
    /// set it to nil to free them.
    public var projectedFootprints: ProjectedFootprints? = nil
    /// One for each address of `LinkerOptions.explain` that was linked, by address id.
    public var explanations: [LinkExplanation] = []

    /// The indexes of `addresses` in id order (the order of `links`), when these links were
    /// made from that very array (each id checked); nil otherwise.
    public func addressOrder(of addresses: [Address]) -> [Int]? {
        LinkResult.order(addressIndexes, matching: addresses.count, links.count) { addresses[$0].id == links[$1].addressID }
    }

    /// The indexes of `buildings` in id order (the order of `self.buildings`), when these
    /// links were made from that very array (each id checked); nil otherwise.
    public func buildingOrder(of buildings: [Building]) -> [Int]? {
        LinkResult.order(buildingOrderIndexes, matching: buildings.count, self.buildings.count) {
            buildings[$0].id == self.buildings[$1].buildingID
        }
    }

    /// `indexes` (item `indexes[k]` holds the k-th id) as Ints, when they are as many as the
    /// items and the rows and `same(index, k)` holds for each; nil otherwise.
    private static func order(_ indexes: [Int32], matching items: Int, _ rows: Int, same: (Int, Int) -> Bool) -> [Int]? {
        guard indexes.count == items, rows == items else { return nil }
        var order: [Int] = []
        order.reserveCapacity(items)
        for (k, i) in indexes.enumerated() {
            let i = Int(i)
            guard i >= 0, i < items, same(i, k) else { return nil }
            order.append(i)
        }
        return order
    }

    /// Lets go of the footprints in metres of the buildings no address links to: an
    /// orientation reads only the linked ones, and a third of a city's buildings are orphans.
    public mutating func keepLinkedFootprintsOnly() {
        guard let all = projectedFootprints, all.slot == nil else { return }
        var keep = [Bool](repeating: false, count: all.rings.count)
        for b in buildingIndexes where b >= 0 && Int(b) < keep.count { keep[Int(b)] = true }
        let (rings, slot) = all.rings.keeping(keep)
        projectedFootprints = ProjectedFootprints(definition: all.definition, rings: rings, slot: slot)
    }

    public func count(_ m: LinkMethod) -> Int { links.reduce(0) { $0 + ($1.method == m ? 1 : 0) } }
    public var orphanBuildings: Int { buildings.reduce(0) { $0 + ($1.isOrphan ? 1 : 0) } }
    public var multiUnitBuildings: Int { buildings.reduce(0) { $0 + ($1.isMultiUnit ? 1 : 0) } }
}

/// Every footprint's rings (all parts, shells and holes, in order) in the linker's metric
/// projection, by the index of the building in the array linked.
public struct ProjectedFootprints: Sendable {
    /// The PROJ pipeline that made them.
    let definition: String
    let rings: FlatRings
    /// When only some were kept: each building's place in `rings` (-1: not kept).
    var slot: [Int32]? = nil

    /// Where building `b`'s rings are in `rings`; nil when they were not kept.
    func place(_ b: Int) -> Int? {
        guard let slot else { return b }
        return slot[b] < 0 ? nil : Int(slot[b])
    }
}

/// The Stable Linker: COVERS, then BUFFER, then NEAREST, with street evidence; deterministic
/// for any input order and any number of workers (one GEOS context per tile).
public struct Linker: Sendable {
    public var options: LinkerOptions
    public init(options: LinkerOptions = .init()) { self.options = options }

    /// Links every address. The area is cut into fixed tiles (`LinkerOptions.tileMeters`,
    /// laid out from the data alone); each tile is linked in its own worker with its own GEOS
    /// context, seeing the features within `LinkerOptions.effectiveTileMargin` around it, and
    /// decides the addresses inside it. The tiles do not depend on the number of workers, so
    /// the output is the same at 1 or N workers.
    ///
    /// `prepared`, when given, holds the addresses' and segments' attributes worked out
    /// beforehand from these very arrays (`AddressPreparation(addresses:segments:)`, e.g. on
    /// a core left idle while the buildings are still being read); the result is the same.
    public func link(buildings: [Building], addresses: [Address], segments: [Segment],
                     prepared: AddressPreparation? = nil) throws -> LinkResult {
        var phases: [(String, Double)] = []
        let clock = ContinuousClock()
        var mark = clock.now
        func phase(_ name: String) {
            let now = clock.now
            let d = now - mark
            phases.append((name, Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18))
            mark = now
        }

        let (layers, attrs) = try project(buildings: buildings, addresses: addresses, segments: segments, prepared: prepared)
        let tiles = TileGrid(layers: layers, tile: options.tileMeters, margin: options.effectiveTileMargin)
        phase("project")

        let outcomes = SlotResults<TileLinks>(count: tiles.tiles.count)
        let workers = max(1, min(options.workers ?? ProcessInfo.processInfo.activeProcessorCount, tiles.tiles.count))
        let next = TileCounter()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let t = next.take(below: tiles.tiles.count) {
                do {
                    outcomes.set(t, .success(try linkTile(tiles.tiles[t], buildings: buildings, layers: layers, attrs: attrs)))
                } catch {
                    outcomes.set(t, .failure(error))
                }
            }
        }
        phase("link")

        var links = [TileLink?](repeating: nil, count: addresses.count)
        var repaired = [Bool](repeating: false, count: buildings.count)
        var unmatched: [String: [NearbyBuilding]] = [:]
        var farUnmatched: [Int] = []
        var explanations: [LinkExplanation] = []
        var readOn: [Int: String] = [:]
        for t in tiles.tiles.indices {
            let o = try outcomes.get(t)
            explanations += o.explanations
            for (a, road) in o.readOn { readOn[a] = road }
            for r in o.links { links[r.address] = r.link }
            for b in o.repaired { repaired[b] = true }
            for (a, near) in o.unmatched {
                if let near { unmatched[attrs.addressIDs[a]] = near } else { farUnmatched.append(a) }
            }
        }
        for (a, near) in layers.nearestBuildings(to: farUnmatched, count: 3, ids: attrs.buildingIDs) {
            unmatched[attrs.addressIDs[a]] = near
        }
        var counts = [Int](repeating: 0, count: buildings.count)
        for l in links { if let b = l?.building, b >= 0 { counts[Int(b)] += 1 } }
        Linker.divideSharedHomes(&links, counts: counts, readOn: readOn, attrs: attrs)
        var byRank = [Int](repeating: 0, count: buildings.count)
        for b in buildings.indices { byRank[Int(attrs.buildingRank[b])] = b }
        let summaries = byRank.map { b in
            BuildingLinks(buildingID: attrs.buildingIDs[b], addressCount: counts[b],
                          isMultiUnit: counts[b] > 1 || (counts[b] > 0 && attrs.multiUnitClass[b]))
        }
        var addressByRank = [Int](repeating: 0, count: addresses.count)
        for a in addresses.indices { addressByRank[Int(attrs.addressRank[a])] = a }
        let sorted = addressByRank.map { a in
            let l = links[a]!
            return Link(addressID: attrs.addressIDs[a], buildingID: l.building < 0 ? nil : attrs.buildingIDs[Int(l.building)],
                        method: l.method, confidence: l.confidence, distance: l.distance, streetMatch: l.streetMatch)
        }
        let buildingIndexes = addressByRank.map { links[$0]!.building }
        phase("merge")
        return LinkResult(links: sorted, unmatched: unmatched, buildings: summaries,
                          repairedFootprints: repaired.reduce(0) { $0 + ($1 ? 1 : 0) }, phases: phases,
                          buildingIndexes: buildingIndexes, addressIndexes: addressByRank.map { Int32($0) },
                          buildingOrderIndexes: byRank.map { Int32($0) },
                          projectedFootprints: options.keepsProjectedFootprints
                            ? ProjectedFootprints(definition: layers.definition, rings: layers.rings) : nil,
                          explanations: explanations.sorted { $0.addressID < $1.addressID })
    }

    /// The three layers in metres on all cores, with the per-feature attributes worked out
    /// beside them (the addresses' taken from `prepared` when given).
    private func project(buildings: [Building], addresses: [Address], segments: [Segment],
                         prepared: AddressPreparation?) throws -> (ProjectedLayers, FeatureAttributes) {
        let ofBuildings = SlotResults<FeatureAttributes.OfBuildings>(count: 1)
        let ofAddresses = SlotResults<FeatureAttributes.OfAddresses>(count: 1)
        var alongside: [@Sendable () -> Void] = [{ ofBuildings.set(0, .success(FeatureAttributes.OfBuildings(buildings))) }]
        if let prepared {
            precondition(prepared.attributes.ids.count == addresses.count && prepared.attributes.frontage.count == segments.count,
                         "AddressPreparation made from other addresses or segments")
            ofAddresses.set(0, .success(prepared.attributes))
        } else {
            alongside.append { ofAddresses.set(0, .success(FeatureAttributes.OfAddresses(addresses, segments))) }
        }
        let layers = try ProjectedLayers(buildings: buildings, addresses: addresses, segments: segments, alongside: alongside,
                                         workers: options.workers ?? ProcessInfo.processInfo.activeProcessorCount)
        return (layers, FeatureAttributes(try ofBuildings.get(0), try ofAddresses.get(0)))
    }

    /// A link as a tile decides it: the building by its global index (-1: none), no ids.
    struct TileLink {
        var building: Int32
        var method: LinkMethod
        var confidence: Double
        var distance: Double
        var streetMatch: Bool
        /// COVERS: a home holding no number stands beside the footprint, which holds other
        /// numbers of the street (`LinkWorld.coveringBesideFreeHome`).
        var homeBeside = false
    }

    struct TileLinks {
        var links: [(address: Int, link: TileLink)] = []
        /// Unmatched owned addresses with their three nearest buildings; nil when the tile's
        /// context was too small to be sure of them.
        var unmatched: [(Int, [NearbyBuilding]?)] = []
        var repaired: [Int] = []
        var explanations: [LinkExplanation] = []
        /// The linked owned addresses with a number and no street, each with the key of the named
        /// road it is read on (`LinkWorld.roadOfStreetless`), its house key's street.
        var readOn: [(address: Int, road: String)] = []
    }

    /// COVERS, then BUFFER/NEAREST with the regret-ordered assignment, for one tile. Returns
    /// the links of the addresses the tile owns, in global indexes.
    func linkTile(_ tile: TileGrid.Tile, buildings: [Building], layers: ProjectedLayers,
                  attrs: FeatureAttributes) throws -> TileLinks {
        let bIdx = tile.buildings, aIdx = tile.addresses
        let world = try LinkWorld(tile: bIdx, aIdx, tile.segments, buildings: buildings, layers: layers, attrs: attrs, options: options)
        let na = aIdx.count

        // Tier 1: COVERS for every address first, but for a point a geocoder set in a house of a
        // row, scored with the rest among the footprints near it (`StreetOffset`).
        var links = [TileLink?](repeating: nil, count: na)
        for a in 0..<na {
            if let b = try world.coveringBuilding(a) {
                let clearance = world.clearance(a, covering: b)
                if let reading = try world.setInRow(a, covering: b, clearance: clearance) {
                    world.atStreetOffset[a] = b
                    world.offsetReadings[a] = reading
                    continue
                }
                links[a] = TileLink(building: Int32(bIdx[b]), method: .covers,
                                    confidence: Linker.coversConfidence(clearance: clearance, amongSeveral: world.coverCount[a] > 1),
                                    distance: 0, streetMatch: false)
                world.assigned[a] = b
            }
        }

        // Tiers 2 and 3: score candidates for the rest, then resolve in a stable global order.
        // A point on its street's line is first given a side (`placeLinePoints`).
        try world.placeLinePoints((0..<na).filter { links[$0] == nil })
        var pending: [(address: Int, scored: [Candidate])] = []
        for a in 0..<na where links[a] == nil {
            var scored = try world.scoreCandidates(a)
            if world.atStreetOffset[a] != nil { scored.removeAll { $0.distance > Linker.coverClearance } }
            pending.append((a, scored))
        }
        // The COVERS addresses pin the order of their faces; only worth listing when some address
        // is left to align.
        let covered = pending.isEmpty ? [] : (0..<na).compactMap { a in
            links[a] == nil ? nil : world.assigned[a].map { (address: a, building: $0) }
        }
        try world.readLostStreets(&pending, covered: covered)
        world.preferOwnHousehold(&pending, covered: covered, cost: options.weights.occupiedPenalty)
        let explained = options.explain.isEmpty ? [:] : world.scored(of: pending, among: options.explain)
        var aligned: [Int: Int] = [:]  // address → the footprint its face aligns it to
        for (slot, b) in try world.faceAlignments(pending, fixed: covered) {
            aligned[pending[slot].address] = b
            world.favour(b, in: &pending[slot].scored, by: options.weights.orderPenalty)
        }
        let addressRank = aIdx.map { attrs.addressRank[$0] }
        var chosen = Assignment.resolve(
            pending: pending, keys: aIdx.indices.map { world.houseKey($0) }, addressRank: addressRank,
            buildingRank: bIdx.map { attrs.buildingRank[$0] },
            claims: world.coverClaims(covered, on: pending), occupancy: options.weights.occupancy)
        if options.weights.orderPenalty > 0 {  // the face's order has a say (not so for plain nearest)
            chosen = Assignment.uncrossed(chosen, pending: pending, aligned: aligned,
                                          readAsGeocoders: Set(world.atStreetOffset.keys), addressRank: addressRank)
        }
        for (a, ch) in chosen {
            var best = ch.candidate
            world.assigned[a] = best.building
            if let given = world.offLine[a]?.given { best.distance = Planar.distance(from: given, toRings: world.rings(best.building)) }
            let method: LinkMethod = world.atStreetOffset[a] != nil && best.distance == 0 ? .covers
                : best.distance <= options.bufferMeters ? .buffer : .nearest
            links[a] = TileLink(building: Int32(bIdx[best.building]), method: method,
                            confidence: Linker.confidence(method: method, distance: best.distance, cost: ch.cost,
                                                          runnerUp: ch.runnerUp, directional: best.directional,
                                                          order: aligned[a].map { $0 == best.building ? .agrees : .disagrees } ?? .none),
                            distance: (best.distance * 100).rounded() / 100, streetMatch: false)
        }

        var (out, besideFree) = try ownLinks(links, world: world, tile: tile, layers: layers)
        if !options.explain.isEmpty {
            out.explanations = try explanations(world, tile: tile, layers: layers, scored: explained, aligned: aligned, chosen: chosen,
                                           besideFree: besideFree)
        }
        return out
    }

    /// The links of the addresses the tile owns, in global indexes, from the tile's links
    /// (`links`, by local index): street match, the COVERS confidence of a point the assignment
    /// kept in its footprint (`StreetOffset`), the unmatched with their nearest footprints, the
    /// repaired footprints; and the footprints `coveringBesideFreeHome` found, for the explanations.
    private func ownLinks(_ links: [TileLink?], world: LinkWorld, tile: TileGrid.Tile,
                          layers: ProjectedLayers) throws -> (TileLinks, Set<Int>) {
        let aIdx = tile.addresses, bIdx = tile.buildings
        var out = TileLinks()
        let besideFree = world.coveringBesideFreeHome(aIdx.indices.compactMap { a in
            links[a]?.method == .covers && tile.owns(layers.points[aIdx[a]]) ? world.assigned[a].map { (a, $0) } : nil
        })
        for (a, global) in aIdx.enumerated() where tile.owns(layers.points[global]) {
            if var l = links[a], let b = world.assigned[a] {
                l.streetMatch = world.fronts(building: b, address: a)
                if let road = world.roadOfStreetless(a) { out.readOn.append((global, road)) }
                if l.method == .covers {
                    // A covered point a geocoder set, kept by the assignment: its COVERS confidence,
                    // worked out with the first tier's for the others.
                    if world.atStreetOffset[a] != nil {
                        l.confidence = Linker.coversConfidence(clearance: world.clearance(a, covering: b),
                                                               amongSeveral: world.coverCount[a] > 1)
                    }
                    l.homeBeside = besideFree.contains(b)
                } else if !l.streetMatch, world.streetKeys[a] != nil { l.confidence = Linker.streetMismatch(l.confidence) }
                if l.method != .covers, world.atStreetOffset[a] != nil { l.confidence = Linker.insideAnother(l.confidence) }
                if let read = world.offLine[a] {
                    l.confidence = Linker.sideOfLine(l.confidence, evidence: read.evidence, radius: options.searchMeters)
                }
                out.links.append((global, l))
            } else {
                out.links.append((global, TileLink(building: -1, method: .none, confidence: 0, distance: 0, streetMatch: false)))
                let near = try world.nearestBuildings(a, count: 3, within: tile.contextDistance(layers.points[global]))
                out.unmatched.append((global, near.count == 3 ? near : nil))
            }
        }
        for (b, global) in bIdx.enumerated() where world.isRepaired(b) && tile.owns(layers.boxes[global].center!) {
            out.repaired.append(global)
        }
        return (out, besideFree)
    }
}

/// A scored candidate footprint for one address.
struct Candidate {
    var building: Int
    var distance: Double
    var cost: Double
    var directional: Bool
    /// Scored along a line (`LinkWorld.beyond`): a street's continuation past a piled end, or the
    /// line back from the road a point of a street with no line stands by.
    var pastEnd = false
    /// How far the spot of the footprint nearest the point stands back from the footprint's
    /// front, its corner nearest the street (metres away from the street): 0 without a street, or
    /// where that spot does not lie beyond the point (a point beside or behind the footprint).
    /// Worked out for every candidate scored, even one past `LinkWeights.reach`: at a piled street
    /// end `StreetEnd` may cost it again from the street's continuation, down to the best.
    var recess = 0.0
    /// What the footprint costs as the garage or shed of the home the point stands by
    /// (`LinkWorld.annexCost`), within `cost`.
    var annex = 0.0
    /// What the footprint costs as one the point does not stand set out before, where the points
    /// around it were set out from their houses, or (below 0) the ray's excess taken back from
    /// the one it alone stands set out before (`LinkWorld.chargeSetOut`), within `cost`.
    var setOut = 0.0
    /// The best ray's cost (`LinkWorld.ScoreTerms.ray`), within `cost`.
    var ray = 0.0
    /// The point stands set out before the footprint, among points set out from their houses
    /// (`LinkWorld.chargeSetOut`): no geocoder put it, so no street end it stands by is read.
    var setOutBefore = false
}

/// The linker's per-address and per-segment attributes (id ranks, street and house keys, house
/// numbers, frontage roads), worked out ahead of `Linker.link(..., prepared:)` from the same
/// address and segment arrays, in the same order.
public struct AddressPreparation: Sendable {
    let attributes: FeatureAttributes.OfAddresses
    public init(addresses: [Address], segments: [Segment]) {
        attributes = FeatureAttributes.OfAddresses(addresses, segments)
    }
}
