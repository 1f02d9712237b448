/// House-number order along a block face, as a surveyor reads it: on one side of one street,
/// numbers grow steadily in one direction, and so do the houses along the kerb. The addresses
/// of a face, taken in number order, are matched to the footprints in their order along the
/// street by a monotone alignment of least total cost: an address may be left out (at a
/// price), a footprint may be passed over (a garage, a corner house numbered on the cross
/// street), and two addresses share a footprint only when they share a house number or the
/// footprint holds several households. A point slid a few metres along the street then still
/// lands on its own house, because its neighbours' order holds it there.
struct FaceAlignment {
    /// One address of a face: its candidates on the face's side, with their place along the
    /// street and their cost above the address's own best (less `LinkWeights.alignTolerance`), plus
    /// `LinkWeights.recessCost` per metre the spot of the footprint the point stands before lies
    /// back from the footprint's front (`Candidate.recess`), plus, for a footprint scored past a
    /// piled street end, what it is (`LinkWorld.faceAlignments`).
    struct Entry {
        var slot: Int
        var number: Double
        /// The address's point along the street.
        var at: Double
        /// How far the point stands from the street its rays start from (`LinkWorld.streetAnchor`);
        /// nil for an address linked for certain, which takes part with its own footprint only.
        var depth: Double? = nil
        var household: String
        var rank: Int32
        var options: [Option]

        /// The house number as written, the household key's part before the street.
        var numberText: Substring { household.prefix { $0 != "|" } }
        /// The whole number's parity: 0 even, 1 odd ("10a" is even).
        var parity: Int { Int(number.rounded(.down)) % 2 }
    }
    struct Option {
        var building: Int
        var along: Double
        var extra: Double
    }

    /// A face's entries in the order of their numbers along the street: by number, then by the
    /// number as written, so 10 comes before 10a and 10a before 10b (the household key alone,
    /// "10|street" against "10a|street", would put 10a first), then household and id rank.
    static func inNumberOrder(_ entries: [Entry]) -> [Entry] {
        // Their places sorted, not the entries themselves: an entry is large to move.
        let order = entries.indices.sorted { i, j in
            if entries[i].number != entries[j].number { return entries[i].number < entries[j].number }
            return (entries[i].numberText, entries[i].household, entries[i].rank) < (entries[j].numberText, entries[j].household, entries[j].rank)
        }
        return order.map { entries[$0] }
    }

    /// How many addresses in a row the alignment may leave out between two it matches.
    static let maxGap = 6

    /// The footprint each entry is matched to (by `Entry.slot`), for the direction of
    /// numbering (up or down the street) with the lower total cost; entries left out are absent.
    /// Leaving one out costs `leaveOut` (metres of extra cost): an address whose place in the
    /// order would cost more keeps its own best.
    /// A footprint standing back along the street from the previous number's costs `backstep`
    /// per metre (the default weight is so high that the order is in effect strict), except
    /// where one of the two stands behind the other (`behind(a, b)`: 1 when `b` stands behind
    /// `a`, −1 when `a` stands behind `b`, else 0) and the points say which is which: the point
    /// matched to the one behind stands at least `depthApart` metres farther from the street.
    /// Two houses one behind the other share a place along the street, so the order of their
    /// centres there is no evidence; a point that stands deeper is.
    /// Each of `homes` (places along the street, sorted) that lies strictly between the
    /// footprints of two numbers matched one after the other costs `passOver`.
    /// `entries` come in number order (`inNumberOrder`); `share(b)` is what a second household
    /// on footprint `b` costs (units of one number are one household, and share for nothing),
    /// nil where the footprint holds one household only.
    static func align(_ entries: [Entry], leaveOut: Double, backstep: Double, homes: [Double] = [], passOver: Double = 0,
                      behind: @escaping (Int, Int) -> Int = { _, _ in 0 }, depthApart: Double = .infinity,
                      direction: Double? = nil, share: (Int) -> Double?) -> [Int: Int] {
        guard entries.count > 1 else { return [:] }
        // Each option's mark among the homes, worked out once for both directions: the DP then
        // counts the homes between two options by a subtraction.
        let marks = passOver > 0 ? entries.map { $0.options.map { mark(homes, $0.along) } } : []
        let rules = Rules(leaveOut: leaveOut, backstep: backstep, marks: marks, passOver: passOver,
                          behind: behind, depthApart: depthApart)
        if let direction { return solve(entries, direction: direction, rules, share: share).matched }
        let up = solve(entries, direction: 1, rules, share: share)
        let down = solve(entries, direction: -1, rules, share: share)
        return (down.total < up.total ? down : up).matched
    }

    private struct Rules {
        var leaveOut: Double, backstep: Double, marks: [[Mark]], passOver: Double
        var behind: (Int, Int) -> Int, depthApart: Double

        /// True when the points of `prev` and `next` tell which of their footprints `a` and `b`,
        /// one standing behind the other, is whose (`FaceAlignment.align`).
        func deeper(_ prev: Entry, _ a: Int, _ next: Entry, _ b: Int) -> Bool {
            guard let d0 = prev.depth, let d1 = next.depth else { return false }
            let sense = behind(a, b)
            return sense != 0 && Double(sense) * (d1 - d0) >= depthApart
        }
    }

    /// Where a place stands among sorted homes: how many lie more than a centimetre below it,
    /// and how many lie below a centimetre above it.
    struct Mark { var below: Int, upTo: Int }

    static func mark(_ homes: [Double], _ x: Double) -> Mark {
        func under(_ v: Double) -> Int {
            var l = 0, h = homes.count
            while l < h { let m = (l + h) / 2; if homes[m] < v { l = m + 1 } else { h = m } }
            return l
        }
        return Mark(below: under(x - 0.01), upTo: under(x + 0.01))
    }

    /// How many homes lie strictly between two marked places, either way round (a centimetre's
    /// play, so the two footprints' own places are not counted).
    static func between(_ a: Mark, _ b: Mark) -> Int { max(0, b.below - a.upTo, a.below - b.upTo) }

    /// The places along the street of the homes among a face's options, sorted, for `passOver`:
    /// every footprint but an outbuilding, one standing behind another (`behind`, as a garage
    /// behind its house: the run of houses along the kerb passes before it), one a covered point
    /// holds (`held`), and one that is the best footprint of an address of a street other than
    /// `street` (`bestOf`: the streets whose addresses take each footprint first), as a corner
    /// house numbered on the cross street.
    static func homes(_ entries: [Entry], street: Substring, held: Set<Int>, bestOf: [Int: Set<String>],
                      outbuilding: (Int) -> Bool, behind: Set<Int> = []) -> [Double] {
        var at: [Int: Double] = [:]
        for e in entries {
            for o in e.options where !held.contains(o.building) && !outbuilding(o.building) && !behind.contains(o.building)
                && !isCorner(o.building, of: street, bestOf: bestOf) { at[o.building] = o.along }
        }
        return at.values.sorted()
    }

    /// True when `b` is the best footprint of an address of a street other than `street`
    /// (`bestOf`: the streets whose addresses take each footprint first): a corner house
    /// numbered on the cross street.
    static func isCorner(_ b: Int, of street: some StringProtocol, bestOf: [Int: Set<String>]) -> Bool {
        bestOf[b]?.contains { $0 != street } ?? false
    }

    /// Which of `footprints` stand behind another of them as seen from a street: the place
    /// along the street of a footprint's centre (its `along`) lies within the other's span along
    /// the street (`span`: the least and greatest place of its outline) and its outline stays
    /// farther from the street's line than the other's (`span`'s `near`, in metres). Neighbours
    /// in a row, each centre within its own span only, stand beside each other; two footprints
    /// as near the street over one span stand side by side.
    static func standingBehind(_ footprints: [(building: Int, along: Double)],
                               span: (Int) -> (lo: Double, hi: Double, near: Double)) -> Set<Int> {
        let spans = footprints.map { span($0.building) }
        var behind = Set<Int>()
        for (i, f) in footprints.enumerated()
        where spans.indices.contains(where: { j in j != i && stands(f.along, spans[i], behind: spans[j]) }) {
            behind.insert(f.building)
        }
        return behind
    }

    /// True when a footprint (its centre's place `along` the street and its span) stands behind
    /// another (its span): its centre lies within the other's span along the street and its
    /// outline stays farther from the street's line.
    static func stands(_ along: Double, _ span: (lo: Double, hi: Double, near: Double),
                       behind other: (lo: Double, hi: Double, near: Double)) -> Bool {
        other.lo <= along && along <= other.hi && other.near < span.near
    }

    /// Which of two footprints (each its centre's place along the street and its span) stands
    /// behind the other, as `align`'s `behind` reads it: 1 when `b` stands behind `a`, −1 when
    /// `a` stands behind `b`, else 0.
    static func stacking(_ a: (along: Double, span: (lo: Double, hi: Double, near: Double)),
                         _ b: (along: Double, span: (lo: Double, hi: Double, near: Double))) -> Int {
        if stands(b.along, b.span, behind: a.span) { return 1 }
        return stands(a.along, a.span, behind: b.span) ? -1 : 0
    }

    private struct Step { var cost: Double; var from: (entry: Int, option: Int)? }

    /// A dynamic programme over (entry, option): the least cost of matching entries 0...i with
    /// entry i matched to that option, its predecessor the last entry matched before it.
    private static func solve(_ entries: [Entry], direction: Double, _ rules: Rules, share: (Int) -> Double?)
        -> (total: Double, matched: [Int: Int]) {
        let leaveOut = rules.leaveOut, backstep = rules.backstep, passOver = rules.passOver
        let n = entries.count
        var table: [[Step]] = []
        table.reserveCapacity(n)
        for i in 0..<n {
            let e = entries[i]
            var row: [Step] = []
            row.reserveCapacity(e.options.count)
            for (oi, o) in e.options.enumerated() {
                var best = Step(cost: leaveOut * Double(i), from: nil)
                let here = passOver > 0 ? rules.marks[i][oi] : nil
                for j in stride(from: i - 1, through: max(0, i - maxGap), by: -1) {
                    let skipped = leaveOut * Double(i - j - 1)
                    if skipped >= best.cost { break }
                    let prev = entries[j]
                    for (k, po) in prev.options.enumerated() {
                        var c = table[j][k].cost + skipped
                        guard c < best.cost else { continue }
                        if po.building == o.building {
                            if prev.household != e.household {
                                guard let shared = share(o.building) else { continue }
                                c += shared
                            }
                        } else {
                            let back = direction * (po.along - o.along)
                            if back > 0 && !rules.deeper(prev, po.building, e, o.building) { c += backstep * back }
                            if let here { c += passOver * Double(between(rules.marks[j][k], here)) }
                        }
                        if c < best.cost { best = Step(cost: c, from: (j, k)) }
                    }
                }
                row.append(Step(cost: best.cost + o.extra, from: best.from))
            }
            table.append(row)
        }
        var total = leaveOut * Double(n)
        var end: (entry: Int, option: Int)? = nil
        for i in stride(from: n - 1, through: 0, by: -1) {
            let tail = leaveOut * Double(n - 1 - i)
            if tail >= total { break }
            for (k, s) in table[i].enumerated() where s.cost + tail < total {
                total = s.cost + tail
                end = (i, k)
            }
        }
        var matched: [Int: Int] = [:]
        while let at = end {
            matched[entries[at.entry].slot] = entries[at.entry].options[at.option].building
            end = table[at.entry][at.option].from
        }
        return (total, matched)
    }
}

extension LinkWorld {
    /// A footprint's span along a street's line (`lo`, `hi`: the least and greatest place along
    /// it of the footprint's outline, in metres from its start) and its outline's least distance
    /// from the line (`near`).
    func span(of b: Int, on chain: Int) -> (lo: Double, hi: Double, near: Double) {
        let line = streetChains.lines[chain]
        var lo = Double.infinity, hi = -Double.infinity, near = Double.infinity
        for ring in rings(b) {
            for c in ring {
                guard let at = Planar.locate(c, on: line) else { continue }
                lo = min(lo, at.along); hi = max(hi, at.along); near = min(near, abs(at.offset))
            }
        }
        return (lo, hi, near)
    }
}

/// One block face: a side of a street's line; for the addresses read along the road their street
/// search fell back to (`LinkWorld.facePlace`), also the street they name ("" for none).
struct FaceKey: Hashable, Comparable {
    var chain: Int
    var left: Bool
    var street: String?
    static func < (l: FaceKey, r: FaceKey) -> Bool {
        (l.chain, l.left ? 1 : 0, l.street ?? "", l.street == nil ? 0 : 1) < (r.chain, r.left ? 1 : 0, r.street ?? "", r.street == nil ? 0 : 1)
    }
}

extension LinkWorld {
    /// How far an address's point stands from where its rays start (`streetAnchor`).
    func depth(_ a: Int) -> Double? {
        streetAnchor(a).map { Planar.length(Planar.sub(points[a], $0.point)) }
    }

    /// Where an address stands for the face alignment, and its face: along its own street's line
    /// (`placeOnStreet`), else, when its own street is not near (a place name instead of a
    /// street, a street missing from the extract, no street at all), along the line of the
    /// named road its street search fell back to, in a face of its own street's numbers there;
    /// a number with no street, in that road's own face (`roadOfStreetless`).
    func facePlace(_ a: Int) -> (place: StreetPlace, face: FaceKey)? {
        if let here = placeOnStreet(a) { return (here, FaceKey(chain: here.chain, left: here.offset > 0, street: nil)) }
        guard let anchor = streetAnchor(a), !anchor.named, let here = place(a, alongChainOf: anchor.segment) else { return nil }
        let street = roadOfStreetless(a) == nil ? streetKeys[a] ?? "" : nil
        return (here, FaceKey(chain: here.chain, left: here.offset > 0, street: street))
    }

    /// The streets (keys, "" for none) whose pending addresses score each footprint best.
    func firstChoices(_ pending: [(address: Int, scored: [Candidate])]) -> [Int: Set<String>] {
        var out: [Int: Set<String>] = [:]
        for p in pending { if let b = p.scored.first?.building { out[b, default: []].insert(numberStreet(p.address)) } }
        return out
    }

    /// The footprint the face alignment gives each pending address (by its place in
    /// `pending`): the addresses with a number whose own street is near are grouped by that
    /// street's segment and side (the others by the road they stand by, `facePlace`), and each
    /// group whose numbers run along the street (`LinkWeights.readsOrder`) aligned. Addresses
    /// without either are absent.
    /// `fixed` holds addresses already linked for certain (COVERS): those of the same street
    /// within the house-number radius of an address to align take part with their own
    /// footprint only, so they pin the order of their neighbours.
    func faceAlignments(_ pending: [(address: Int, scored: [Candidate])], fixed: [(address: Int, building: Int)]) throws -> [Int: Int] {
        var faces: [FaceKey: [FaceAlignment.Entry]] = [:]
        // The streets whose addresses take each footprint first (`FaceAlignment.isCorner`).
        let bestOf = firstChoices(pending)
        var along: [Int: (along: Double, offset: Double)] = [:]
        func enter(slot: Int, address a: Int, _ candidates: [(building: Int, extra: Double, recess: Double, pastEnd: Bool)]) throws {
            guard let number = attrs.numbers[aIdx[a]], let (here, face) = facePlace(a), here.offset != 0 else { return }
            let s = here.chain
            let left = face.left
            var choices: [FaceAlignment.Option] = []
            let w = options.weights, street = numberStreet(a)
            for (b, extra, recess, pastEnd) in candidates where extra <= w.alignWindow {
                let key = s * buildingBoxes.count + b
                if along[key] == nil { along[key] = Planar.locate(try centre(b), on: streetChains.lines[s]) }
                guard let at = along[key], at.offset != 0, (at.offset > 0) == left else { continue }
                // A corner house numbered on the cross street costs what the assignment charges
                // for it on top of its score, within the tolerance like the rest.
                let corner = FaceAlignment.isCorner(b, of: street, bestOf: bestOf)
                var read = max(0, extra + (corner ? w.cornerPenalty : 0) - w.alignTolerance) + w.recessCost * min(recess, w.alignTolerance)
                // Past a piled end the point tells no house from another, but what a footprint is
                // still counts there in full, not within the tolerance: a corner house numbered on
                // the cross street costs what the assignment charges for it, an outbuilding what
                // scoring charges it (`outbuildingCost`).
                if pastEnd {
                    if corner { read += w.cornerPenalty }
                    read += outbuildingCost(b)
                }
                choices.append(FaceAlignment.Option(building: b, along: at.along, extra: read))
            }
            guard !choices.isEmpty else { return }
            faces[face, default: []].append(
                FaceAlignment.Entry(slot: slot, number: number, at: here.along, depth: slot < 0 ? nil : depth(a),
                                    household: houseKey(a), rank: attrs.addressRank[aIdx[a]], options: choices))
        }
        var entered: [Int] = []
        for (slot, p) in pending.enumerated() {
            guard let best = p.scored.first else { continue }
            try enter(slot: slot, address: p.address, p.scored.map { ($0.building, $0.cost - best.cost, $0.recess, $0.pastEnd) })
            entered.append(p.address)
        }
        guard !entered.isEmpty else { return [:] }
        // Only the fixed addresses of the same street near an address to align can pin it. The
        // fixed are most of a tile's addresses: looked up by index, not hashed.
        var fixedBuilding = [Int](repeating: -1, count: points.count), holds = [Bool](repeating: false, count: buildingBoxes.count)
        for f in fixed { fixedBuilding[f.address] = f.building; holds[f.building] = true }
        var near = Set<Int>()
        let r = options.weights.numberRadius
        for a in entered {
            let p = points[a]
            for j in addressIndex.query(BBox(around: p, radius: r))
            where fixedBuilding[j] >= 0 && streetKeys[j] == streetKeys[a] { near.insert(j) }
        }
        for j in near.sorted() { try enter(slot: -1 - j, address: j, [(fixedBuilding[j], 0, 0, false)]) }
        // What no face counts as a home (`FaceAlignment.homes`): of the footprints the faces offer.
        var held = Set<Int>()
        for entries in faces.values { for e in entries { for o in e.options where holds[o.building] { held.insert(o.building) } } }
        var out: [Int: Int] = [:]
        let w = options.weights
        for key in faces.keys.sorted() {
            for entries in FaceAlignment.runs(FaceAlignment.inNumberOrder(faces[key]!), apart: w.orderApart, agreement: w.orderAgreement) {
                // A face whose numbers do not run along the street has no order to align; one read
                // along another street's line must show its order (a pair of numbers compared).
                // One address has no order to keep (`FaceAlignment.align` matches none).
                guard entries.count > 1 else { continue }
                let own = HouseNumbers.signedAgreement(entries.map { ($0.at, $0.number) }, apart: w.orderApart)
                guard own.map({ abs($0) >= w.orderAgreement }) ?? (key.street == nil) else { continue }
                // Only a face whose points tell no order asks the opposite side.
                let direction = own == nil ? oppositeDirection(of: key, entries, faces: faces) : nil
                for (slot, b) in alignFace(entries, on: key.chain, held: held, bestOf: bestOf, direction: direction) where slot >= 0 {
                    out[slot] = b
                }
            }
        }
        return out
    }

    /// One face's alignment (`FaceAlignment.align`): its entries in number order, the line
    /// (`chain`) its places are read along, the footprints covered points hold (`held`) and the
    /// streets whose addresses take each footprint first (`bestOf`).
    private func alignFace(_ entries: [FaceAlignment.Entry], on chain: Int, held: Set<Int>,
                           bestOf: [Int: Set<String>], direction: Double?) -> [Int: Int] {
        // A footprint whose class names several households holds a second for nothing; one of
        // `sharedFootprint` or more may hold one at what the assignment charges for it.
        let weights = options.weights
        let share = { (b: Int) -> Double? in
            if self.attrs.multiUnitClass[self.bIdx[b]] { return 0 }
            return self.mayHoldSeveral(b) ? weights.occupiedPenalty : nil
        }
        // Two houses one behind the other are told apart only by points that many metres apart in
        // depth (`align`'s `depthApart`); a face whose points all stand alike (a geocoder's) has
        // none, and needs the spans of its homes only, for `standingBehind`.
        let depths = entries.compactMap(\.depth)
        let readsDepth = (depths.max() ?? 0) - (depths.min() ?? 0) >= options.weights.alignTolerance
        var spans: [Int: (along: Double, span: (lo: Double, hi: Double, near: Double))] = [:]
        for e in entries {
            for o in e.options where spans[o.building] == nil && (readsDepth || !isOutbuilding(o.building)) {
                spans[o.building] = (o.along, span(of: o.building, on: chain))
            }
        }
        let behind = options.weights.passOver > 0
            ? FaceAlignment.standingBehind(spans.keys.filter { !isOutbuilding($0) }.sorted().map { ($0, spans[$0]!.along) },
                                           span: { spans[$0]!.span })
            : []
        let homes = FaceAlignment.homes(entries, street: Occupancy.street(of: entries[0].household), held: held,
                                        bestOf: bestOf, outbuilding: { self.isOutbuilding($0) }, behind: behind)
        let stacked = { (a: Int, b: Int) -> Int in
            guard let x = spans[a], let y = spans[b] else { return 0 }
            return FaceAlignment.stacking(x, y)
        }
        return FaceAlignment.align(entries, leaveOut: options.weights.leaveOut, backstep: options.weights.backstepCost,
                                   homes: homes, passOver: options.weights.passOver,
                                   behind: stacked, depthApart: options.weights.alignTolerance, direction: direction,
                                   share: share)
    }
}

extension LinkWorld {
    /// The way a face is numbered where its own points tell no order, read from the opposite
    /// face of its street's line (`FaceAlignment.direction(of:opposite:apart:agreement:)`).
    func oppositeDirection(of key: FaceKey, _ entries: [FaceAlignment.Entry], faces: [FaceKey: [FaceAlignment.Entry]]) -> Double? {
        guard let other = faces[FaceKey(chain: key.chain, left: !key.left, street: key.street)] else { return nil }
        let w = options.weights
        return FaceAlignment.direction(of: entries, opposite: other, apart: w.orderApart, agreement: w.orderAgreement)
    }
}

extension FaceAlignment {
    /// The way a face whose points tell no order (no two of its numbers stand `apart` metres
    /// apart along the street) is numbered: read from the opposite face of its street's line
    /// where that face's order is read (`agreement`), the same way where one face holds odd
    /// numbers and the other even ones (a street numbered side by side), the other way where
    /// both hold odd and even numbers (a street numbered up one side and back down the other).
    /// 1 up the street's line, −1 down it; nil otherwise, and the alignment takes the cheaper.
    static func direction(of entries: [Entry], opposite other: [Entry], apart: Double, agreement: Double) -> Double? {
        guard HouseNumbers.signedAgreement(entries.map { ($0.at, $0.number) }, apart: apart) == nil,
              let tau = HouseNumbers.signedAgreement(other.map { ($0.at, $0.number) }, apart: apart),
              abs(tau) >= agreement else { return nil }
        let mine = parities(entries), theirs = parities(other)
        if mine.count == 1, theirs.count == 1, mine != theirs { return tau > 0 ? 1 : -1 }
        if mine.count == 2, theirs.count == 2 { return tau > 0 ? -1 : 1 }
        return nil
    }

    /// The runs of numbers a face holds, each aligned on its own: the face itself, or its odd and
    /// its even numbers apart where each runs in order (`agreement`, pairs `apart` metres apart)
    /// and the two run opposite ways: a street numbered up one side and back down the other
    /// whose line bends round (a hairpin bend, a block's corner) so that houses of both sides
    /// stand on one side of it. One monotone alignment cannot follow both; each run can.
    static func runs(_ entries: [Entry], apart: Double, agreement: Double) -> [[Entry]] {
        let odd = entries.filter { $0.parity == 1 }
        let even = entries.filter { $0.parity == 0 }
        guard !odd.isEmpty, !even.isEmpty,
              let oddWay = HouseNumbers.signedAgreement(odd.map { ($0.at, $0.number) }, apart: apart),
              let evenWay = HouseNumbers.signedAgreement(even.map { ($0.at, $0.number) }, apart: apart),
              abs(oddWay) >= agreement, abs(evenWay) >= agreement, (oddWay > 0) != (evenWay > 0) else { return [entries] }
        return [even, odd]
    }

    /// The parities (0 even, 1 odd) of a face's whole numbers.
    static func parities(_ entries: [Entry]) -> Set<Int> {
        Set(entries.map(\.parity))
    }
}
