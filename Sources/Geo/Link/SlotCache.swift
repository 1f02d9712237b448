/// Values worked out once for each of a tile's footprints or addresses, by local index, in an
/// array made on the first value kept: a dictionary would hash every look-up, and the linker
/// looks these up many times for each address.
struct SlotCache<Value> {
    private var values: [Value?] = []
    /// How many slots there are.
    let count: Int

    init(count: Int) { self.count = count }

    /// The value kept for `slot`; nil when none is.
    subscript(slot: Int) -> Value? {
        get { values.isEmpty ? nil : values[slot] }
        set {
            if values.isEmpty {
                guard newValue != nil else { return }
                values = Array(repeating: nil, count: count)
            }
            values[slot] = newValue
        }
    }
}
