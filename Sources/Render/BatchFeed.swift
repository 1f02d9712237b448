import Foundation
import Geo

/// A batch of streamed footprints made ready to draw: vertices in canvas pixels, and the
/// buildings on the canvas with their box and paint, in draw order.
final class DrawBatch: @unchecked Sendable {
    struct Footprint {
        var rings: Range<Int>
        var box: BBox
        var paint: StatusPaint
    }
    let points: [Coord]
    let rings: [Range<Int>]
    let footprints: [Footprint]
    init(points: [Coord], rings: [Range<Int>], footprints: [Footprint]) {
        self.points = points; self.rings = rings; self.footprints = footprints
    }
}

/// Hands the batches one reader makes to every drawing thread, in order, holding at most
/// `capacity` at once: the reader waits while the slowest drawer is that far behind, and a
/// batch is let go once every drawer has drawn it.
final class BatchFeed: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    /// Batches not yet taken by every drawer, the first of them numbered `base`.
    private var held: [DrawBatch] = []
    private var base = 0
    /// Each drawer's next batch number; nil once it has stopped.
    private var cursors: [Int?]
    private var finished = false

    init(drawers: Int, capacity: Int = 8) {
        self.capacity = capacity
        cursors = Array(repeating: 0, count: drawers)
    }

    /// Adds a batch, waiting while `capacity` are held; false when every drawer has stopped.
    func put(_ batch: DrawBatch) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while held.count >= capacity && cursors.contains(where: { $0 != nil }) { condition.wait() }
        guard cursors.contains(where: { $0 != nil }) else { return false }
        held.append(batch)
        condition.broadcast()
        return true
    }

    /// No more batches will come.
    func finish() {
        condition.lock(); finished = true; condition.broadcast(); condition.unlock()
    }

    /// Drawer `k`'s next batch, waiting for it; nil at the end.
    func take(_ k: Int) -> DrawBatch? {
        condition.lock(); defer { condition.unlock() }
        guard var next = cursors[k] else { return nil }
        while next - base >= held.count && !finished { condition.wait() }
        guard next - base < held.count else { return nil }
        let batch = held[next - base]
        next += 1
        cursors[k] = next
        release()
        return batch
    }

    /// Drawer `k` takes no more (done, or failed): the reader no longer waits for it.
    func leave(_ k: Int) {
        condition.lock(); cursors[k] = nil; release(); condition.unlock()
    }

    /// Lets go of the batches every remaining drawer has taken; wakes the reader.
    private func release() {
        let slowest = cursors.compactMap { $0 }.min() ?? base + held.count
        if slowest > base {
            held.removeFirst(slowest - base)
            base = slowest
        }
        condition.broadcast()
    }
}
