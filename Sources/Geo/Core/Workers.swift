import Foundation

/// One result slot per unit of work (a tile, a chunk, a job on another thread), filled by
/// parallel workers; reading a slot that was never set is a programming error.
public final class SlotResults<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<T, Error>?]
    public init(count: Int) { results = Array(repeating: nil, count: count) }
    public func set(_ i: Int, _ r: Result<T, Error>) { lock.lock(); results[i] = r; lock.unlock() }
    public func get(_ i: Int) throws -> T {
        lock.lock(); defer { lock.unlock() }
        return try results[i]!.get()
    }
    /// The error in slot `i`; nil when it holds a value or is empty.
    public func error(_ i: Int) -> Error? {
        lock.lock(); defer { lock.unlock() }
        if case .failure(let e) = results[i] { return e }
        return nil
    }
}

/// Hands out unit numbers (tiles, chunks) to workers, each once.
public final class TileCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    public init() {}
    public func take(below n: Int) -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < n else { return nil }
        next += 1
        return next - 1
    }
}

/// Runs `body(0..<n)` on `n` workers at once and returns when all are done. At `niceness` 0,
/// on the dispatch pool (`concurrentPerform`); above 0, on threads of their own at that nice
/// value (Linux keeps it per thread), so that work going on beside them is served first: a
/// pool thread is not niced, as an unprivileged process could not give it its priority back.
func runWorkers(_ n: Int, niceness: Int32 = 0, _ body: @Sendable (Int) -> Void) {
    guard niceness > 0 else { return DispatchQueue.concurrentPerform(iterations: n, execute: body) }
    withoutActuallyEscaping(body) { body in
        // The threads reach `body` through the box, which lets go of it once they are done:
        // a thread object may outlive its work, and `body` must not outlive this call.
        let box = WorkerBody(body)
        let done = DispatchGroup()
        for k in 0..<n {
            done.enter()
            Thread {
                setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
                box.body?(k)
                done.leave()
            }.start()
        }
        done.wait()
        box.body = nil
    }
}

private final class WorkerBody: @unchecked Sendable {
    var body: (@Sendable (Int) -> Void)?
    init(_ body: @escaping @Sendable (Int) -> Void) { self.body = body }
}

/// A buffer written by several workers at once, each in slots of its own.
struct SharedSlots<T>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<T>
    init(_ buffer: UnsafeMutableBufferPointer<T>) { self.buffer = buffer }
}
