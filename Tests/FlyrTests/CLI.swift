import Foundation

/// Runs the built `flyr` binary (beside the test bundle) and captures its output.
struct CLI {
    struct Run { var status: Int32; var stdout: String; var stderr: String }

    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("flyr")
    }

    /// The repository root (for samples/), from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var sample: URL { root.appendingPathComponent("samples/queens-village") }
    static func sample(_ name: String) -> String { sample.appendingPathComponent(name).path }
    /// A file under `../shared/data` beside the checkout, or nil when absent (the test is skipped).
    static func shared(_ relative: String) -> String? {
        let path = root.deletingLastPathComponent().appendingPathComponent("shared/data").appendingPathComponent(relative).path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    @discardableResult
    static func run(_ args: [String], stdin: Data? = nil, executable: URL? = nil) throws -> Run {
        let p = Process()
        p.executableURL = executable ?? binary
        p.arguments = args
        // Outputs go to files, so a large output cannot block the child on a full pipe.
        let dir = try tempDir()
        let outURL = dir.appendingPathComponent("stdout"), errURL = dir.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        defer { try? out.close(); try? err.close(); try? FileManager.default.removeItem(at: dir) }
        p.standardOutput = out
        p.standardError = err
        let inPipe = Pipe()
        p.standardInput = stdin == nil ? FileHandle.nullDevice : inPipe
        try p.run()
        if let stdin {
            try inPipe.fileHandleForWriting.write(contentsOf: stdin)
            try inPipe.fileHandleForWriting.close()
        }
        p.waitUntilExit()
        let outData = try Data(contentsOf: outURL), errData = try Data(contentsOf: errURL)
        return Run(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs a /bin/sh script (for `ulimit`); `$FLYR` in it is the built binary.
    static func shell(_ script: String) throws -> Run {
        try run(["-c", "FLYR='\(binary.path)'; " + script], executable: URL(fileURLWithPath: "/bin/sh"))
    }

    /// A fresh temporary directory for one test.
    static func tempDir() throws -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("flyr-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }
}

extension CLI {
    /// A `flyr` process started in the background, its output going to files.
    final class Started {
        let process: Process
        let dir: URL
        init(process: Process, dir: URL) { self.process = process; self.dir = dir }

        /// What the process has written to stderr so far.
        var stderrSoFar: String {
            String(decoding: (try? Data(contentsOf: dir.appendingPathComponent("stderr"))) ?? Data(), as: UTF8.self)
        }

        /// Sends SIGKILL; false when the process had already exited.
        func kill() -> Bool {
            guard process.isRunning else { return false }
            Foundation.kill(process.processIdentifier, SIGKILL)
            return true
        }

        func wait() throws -> Run {
            process.waitUntilExit()
            let out = (try? Data(contentsOf: dir.appendingPathComponent("stdout"))) ?? Data()
            let err = (try? Data(contentsOf: dir.appendingPathComponent("stderr"))) ?? Data()
            try? FileManager.default.removeItem(at: dir)
            return Run(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                       stderr: String(decoding: err, as: UTF8.self))
        }
    }

    static func start(_ args: [String]) throws -> Started {
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        let dir = try tempDir()
        let outURL = dir.appendingPathComponent("stdout"), errURL = dir.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: outURL)
        p.standardError = try FileHandle(forWritingTo: errURL)
        p.standardInput = FileHandle.nullDevice
        try p.run()
        return Started(process: p, dir: dir)
    }
}
