/// Improves a greedy assignment where the greedy order left total cost on the table: an address
/// moves to a cheaper footprint, or two addresses trade footprints, or an address takes a
/// footprint whose one holder moves on to a free footprint (a chain of two), whenever that
/// lowers the sum of the costs (occupancy included). Addresses are visited in id order and the
/// passes repeat until nothing improves (at most `maxPasses`), so the result is deterministic.
struct AssignmentRepair {
    let pending: [(address: Int, scored: [Candidate])]
    let keys: [String]
    let occupancy: Occupancy
    /// Slot → chosen candidate index in `pending[slot].scored`.
    var choice: [Int]
    /// Building → house key → how many holders (COVERS claims count one each).
    var held: [Int: [String: Int]] = [:]

    static let maxPasses = 4
    /// A change must save at least this much (metres of cost) to be made.
    static let epsilon = 1e-6

    init(pending: [(address: Int, scored: [Candidate])], keys: [String],
         claims: [Int: Set<String>], occupancy: Occupancy, choice: [Int]) {
        self.pending = pending; self.keys = keys; self.occupancy = occupancy
        self.choice = choice
        for (b, set) in claims { for k in set { held[b, default: [:]][k, default: 0] += 1 } }
        for (slot, k) in choice.enumerated() where k >= 0 { add(slot, k) }
    }

    private func key(_ slot: Int) -> String { keys[pending[slot].address] }
    private func building(_ slot: Int, _ k: Int) -> Int { pending[slot].scored[k].building }
    private mutating func add(_ slot: Int, _ k: Int) { held[building(slot, k), default: [:]][key(slot), default: 0] += 1 }
    private mutating func remove(_ slot: Int, _ k: Int) {
        let b = building(slot, k), h = key(slot)
        held[b]![h]! -= 1
        if held[b]![h]! == 0 { held[b]![h] = nil }
    }

    /// The cost of slot on candidate k with the holders as they are now (slot itself not counted).
    func cost(_ slot: Int, _ k: Int) -> Double {
        let c = pending[slot].scored[k], b = c.building
        guard let h = held[b] else { return c.cost }
        return c.cost + occupancy.added(key(slot), to: h.keys)
    }

    /// The one slot holding building b when exactly one pending address (and no COVERS claim)
    /// holds it, else nil.
    private func soleHolder(_ b: Int, holders: [Int: [Int]]) -> Int? {
        guard let slots = holders[b], slots.count == 1, (held[b]?.values.reduce(0, +) ?? 0) == 1 else { return nil }
        return slots[0]
    }

    /// The cost of each slot's choice and its cheapest other candidate, as things stand now.
    func costs(_ slot: Int) -> (cost: Double, runnerUp: Double) {
        var second = Double.infinity
        for k in pending[slot].scored.indices where k != choice[slot] { second = min(second, cost(slot, k)) }
        return (cost(slot, choice[slot]), second)
    }

    /// Runs the passes; returns the improved choice per slot.
    mutating func run(order: [Int]) -> [Int] {
        for _ in 0..<Self.maxPasses {
            var holders: [Int: [Int]] = [:]
            for slot in order where choice[slot] >= 0 { holders[building(slot, choice[slot]), default: []].append(slot) }
            var improved = false
            for x in order where choice[x] >= 0 {
                if improve(x, holders: &holders) { improved = true }
            }
            if !improved { break }
        }
        return choice
    }

    /// Tries the best single change for slot x (a move, or a move whose footprint's one holder
    /// moves on); true when one was made.
    private mutating func improve(_ x: Int, holders: inout [Int: [Int]]) -> Bool {
        let cur = choice[x]
        var best: (gain: Double, moves: [(Int, Int)])? = nil
        for k in pending[x].scored.indices where k != cur && pending[x].scored[k].cost < cost(x, cur) - Self.epsilon {
            var moves = [(x, k)]
            // b's one holder of another house moves on to its cheapest other footprint.
            let b = building(x, k)
            if let h = soleHolder(b, holders: holders), h != x, occupancy.added(key(x), to: CollectionOfOne(key(h))) > 0 {
                var alt: (cost: Double, j: Int)? = nil
                remove(x, cur)  // x's footprint is free for h
                for j in pending[h].scored.indices where j != choice[h] {
                    let c = cost(h, j)
                    if alt == nil || c < alt!.cost { alt = (c, j) }
                }
                add(x, cur)
                guard let alt else { continue }
                moves.append((h, alt.j))
            }
            let gain = saving(moves)
            if gain > Self.epsilon, best == nil || gain > best!.gain { best = (gain, moves) }
        }
        guard let m = best else { return false }
        for (s, k) in m.moves {
            holders[building(s, choice[s])]?.removeAll { $0 == s }
            remove(s, choice[s]); choice[s] = k; add(s, k)
            holders[building(s, k), default: []].append(s)
        }
        return true
    }

    /// How much the moves (slot, new candidate) lower the total cost: the movers' scores, plus
    /// the occupancy cost of each footprint they leave or join (`Occupancy.cost`: a second
    /// number of one street, or a second street, on a single-family footprint; the assignment's
    /// rule: the one that comes second pays).
    private mutating func saving(_ moves: [(Int, Int)]) -> Double {
        var touched = Set<Int>()
        for (s, k) in moves { touched.insert(building(s, choice[s])); touched.insert(building(s, k)) }
        func total() -> Double {
            moves.reduce(0.0) { $0 + pending[$1.0].scored[choice[$1.0]].cost }
                + touched.reduce(0.0) { $0 + (held[$1].map { occupancy.cost($0.keys) } ?? 0) }
        }
        let before = total()
        let old = moves.map { choice[$0.0] }
        for (s, k) in moves { remove(s, choice[s]); choice[s] = k; add(s, k) }
        let after = total()
        for ((s, k), o) in zip(moves, old) { remove(s, k); choice[s] = o; add(s, o) }
        return before - after
    }
}
