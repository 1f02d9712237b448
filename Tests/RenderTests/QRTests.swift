import Foundation
import Render
import Testing

/// QR images read back by a real decoder (zbarimg), never compared with our own encoder.
@Suite struct QRTests {
    /// Runs /usr/bin/`tool`; its exit status and stdout (stderr dropped).
    static func run(_ tool: String, _ args: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The QR codes zbarimg reads in an image (QR only: zbar also finds stray 1-D barcodes).
    static func zbar(_ path: String) throws -> [String] {
        try run("zbarimg", ["-q", "--raw", "-Sdisable", "-Sqrcode.enable", path]).1.split(separator: "\n").map(String.init)
    }

    static func temp(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("flyr-qr-\(UUID().uuidString)-\(name)").path
    }

    @Test(arguments: QRErrorCorrection.allCases)
    func pngDecodesToItsText(ecc: QRErrorCorrection) throws {
        let maker = QRImageMaker(format: .png, style: QRStyle(ecc: ecc, quietZone: 4, pixels: 300))
        for text in ["https://flyrpro.app/q/wg2papjjd7", "http://localhost:8080/q/23456789ab", "https://example.org/" + String(repeating: "x", count: 200)] {
            let path = Self.temp("code.png")
            try maker.image(of: text).write(to: URL(fileURLWithPath: path))
            #expect(try Self.zbar(path) == [text], "\(ecc) \(text.prefix(40))")
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    @Test func pngIsOneBitGreyAndRunsCoverTheDarkModules() throws {
        let data = try QRImageMaker(format: .png, style: QRStyle(pixels: 512)).image(of: "https://flyrpro.app/q/wg2papjjd7")
        #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let ihdr = Array(data[16..<29])
        #expect(ihdr[0..<8] == [0, 0, 2, 0, 0, 0, 2, 0][...] && ihdr[8] == 1 && ihdr[9] == 0)
        // 32 bytes at M need version 3 (version 2 holds 26): 29 modules a side.
        let code = try QRCode("https://flyrpro.app/q/wg2papjjd7", ecc: .M)
        #expect(code.width == 29 && code.version == 3)
        var dark = 0
        code.forEachDarkRun { _, _, n in dark += n }
        #expect(dark == (0..<29).reduce(0) { r, y in r + (0..<29).filter { code.isDark(column: $0, row: y) }.count })
        #expect(code.isDark(column: 0, row: 0) && !code.isDark(column: 7, row: 0), "finder pattern and its separator")
    }

    @Test func pdfRenderedByPopplerDecodes() throws {
        let text = "https://flyrpro.app/q/yd3ttekuqr"
        let pdf = Self.temp("code.pdf"), png = Self.temp("code")
        try QRImageMaker(format: .pdf, style: QRStyle()).image(of: text).write(to: URL(fileURLWithPath: pdf))
        #expect(try Self.run("pdftoppm", ["-r", "150", "-png", "-singlefile", pdf, png]).0 == 0)
        #expect(try Self.zbar(png + ".png") == [text])
    }

    @Test func svgIsOnePathOfModulesAtOneMillimetre() throws {
        let text = "https://flyrpro.app/q/yd3ttekuqr"
        let svg = String(decoding: try QRImageMaker(format: .svg, style: QRStyle()).image(of: text), as: UTF8.self)
        let code = try QRCode(text, ecc: .M)
        let side = Double(code.width + 8) * 72 / 25.4
        #expect(svg.contains("width=\"\(Self.trim(side))pt\""), "\(svg.prefix(300))")
        #expect(svg.components(separatedBy: "<path").count == 3, "light square and dark modules")
    }

    static func trim(_ v: Double) -> String {
        var s = String(format: "%.6f", v)
        while s.hasSuffix("0") { s.removeLast() }
        return s.hasSuffix(".") ? String(s.dropLast()) : s
    }

    @Test func textsAndSizesThatCannotBeCodesAreRefused() throws {
        #expect(throws: QRError.self) { try QRCode(String(repeating: "x", count: 3000), ecc: .H) }
        #expect(throws: QRError.self) { try QRImageMaker(format: .png, style: QRStyle(pixels: 30)).image(of: "https://flyrpro.app/q/wg2papjjd7") }
    }

    @Test func labelSheetsFollowThePublishedGeometry() {
        let a = LabelSheet.avery5160
        #expect(a.perPage == 30 && a.pageWidth == 612 && a.pageHeight == 792)
        #expect(a.cell(0) == (13.5, 36, 189, 72) && a.cell(29) == (409.5, 684, 189, 72) && a.cell(30) == a.cell(0))
        let l = LabelSheet.averyL7160
        let mm = 72 / 25.4
        #expect(l.perPage == 21)
        let last = l.cell(20)
        #expect(abs(last.x - (7.2 + 2 * 66.04) * mm) < 1e-9 && abs(last.y - (15.15 + 6 * 38.1) * mm) < 1e-9)
        #expect(abs(last.y + last.height - (297 - 15.15) * mm) < 1e-9, "bottom margin equals the top one")
        #expect(LabelSheet.named("Avery-5160") == a && LabelSheet.named("avery-9999") == nil)
    }
}

/// ZIP archives read back by unzip (Info-ZIP), ZIP64 included.
@Suite struct ZipWriterTests {
    static func unzip(_ args: [String]) throws -> (Int32, String) { try QRTests.run("unzip", args) }

    @Test func entriesAndAFileComeBackByteForByte() throws {
        let path = QRTests.temp("a.zip"), side = QRTests.temp("side.csv")
        try Data("a,b\n1,2\n".utf8).write(to: URL(fileURLWithPath: side))
        let z = try ZipWriter(path: path)
        try z.add(name: "one.txt", data: Data("hello".utf8))
        try z.add(name: "dir/zwei-ä.bin", data: Data((0..<3000).map { UInt8($0 % 251) }))
        try z.add(name: "manifest.csv", file: side)
        try z.finish()
        #expect(try Self.unzip(["-tq", path]).0 == 0)
        #expect(try Self.unzip(["-p", path, "one.txt"]).1 == "hello")
        #expect(try Self.unzip(["-p", path, "manifest.csv"]).1 == "a,b\n1,2\n")
        #expect(throws: ZipError.self) { try ZipWriter(path: path) }
        #expect(throws: ZipError.self) { try ZipWriter(path: QRTests.temp("b.zip")).add(name: "../x", data: Data()) }
    }

    @Test func moreThan65535EntriesTakeZip64() throws {
        let path = QRTests.temp("many.zip")
        let z = try ZipWriter(path: path)
        for i in 0..<70_000 { try z.add(name: "e\(i).txt", data: Data("\(i)".utf8)) }
        try z.finish()
        #expect(try Self.unzip(["-tq", path]).0 == 0)
        #expect(try Self.unzip(["-Z1", path]).1.split(separator: "\n").count == 70_000)
        #expect(try Self.unzip(["-p", path, "e69999.txt"]).1 == "69999")
        try? FileManager.default.removeItem(atPath: path)
    }
}
