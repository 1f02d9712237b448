import ArgumentParser
import Campaign
import Foundation
import Geo
import Render

struct QRCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qr",
        abstract: "One QR image per address, named by its slug, and manifest.csv, into a ZIP or a directory.",
        discussion: """
        Each code holds BASE/q/SLUG (the base is the campaign's: see flyr qr-base-url). -o ending in \
        .zip writes a ZIP (entries stored, images written into it as they are made); -o ending in / \
        or naming a directory writes the files there. manifest.csv is the VDP manifest (flyr export --vdp). \
        Nothing is written when any code fails; progress goes to stderr.
        """)

    @OptionGroup var file: CampaignFile
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("codes.zip, or a directory (DIR/).", valueName: "codes.zip|DIR/"))
    var output: String
    @Option(name: .long, help: ArgumentHelp("Image format: png, svg or pdf.", valueName: "format"))
    var format: QRImageFormat = .png
    @Option(name: .long, help: ArgumentHelp("PNG side in pixels.", valueName: "px"))
    var size = 512
    @OptionGroup var qr: QROptions
    @Option(name: .long, help: ArgumentHelp("Threads making images (default: the cores).", valueName: "n"))
    var threads: Int?
    @Flag(name: .long, help: "Replace the output if it exists.")
    var force = false

    var toDirectory: Bool {
        var isDir: ObjCBool = false
        return output.hasSuffix("/") || (FileManager.default.fileExists(atPath: output, isDirectory: &isDir) && isDir.boolValue)
    }

    func validate() throws {
        guard (21...20_000).contains(size) else { throw ValidationError("--size takes 21 to 20000 pixels, e.g. --size 512") }
        if let threads, !(1...64).contains(threads) { throw ValidationError("--threads takes 1 to 64") }
        guard toDirectory || output.lowercased().hasSuffix(".zip") else {
            throw ValidationError("-o takes a .zip file or a directory ending in /, e.g. -o codes.zip or -o codes/")
        }
    }

    func run() throws {
        do { try execute() } catch { reportAndExit(error) }
    }

    private func execute() throws {
        let start = ContinuousClock.now
        let store = try file.open(readOnly: true)
        let total = try store.checkedPrintCount()
        let base = try store.qrBaseURL()
        let staged = try StagedOutput(output, isDirectory: toDirectory, force: force)
        do {
            let sink = try QRSink(staged: staged)
            let pool = QRImagePool(format: format, style: qr.style(pixels: size),
                                   threads: threads ?? ProcessInfo.processInfo.activeProcessorCount)
            let writer = QRBatchWriter(sink: sink, base: base, format: format, total: total)
            // Nothing is discarded while a batch is still being written.
            defer { writer.drain() }
            var batch: [PrintAddress] = []
            func flush() throws {
                let images = try pool.images(of: batch.map { QRLink.url(base: base, slug: $0.slug!) })
                try writer.write(Array(zip(batch, images)))
                batch.removeAll(keepingCapacity: true)
            }
            try store.forEachPrintAddress { a in
                batch.append(a)
                if batch.count == 256 { try flush() }
            }
            try flush()
            try writer.finish()
            try store.close()
            try sink.finish()
            try staged.commit()
        } catch {
            staged.discard()
            try? FileManager.default.removeItem(atPath: QRSink.manifestPath(staged))
            throw error
        }
        Log.info("flyr qr: \(total) codes (\(format.rawValue)) and manifest.csv in \(staged.target), \(LinkTable.format(seconds(since: start), 2)) s")
    }
}

/// Writes made batches (images into the sink, rows into the manifest) on a thread of its own
/// while the next batch is made; at most two batches wait. The first failure stops the writing
/// and is thrown by the next `write` or by `finish`.
final class QRBatchWriter: @unchecked Sendable {
    private let sink: QRSink
    private let base: String
    private let format: QRImageFormat
    private let queue = DispatchQueue(label: "flyr.qr.write")
    private let slots = DispatchSemaphore(value: 2)
    private let lock = NSLock()
    private var failure: Error?
    private var progress: Progress

    init(sink: QRSink, base: String, format: QRImageFormat, total: Int) {
        self.sink = sink
        self.base = base
        self.format = format
        progress = Progress(total: total, what: "codes")
    }

    func write(_ batch: [(PrintAddress, Data)]) throws {
        try check()
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard (lock.withLock { failure == nil }) else { return }
            do {
                for (a, image) in batch {
                    let name = "\(a.slug!).\(format.rawValue)"
                    try sink.add(name: name, data: image)
                    try sink.manifest.append(VDPManifest.row(a, url: QRLink.url(base: base, slug: a.slug!), file: name))
                }
                progress.advance(batch.count)
            } catch {
                lock.withLock { failure = error }
            }
        }
    }

    /// Waits for the batches handed over.
    func drain() { queue.sync {} }

    /// Waits for the batches handed over; throws the first failure.
    func finish() throws {
        drain()
        try check()
    }

    private func check() throws {
        if let failure = lock.withLock({ failure }) { throw failure }
    }
}

/// Where `flyr qr` puts images and the manifest: a ZIP (the manifest staged in a file beside it,
/// added last) or a directory.
final class QRSink {
    let manifest: TextFileWriter
    private let zip: ZipWriter?
    private let staged: StagedOutput
    private let manifestPath: String

    init(staged: StagedOutput) throws {
        self.staged = staged
        zip = staged.isDirectory ? nil : try ZipWriter(path: staged.staging)
        manifestPath = Self.manifestPath(staged)
        manifest = try TextFileWriter(path: manifestPath)
        try manifest.append(VDPManifest.header + "\n")
    }

    /// The manifest's file: in the directory, or beside the ZIP until it is copied in.
    static func manifestPath(_ staged: StagedOutput) -> String {
        staged.isDirectory ? staged.staging + "/manifest.csv" : staged.staging + ".manifest"
    }

    func add(name: String, data: Data) throws {
        if let zip { try zip.add(name: name, data: data); return }
        let path = staged.staging + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            throw CLIError(message: "cannot write \(path): \(String(cString: strerror(errno)))", code: Exit.ioError)
        }
    }

    func finish() throws {
        try manifest.close()
        guard let zip else { return }
        defer { try? FileManager.default.removeItem(atPath: manifestPath) }
        try zip.add(name: "manifest.csv", file: manifestPath)
        try zip.finish()
    }
}

/// Text appended to a new file through a 1 MiB buffer; `close()` writes the rest.
final class TextFileWriter {
    let path: String
    private let handle: FileHandle
    private var buffer = ""

    init(path: String) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else {
            throw CLIError(message: "cannot create \(path): \(String(cString: strerror(errno)))", code: Exit.cantCreate)
        }
        handle = h
    }

    func append(_ text: String) throws {
        buffer += text
        if buffer.utf8.count >= 1 << 20 { try flush() }
    }

    func close() throws {
        try flush()
        do { try handle.close() } catch { throw CLIError(message: "cannot close \(path): \(error)", code: Exit.ioError) }
    }

    private func flush() throws {
        do { try handle.write(contentsOf: Data(buffer.utf8)) } catch {
            throw CLIError(message: "cannot write \(path): \(error.localizedDescription)", code: Exit.ioError)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// "flyr qr: 12000 of 640900 codes" on stderr, at most every two seconds.
struct Progress {
    let total: Int
    let what: String
    private var done = 0
    private var last = ContinuousClock.now

    init(total: Int, what: String) { self.total = total; self.what = what }

    mutating func advance(_ n: Int) {
        done += n
        guard ContinuousClock.now - last >= .seconds(2) else { return }
        last = ContinuousClock.now
        Log.info("flyr: \(done) of \(total) \(what)")
    }
}
