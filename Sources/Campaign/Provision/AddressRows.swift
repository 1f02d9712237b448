import Foundation
import Geo

extension Provisioner {
    /// An address row's values that take work to make, in the order rows are written (by id).
    struct AddressRow: Sendable {
        /// Into `input.addresses` and `input.links.links` (-1: none).
        var index: Int32, link: Int32
        var seq: Int32
        var slug: String
    }

    /// The rows, and their one-line forms one after another in one buffer (a string each
    /// would be an allocation each, tens of megabytes at a city's addresses).
    struct AddressRows: Sendable {
        var rows: [AddressRow] = []
        var formattedBytes: [UInt8] = []
        var formattedEnds: [Int32] = []

        func formatted(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
            let start = k == 0 ? 0 : Int(formattedEnds[k - 1])
            formattedBytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<Int(formattedEnds[k])])) }
        }
    }

    /// The field data of an address that a re-provision keeps.
    struct KeptFields: Sendable { var visited: Bool; var scans: Int; var slug: String? }

    /// Each address's row, in id order: its link, its place in the walking order, its QR slug
    /// (kept, or new and unique in the campaign) and its one-line form.
    static func prepareAddressRows(_ input: ProvisionInput, kept: [String: KeptFields]) throws -> AddressRows {
        let ids = input.addresses.map { $0.id }
        let idOrder = input.links.addressOrder(of: input.addresses) ?? IDOrder.sortedIndices(ids)
        let seq = walkingOrder(input.addresses, idOrder: idOrder)

        // The slugs in use, as numbers (a kept slug not in this form cannot equal a new one).
        var slugs = Set(kept.values.compactMap { $0.slug.flatMap(QRSlug.code) })
        // One link per address, sorted by address id like the rows made here.
        var links = SortedLookup(input.links.links.map(\.addressID))
        var out = AddressRows()
        out.rows.reserveCapacity(input.addresses.count)
        out.formattedEnds.reserveCapacity(input.addresses.count)
        var random = QRSlug.Source()
        // Each distinct `address_levels` text parsed once.
        var levels = TextMemo<[String]>()
        for i in idOrder {
            let id = ids[i]
            let l = links.next(id) ?? -1
            var slug = kept.isEmpty ? nil : kept[id]?.slug
            if slug == nil {
                var code: UInt64
                repeat { code = QRSlug.makeCode(&random) } while !slugs.insert(code).inserted
                slug = QRSlug.text(code)
            }
            out.rows.append(AddressRow(index: Int32(i), link: Int32(l), seq: seq[i], slug: slug!))
            let addressLevels = input.addresses[i].addressLevelsJSON.map { levels.value($0, AddressFormat.levelValues) } ?? []
            AddressFormat.oneLine(input.addresses[i], levels: addressLevels, into: &out.formattedBytes)
            out.formattedEnds.append(try CheckedCount.int32(out.formattedBytes.count, "bytes of one-line addresses"))
        }
        return out
    }

    /// Each address's place in the walking order, from 1: street, house number (numeric, then
    /// as written), unit, id. Each text is replaced by its rank among the distinct values (few:
    /// streets, numbers, units), and the id by its rank in `idOrder`, so the sort compares
    /// numbers only.
    static func walkingOrder(_ addresses: [Address], idOrder: [Int]) -> [Int32] {
        struct WalkKey { var street: Int32, number: Double, numberText: Int32, unit: Int32, id: Int32 }
        var keys: [WalkKey] = []
        do {
            let streets = ranks(StreetName.keys(of: addresses).lazy.map { $0 ?? "" })
            let numberTexts = ranks(addresses.indices.lazy.map { addresses[$0].number ?? "" })
            let units = ranks(addresses.indices.lazy.map { addresses[$0].unit ?? "" })
            var idRank = [Int32](repeating: 0, count: addresses.count)
            for (n, i) in idOrder.enumerated() { idRank[i] = Int32(n) }
            let numbers = HouseNumbers.values(addresses.map(\.number))
            keys = addresses.indices.map { i in
                WalkKey(street: streets[i], number: numbers[i] ?? .infinity,
                        numberText: numberTexts[i], unit: units[i], id: idRank[i])
            }
        }
        let order = addresses.indices.sorted { i, j in
            let a = keys[i], b = keys[j]
            if a.street != b.street { return a.street < b.street }
            if a.number != b.number { return a.number < b.number }
            if a.numberText != b.numberText { return a.numberText < b.numberText }
            if a.unit != b.unit { return a.unit < b.unit }
            return a.id < b.id
        }
        keys = []
        var seq = [Int32](repeating: 0, count: addresses.count)
        for (n, i) in order.enumerated() { seq[i] = Int32(n + 1) }
        return seq
    }

    /// Each text's rank among the distinct texts in String order. Texts distinct byte for byte
    /// may still be equal as Strings (composed and decomposed accents): those share a rank.
    static func ranks<S: Sequence<String>>(_ texts: S) -> [Int32] {
        var distinct = TextNumbers()
        let numbers = texts.map { distinct.number($0) }
        var rank = [Int32](repeating: 0, count: distinct.count)
        var r: Int32 = -1, previous: String? = nil
        for n in distinct.texts.indices.sorted(by: { distinct.texts[$0] < distinct.texts[$1] }) {
            if distinct.texts[n] != previous { r += 1; previous = distinct.texts[n] }
            rank[n] = r
        }
        return numbers.map { rank[Int($0)] }
    }
}

/// Finds ids in a sorted array of ids (those of an array of items), for ids asked in
/// ascending order: one forward pass, no dictionary, no item copied.
struct SortedLookup {
    private let ids: [String]
    private var at = 0

    init(_ ids: [String]) { self.ids = ids }

    /// The index of `wanted`, or nil; `wanted` must not be below the previous one asked.
    mutating func next(_ wanted: String) -> Int? {
        while at < ids.count && ids[at] < wanted { at += 1 }
        return at < ids.count && ids[at] == wanted ? at : nil
    }
}
