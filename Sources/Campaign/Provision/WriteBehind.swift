import Foundation

/// Has the kernel write a file's dirty pages out on another thread (fdatasync on a descriptor
/// of its own) while the writer goes on. Errors are left to the writer's own fsync, which
/// sees them too; a file that cannot be opened is simply not written behind.
final class WriteBehind: @unchecked Sendable {
    private let fd: Int32
    private let queue = DispatchQueue(label: "flyr.write-behind")

    init(_ path: String) { fd = open(path, O_RDONLY) }

    func start() {
        guard fd >= 0 else { return }
        queue.async { _ = fdatasync(self.fd) }
    }

    /// Waits for the writing started and closes the descriptor.
    func finish() {
        guard fd >= 0 else { return }
        queue.sync {}
        close(fd)
    }
}
