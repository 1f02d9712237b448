import Foundation

/// The external tools the print tests read flyr's output with: zbarimg (a real QR decoder),
/// pdftoppm, pdftotext, pdfinfo and unzip.
enum PrintTools {
    static func tool(_ name: String, _ args: [String]) throws -> CLI.Run {
        try CLI.run(args, executable: URL(fileURLWithPath: "/usr/bin/" + name))
    }

    /// What zbarimg reads in each image: file path → decoded texts (empty when none).
    static func decode(_ files: [String]) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for f in files { out[f] = [] }
        for start in stride(from: 0, to: files.count, by: 200) {
            let run = try tool("zbarimg", ["--xml", "-q", "-Sdisable", "-Sqrcode.enable"] + files[start..<min(start + 200, files.count)])
            var current = ""
            for line in run.stdout.split(separator: "\n") {
                if let r = line.range(of: "<source href='") {
                    current = String(line[r.upperBound...].prefix { $0 != "'" })
                } else if let a = line.range(of: "<![CDATA["), let b = line.range(of: "]]>", range: a.upperBound..<line.endIndex) {
                    out[current, default: []].append(String(line[a.upperBound..<b.lowerBound]))
                }
            }
        }
        return out
    }

    /// A PDF's pages rendered grey at `dpi` (pdftoppm -gray).
    static func pages(_ pdf: String, dpi: Int, first: Int? = nil, last: Int? = nil) throws -> [GreyImage] {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var args = ["-gray", "-r", String(dpi)]
        if let first { args += ["-f", String(first)] }
        if let last { args += ["-l", String(last)] }
        let run = try tool("pdftoppm", args + [pdf, dir.appendingPathComponent("p").path])
        guard run.status == 0 else { throw CLIError("pdftoppm failed: \(run.stderr)") }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        return try files.map { try GreyImage(pgm: Data(contentsOf: dir.appendingPathComponent($0))) }
    }

    struct CLIError: Error { var message: String; init(_ m: String) { message = m } }
}

/// An 8-bit grey raster (PGM P5), for cropping label cells out of page renders.
struct GreyImage {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) { self.width = width; self.height = height; self.pixels = pixels }

    init(pgm: Data) throws {
        let bytes = [UInt8](pgm)
        var fields: [String] = [], i = 0
        while fields.count < 4 {
            while i < bytes.count, bytes[i] == 32 || bytes[i] == 10 { i += 1 }
            let s = i
            while i < bytes.count, bytes[i] != 32 && bytes[i] != 10 { i += 1 }
            fields.append(String(decoding: bytes[s..<i], as: UTF8.self))
        }
        guard fields[0] == "P5", let w = Int(fields[1]), let h = Int(fields[2]), fields[3] == "255" else {
            throw PrintTools.CLIError("not an 8-bit PGM: \(fields)")
        }
        self.init(width: w, height: h, pixels: Array(bytes[(i + 1)...].prefix(w * h)))
    }

    /// The pixels of a rectangle in points at `dpi` (rounded outward a pixel, kept inside the image).
    func crop(x: Double, y: Double, width w: Double, height h: Double, dpi: Double) -> GreyImage {
        let s = dpi / 72
        let x0 = max(0, Int((x * s).rounded(.down))), y0 = max(0, Int((y * s).rounded(.down)))
        let x1 = min(width, Int(((x + w) * s).rounded(.up))), y1 = min(height, Int(((y + h) * s).rounded(.up)))
        var out: [UInt8] = []
        out.reserveCapacity((x1 - x0) * (y1 - y0))
        for row in y0..<y1 { out += pixels[(row * width + x0)..<(row * width + x1)] }
        return GreyImage(width: x1 - x0, height: y1 - y0, pixels: out)
    }

    func write(_ path: String) throws {
        try (Data("P5\n\(width) \(height)\n255\n".utf8) + Data(pixels)).write(to: URL(fileURLWithPath: path))
    }
}
