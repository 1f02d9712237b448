import Foundation

/// Rows made on one thread and written on another: the maker runs on its own thread and
/// hands over chunks (a `RowValues` per table) through a short queue, which bounds the memory
/// held; the writer takes them in order. When the writer stops early (an error), the maker is
/// told to stop at its next hand-over.
final class RowPipe: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [[RowValues]] = []
    private var made = false, stopped = false
    private let capacity: Int
    private let finished = DispatchGroup()

    /// Starts `make` on its own thread; it calls its argument with each chunk, which returns
    /// false when the writer has stopped (then `make` should return).
    init(capacity: Int = 4, _ make: @escaping @Sendable (_ put: ([RowValues]) -> Bool) -> Void) {
        self.capacity = capacity
        finished.enter()
        // A thread of its own (see `Background`).
        Thread {
            make { chunk in self.put(chunk) }
            self.condition.lock(); self.made = true; self.condition.broadcast(); self.condition.unlock()
            self.finished.leave()
        }.start()
    }

    /// The same for one table, `make` adding a row at a time: its argument fills one row and
    /// returns false when the writer has stopped; rows go over in chunks of `chunkRows`.
    convenience init(chunkRows: Int, columns: Int,
                     _ make: @escaping @Sendable (_ row: ((inout RowValues) -> Void) -> Bool) -> Void) {
        self.init { put in
            var values = RowValues(capacity: chunkRows * columns)
            make { fill in
                fill(&values)
                values.endRow()
                guard values.rows == chunkRows else { return true }
                defer { values = RowValues(capacity: chunkRows * columns) }
                return put([values])
            }
            if values.rows > 0 { _ = put([values]) }
        }
    }

    private func put(_ chunk: [RowValues]) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while queue.count >= capacity && !stopped { condition.wait() }
        if stopped { return false }
        queue.append(chunk)
        condition.broadcast()
        return true
    }

    /// The next chunk in order; nil once the maker is done and every chunk taken.
    func take() -> [RowValues]? {
        condition.lock(); defer { condition.unlock() }
        while queue.isEmpty && !made { condition.wait() }
        if queue.isEmpty { return nil }
        let chunk = queue.removeFirst()
        condition.broadcast()
        return chunk
    }

    /// Takes every chunk and hands it to `write`, on this thread; on an error, stops the maker,
    /// waits for it, and throws.
    func drain(_ write: ([RowValues]) throws -> Void) throws {
        do {
            while let chunk = take() { try write(chunk) }
        } catch {
            condition.lock(); stopped = true; queue = []; condition.broadcast(); condition.unlock()
            finished.wait()
            throw error
        }
        finished.wait()
    }
}
