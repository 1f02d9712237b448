import Foundation

/// A value made on its own thread from the moment it is created; `value` waits for it.
final class Background<T: Sendable>: @unchecked Sendable {
    private var result: T?
    private let done = DispatchGroup()

    init(_ make: @escaping @Sendable () -> T) {
        done.enter()
        // A thread of its own, not a dispatch queue's: the queue's few threads may all be busy
        // with a parallel loop (the orientation's), and the value would wait for them.
        Thread { self.result = make(); self.done.leave() }.start()
    }

    /// Waits until the value is made (without taking it).
    func wait() { done.wait() }

    /// The value, once: waits for it and lets go of it, so the caller holds the only copy and
    /// it is freed when the caller is done with it.
    func take() -> T {
        done.wait()
        defer { result = nil }
        return result!
    }
}

/// A count made on another thread and read once that thread is known to be done.
final class Tally: @unchecked Sendable { var count = 0 }
