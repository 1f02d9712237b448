import Foundation

/// An output file or directory made under a temporary name beside its target and renamed
/// onto it only when complete: a failure leaves no output, or the previous one with --force.
struct StagedOutput {
    let target: String
    let isDirectory: Bool
    /// Where the output is written until `commit()`.
    let staging: String

    /// Refuses an existing target without `force`; creates the staging directory for a directory.
    init(_ target: String, isDirectory: Bool, force: Bool) throws {
        var t = target
        while t.count > 1 && t.hasSuffix("/") { t.removeLast() }
        self.target = t
        self.isDirectory = isDirectory
        try checkOutput(t, force: force)
        let url = URL(fileURLWithPath: t)
        staging = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())").path
        try? FileManager.default.removeItem(atPath: staging)
        if isDirectory {
            do { try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false) } catch {
                throw CLIError(message: "cannot create \(t): \(error.localizedDescription)", code: Exit.cantCreate)
            }
        } else if !FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path) {
            throw CLIError(message: "cannot create \(t): no directory \(url.deletingLastPathComponent().path)", code: Exit.cantCreate)
        }
    }

    /// Puts the finished output in place (a directory replaced by --force goes after the new one is in).
    func commit() throws {
        let fm = FileManager.default
        var old: String?
        if isDirectory, fm.fileExists(atPath: target) {
            old = staging + "-old"
            guard rename(target, old!) == 0 else { throw failure() }
        }
        guard rename(staging, target) == 0 else {
            let e = failure()
            if let old { _ = rename(old, target) }
            throw e
        }
        if let old { try? fm.removeItem(atPath: old) }
    }

    /// Removes what was staged.
    func discard() { try? FileManager.default.removeItem(atPath: staging) }

    private func failure() -> CLIError {
        CLIError(message: "cannot put \(target) in place: \(String(cString: strerror(errno)))", code: Exit.cantCreate)
    }
}
