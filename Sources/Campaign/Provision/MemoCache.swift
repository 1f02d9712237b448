import Foundation

/// A small thread-safe memo table.
final class MemoCache<K: Hashable & Sendable, V: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var table: [K: V] = [:]
    func value(for key: K, _ make: () -> V) -> V {
        lock.lock(); defer { lock.unlock() }
        if let v = table[key] { return v }
        let v = make()
        if table.count < 10_000 { table[key] = v }
        return v
    }
}
