/// Resolves BUFFER/NEAREST candidates into links, one house per single-family footprint,
/// in a stable global order: the most certain address (largest gap between its best and its
/// runner-up cost) claims first; each claim raises the cost of that building for addresses
/// with another house number (`Occupancy`), and their certainty is recomputed. Ties go to the smaller cost,
/// then the smaller address id, so the result does not depend on input order.
struct Assignment {
    struct Choice { var candidate: Candidate; var cost: Double; var runnerUp: Double }

    /// `keys[a]`: the house key of address a. `claims`: keys already on a building (COVERS), for
    /// the candidate buildings at least.
    /// `addressRank`/`buildingRank`: each feature's place in id order (ties are broken by id).
    static func resolve(pending: [(address: Int, scored: [Candidate])], keys: [String], addressRank: [Int32],
                        buildingRank: [Int32], claims initial: [Int: Set<String>],
                        occupancy: Occupancy) -> [Int: Choice] {
        var byBuilding: [Int: [Int]] = [:]  // building → pending slots
        for (slot, p) in pending.enumerated() { for c in p.scored { byBuilding[c.building, default: []].append(slot) } }
        var claims = initial

        func evaluate(_ slot: Int) -> Choice? {
            let (a, scored) = pending[slot]
            var best: Choice? = nil
            var second = Double.infinity
            for c in scored {
                var cost = c.cost
                if let held = claims[c.building] { cost += occupancy.added(keys[a], to: held) }
                if let b = best {
                    if cost < b.cost || (cost == b.cost && buildingRank[c.building] < buildingRank[b.candidate.building]) {
                        second = b.cost
                        best = Choice(candidate: c, cost: cost, runnerUp: 0)
                    } else {
                        second = min(second, cost)
                    }
                } else {
                    best = Choice(candidate: c, cost: cost, runnerUp: 0)
                }
            }
            best?.runnerUp = second
            return best
        }

        var heap = Heap<Entry>()
        var version = [Int](repeating: 0, count: pending.count)
        var done = [Bool](repeating: false, count: pending.count)
        func push(_ slot: Int) {
            guard let ch = evaluate(slot) else { done[slot] = true; return }
            heap.push(Entry(regret: ch.runnerUp - ch.cost, cost: ch.cost, id: addressRank[pending[slot].address],
                            slot: slot, version: version[slot]))
        }
        for slot in pending.indices { push(slot) }
        var out: [Int: Choice] = [:]
        while let e = heap.pop() {
            guard !done[e.slot], e.version == version[e.slot], let ch = evaluate(e.slot) else { continue }
            done[e.slot] = true
            let a = pending[e.slot].address, b = ch.candidate.building
            out[a] = ch
            let (inserted, _) = claims[b, default: []].insert(keys[a])
            guard inserted else { continue }
            for other in byBuilding[b] ?? [] where !done[other] {
                version[other] += 1
                push(other)
            }
        }
        return repaired(out, pending: pending, keys: keys, addressRank: addressRank,
                        claims: initial, occupancy: occupancy)
    }

    /// The greedy choices after `AssignmentRepair`; the choices it changed get their cost and
    /// runner-up anew.
    static func repaired(_ greedy: [Int: Choice], pending: [(address: Int, scored: [Candidate])], keys: [String],
                         addressRank: [Int32], claims: [Int: Set<String>], occupancy: Occupancy) -> [Int: Choice] {
        let first = pending.map { p in
            greedy[p.address].flatMap { ch in p.scored.firstIndex { $0.building == ch.candidate.building } } ?? -1
        }
        var repair = AssignmentRepair(pending: pending, keys: keys, claims: claims,
                                      occupancy: occupancy, choice: first)
        let order = pending.indices.sorted { addressRank[pending[$0].address] < addressRank[pending[$1].address] }
        let final = repair.run(order: order)
        var out = greedy
        for slot in pending.indices where final[slot] != first[slot] {
            let (cost, runnerUp) = repair.costs(slot)
            out[pending[slot].address] = Choice(candidate: pending[slot].scored[final[slot]], cost: cost, runnerUp: runnerUp)
        }
        return out
    }

    struct Entry: Comparable {
        var regret: Double, cost: Double, id: Int32, slot: Int, version: Int
        /// "Less" pops first: larger regret, then smaller cost, then smaller id.
        static func < (l: Entry, r: Entry) -> Bool {
            if l.regret != r.regret { return l.regret > r.regret }
            if l.cost != r.cost { return l.cost < r.cost }
            return l.id < r.id
        }
    }
}

/// A binary min-heap.
struct Heap<T: Comparable> {
    private var items: [T] = []
    var isEmpty: Bool { items.isEmpty }
    /// The item `pop` would return, left in place.
    var peek: T? { items.first }

    mutating func push(_ x: T) {
        items.append(x)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i] < items[parent] else { break }
            items.swapAt(i, parent); i = parent
        }
    }

    mutating func pop() -> T? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count, items[l] < items[m] { m = l }
            if r < items.count, items[r] < items[m] { m = r }
            if m == i { break }
            items.swapAt(i, m); i = m
        }
        return top
    }
}

extension Assignment {
    /// Two covered points a geocoder set (`StreetOffset`), each chosen for the footprint its face
    /// aligned the other to: a slide carried each across the party wall into the other's house,
    /// which the points' own costs cannot see and the order along the street can. Each takes the
    /// footprint its face aligned it to; its cost is that candidate's, its runner-up the one it
    /// left (so its confidence's margin falls). Pairs are read in id order, each address once.
    /// The caller skips it where the face's order has no say (`orderPenalty` 0).
    static func uncrossed(_ chosen: [Int: Choice], pending: [(address: Int, scored: [Candidate])],
                          aligned: [Int: Int], readAsGeocoders: Set<Int>, addressRank: [Int32]) -> [Int: Choice] {
        var out = chosen
        var byBuilding: [Int: [Int]] = [:]  // footprint → the points read so that chose it
        let crossed = readAsGeocoders.filter { a in aligned[a].map { $0 != chosen[a]?.candidate.building } ?? false }
            .sorted { addressRank[$0] < addressRank[$1] }
        guard crossed.count > 1 else { return chosen }
        for a in crossed { if let b = chosen[a]?.candidate.building { byBuilding[b, default: []].append(a) } }
        let wanted = Set(crossed)
        var scored: [Int: [Candidate]] = [:]
        for p in pending where wanted.contains(p.address) { scored[p.address] = p.scored }
        var done = Set<Int>()
        for a in crossed where !done.contains(a) {
            guard let mine = chosen[a], let want = aligned[a] else { continue }
            guard let b = byBuilding[want]?.first(where: { !done.contains($0) && $0 != a && aligned[$0] == mine.candidate.building }),
                  let theirs = chosen[b],
                  let ca = scored[a]?.first(where: { $0.building == want }),
                  let cb = scored[b]?.first(where: { $0.building == mine.candidate.building }) else { continue }
            out[a] = Choice(candidate: ca, cost: ca.cost, runnerUp: mine.cost)
            out[b] = Choice(candidate: cb, cost: cb.cost, runnerUp: theirs.cost)
            done.formUnion([a, b])
        }
        return out
    }
}
