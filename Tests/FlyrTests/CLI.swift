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

    @discardableResult
    static func run(_ args: [String], stdin: Data? = nil) throws -> Run {
        let p = Process()
        p.executableURL = binary
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

    /// A fresh temporary directory for one test.
    static func tempDir() throws -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("flyr-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }
}
