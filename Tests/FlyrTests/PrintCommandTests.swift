import Foundation
import GRDB
import Testing
@testable import Campaign

/// flyr qr, export --vdp and print, read back with real tools: every QR code is decoded by
/// zbarimg and must hold exactly its address's URL; label positions are checked against the
/// published Avery geometry (written here in inches and millimetres, not taken from flyr).
@Suite(.serialized) struct PrintCommandTests {
    let b = CLI.sample("buildings.geojson"), a = CLI.sample("addresses-streetside.geojsonseq")
    let s = CLI.sample("segments.geojson")

    func campaign(_ dir: URL, _ extra: [String] = []) throws -> String {
        let out = dir.appendingPathComponent("c.gpkg").path
        let run = try CLI.run(["provision", "--name", "Sample", "--buildings", b, "--addresses", a, "--segments", s, "-o", out] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        return out
    }

    /// The VDP manifest's rows as column → value.
    func manifest(_ text: String) -> [[String: String]] {
        let rows = CSV.parse(text)
        return rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(rows[0], $0)) }
    }

    func vdp(_ campaign: String) throws -> [[String: String]] {
        let run = try CLI.run(["export", campaign, "--vdp", "-"])
        #expect(run.status == 0, "\(run.stderr)")
        return manifest(run.stdout)
    }

    @Test func qrZipHoldsOneDecodableCodePerAddress() throws {
        let dir = try CLI.tempDir()
        let c = try campaign(dir, ["--qr-base-url", "https://example.org/door/"])
        let archive = dir.appendingPathComponent("codes.zip").path
        let run = try CLI.run(["qr", c, "-o", archive])
        #expect(run.status == 0 && run.stdout.isEmpty, "\(run.stderr)")
        #expect(try PrintTools.tool("unzip", ["-tq", archive]).status == 0)
        let out = dir.appendingPathComponent("x")
        #expect(try PrintTools.tool("unzip", ["-q", archive, "-d", out.path]).status == 0)
        let rows = manifest(try String(contentsOf: out.appendingPathComponent("manifest.csv"), encoding: .utf8))
        #expect(rows.count == 558)
        #expect(rows == (try vdp(c)))
        let files = rows.map { out.appendingPathComponent($0["qr_file"]!).path }
        let decoded = try PrintTools.decode(files)
        for (row, f) in zip(rows, files) {
            #expect(row["qr_url"] == "https://example.org/door/q/" + row["qr_slug"]!)
            #expect(decoded[f] == [row["qr_url"]!], "\(f)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).count == 559)
        let again = try CLI.run(["qr", c, "-o", archive])
        #expect(again.status == 73 && again.stderr.contains("--force"))
    }

    @Test func qrDirectoryOfPDFsFollowsTheBaseURLCommand() throws {
        let dir = try CLI.tempDir()
        let c = try campaign(dir)
        #expect(try CLI.run(["qr-base-url", c]).stdout == "https://flyrpro.app\n")
        let bad = try CLI.run(["qr-base-url", c, "ftp://x"])
        #expect(bad.status == 64 && bad.stderr.contains("https://"))
        #expect(try CLI.run(["qr-base-url", c, "http://localhost:8080/"]).stdout == "http://localhost:8080\n")
        let out = dir.appendingPathComponent("codes").path + "/"
        let run = try CLI.run(["qr", c, "-o", out, "--format", "pdf", "--qr-ecc", "H"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = manifest(try String(contentsOfFile: out + "manifest.csv", encoding: .utf8))
        // The first twenty PDFs, rendered by poppler and read by zbar.
        for row in rows.prefix(20) {
            #expect(row["qr_file"] == row["qr_slug"]! + ".pdf")
            let page = try PrintTools.pages(out + row["qr_file"]!, dpi: 150)
            let png = dir.appendingPathComponent(row["qr_slug"]! + ".pgm").path
            try page[0].write(png)
            #expect(try PrintTools.decode([png])[png] == ["http://localhost:8080/q/" + row["qr_slug"]!])
        }
    }

    @Test func vdpManifestIsInWalkingOrderWithFormulasNeutralised() throws {
        let dir = try CLI.tempDir()
        let c = try campaign(dir)
        let db = try GeoPackage.open(c)
        try db.write { try $0.execute(sql: "UPDATE campaign_addresses SET street = '=HYPERLINK(\"x\")', number = NULL WHERE seq = 2") }
        try db.close()
        let rows = try vdp(c)
        #expect(rows.count == 558)
        #expect(rows.map { Int($0["sequence"]!)! } == Array(1...558))
        #expect(rows[1]["address_line1"] == "'=HYPERLINK(\"x\")")
        #expect(rows[0]["address_line1"] == "216-02 100th Avenue" && rows[0]["city"] == "QUEENS" && rows[0]["postcode"] == "11429")
        #expect(rows[0]["qr_file"] == rows[0]["qr_slug"]! + ".png")
        let svg = try CLI.run(["export", c, "--vdp", "-", "--qr-format", "svg"])
        #expect(manifest(svg.stdout)[0]["qr_file"] == rows[0]["qr_slug"]! + ".svg")
    }

    /// A sheet's published geometry, in points.
    struct Sheet {
        var page: (Double, Double), label: (Double, Double), columns: Int, rows: Int, top: Double, left: Double, pitch: (Double, Double)
        var perPage: Int { columns * rows }
        func cell(_ i: Int) -> (x: Double, y: Double, w: Double, h: Double) {
            let k = i % perPage
            return (left + Double(k % columns) * pitch.0, top + Double(k / columns) * pitch.1, label.0, label.1)
        }
    }
    static let inch = 72.0, mm = 72 / 25.4
    static let avery5160 = Sheet(page: (8.5 * inch, 11 * inch), label: (2.625 * inch, 1 * inch), columns: 3, rows: 10,
                                 top: 0.5 * inch, left: 0.1875 * inch, pitch: (2.75 * inch, 1 * inch))
    static let averyL7160 = Sheet(page: (210 * mm, 297 * mm), label: (63.5 * mm, 38.1 * mm), columns: 3, rows: 7,
                                  top: 15.15 * mm, left: 7.2 * mm, pitch: (66.04 * mm, 38.1 * mm))

    /// Every label's code decoded from its own cell, nothing inked outside the cells, every
    /// word inside a cell, every address found by pdftotext.
    func checkLabels(_ pdf: String, sheet: Sheet, rows: [[String: String]], dir: URL, pages: Int? = nil) throws {
        let info = try PrintTools.tool("pdfinfo", [pdf]).stdout
        let sheets = (rows.count + sheet.perPage - 1) / sheet.perPage
        #expect(info.contains("Pages:           \(sheets)\n"), "\(info)")
        #expect(info.contains(String(format: "Page size:       %g x %g pts", sheet.page.0, sheet.page.1)), "\(info)")
        let dpi = 200.0
        let images = try PrintTools.pages(pdf, dpi: Int(dpi), last: pages)
        let checked = min(rows.count, images.count * sheet.perPage)
        var files: [String] = []
        for i in 0..<checked {
            let c = sheet.cell(i)
            let f = dir.appendingPathComponent("label-\(i).pgm").path
            try images[i / sheet.perPage].crop(x: c.x, y: c.y, width: c.w, height: c.h, dpi: dpi).write(f)
            files.append(f)
        }
        let decoded = try PrintTools.decode(files)
        for i in 0..<checked { #expect(decoded[files[i]] == [rows[i]["qr_url"]!], "label \(i + 1)") }
        // No ink outside the cells (one pixel of anti-aliasing allowed).
        for image in [images[0], images[images.count - 1]] {
            let s = dpi / 72
            let bands = (0..<sheet.rows).map { r in (sheet.top + Double(r) * sheet.pitch.1) * s - 1...(sheet.top + Double(r) * sheet.pitch.1 + sheet.label.1) * s + 1 }
            let columns = (0..<sheet.columns).map { k in (sheet.left + Double(k) * sheet.pitch.0) * s - 1...(sheet.left + Double(k) * sheet.pitch.0 + sheet.label.0) * s + 1 }
            var outside = 0
            for y in 0..<image.height {
                let inBand = bands.contains { $0.contains(Double(y)) }
                for x in 0..<image.width where image.pixels[y * image.width + x] < 160 {
                    if !inBand || !columns.contains(where: { $0.contains(Double(x)) }) { outside += 1 }
                }
            }
            #expect(outside == 0)
        }
        // Words inside cells; every address's first line found.
        let bbox = try PrintTools.tool("pdftotext", ["-bbox", pdf, "-"]).stdout
        var words = 0
        for line in bbox.split(separator: "\n") where line.contains("<word ") {
            func v(_ k: String) -> Double { Double(line.components(separatedBy: "\(k)=\"")[1].prefix { $0 != "\"" })! }
            let (x0, y0, x1, y1) = (v("xMin"), v("yMin"), v("xMax"), v("yMax"))
            let inside = (0..<sheet.perPage).contains { i in
                let c = sheet.cell(i)
                return x0 >= c.x - 0.5 && x1 <= c.x + c.w + 0.5 && y0 >= c.y - 0.5 && y1 <= c.y + c.h + 0.5
            }
            #expect(inside, "\(line)")
            words += 1
        }
        #expect(words > rows.count)
        // Words in reading order, blanks and line breaks as one space (a long line may wrap).
        func flat(_ s: String) -> String { s.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ") }
        let text = flat(try PrintTools.tool("pdftotext", [pdf, "-"]).stdout)
        for row in rows { #expect(text.contains(flat(row["address_line1"]! + " " + row["city"]!)), "\(row["address_line1"]!)") }
    }

    /// Prints the sample's labels on `name` sheets and checks them (the first `pages` sheets' cells).
    func printAndCheckLabels(_ name: String, sheet: Sheet, pages: Int? = nil) throws {
        let dir = try CLI.tempDir()
        let c = try campaign(dir)
        let pdf = dir.appendingPathComponent("labels.pdf").path
        let run = try CLI.run(["print", c, "--labels", name, "-o", pdf])
        #expect(run.status == 0, "\(run.stderr)")
        try checkLabels(pdf, sheet: sheet, rows: try vdp(c), dir: dir, pages: pages)
    }

    @Test func avery5160LabelsLandInTheirCells() throws { try printAndCheckLabels("avery-5160", sheet: Self.avery5160) }

    @Test func averyL7160LabelsLandInTheirCells() throws { try printAndCheckLabels("AVERY-L7160", sheet: Self.averyL7160, pages: 3) }

    @Test func flyersHoldTheirAddressAndCode() throws {
        let dir = try CLI.tempDir()
        let c = try campaign(dir)
        let pdf = dir.appendingPathComponent("flyers.pdf").path
        let template = CLI.root.appendingPathComponent("styles/flyer-postcard.json").path
        let run = try CLI.run(["print", c, "--flyers", template, "-o", pdf])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try vdp(c)
        #expect(try PrintTools.tool("pdfinfo", [pdf]).stdout.contains("Pages:           558\n"))
        // The code's box in the template: x 98, y 45, 42 mm a side (A6 landscape).
        let images = try PrintTools.pages(pdf, dpi: 100, last: 60)
        var files: [String] = []
        for (i, image) in images.enumerated() {
            let f = dir.appendingPathComponent("flyer-\(i).pgm").path
            try image.crop(x: 98 * Self.mm, y: 45 * Self.mm, width: 42 * Self.mm, height: 42 * Self.mm, dpi: 100).write(f)
            files.append(f)
        }
        let decoded = try PrintTools.decode(files)
        for (i, f) in files.enumerated() { #expect(decoded[f] == [rows[i]["qr_url"]!], "flyer \(i + 1)") }
        let pages = try PrintTools.tool("pdftotext", [pdf, "-"]).stdout.split(separator: "\u{0C}", omittingEmptySubsequences: false)
        for (i, row) in rows.enumerated() {
            #expect(pages[i].contains(row["address_line1"]!) && pages[i].contains(row["city"]!), "flyer \(i + 1)")
        }
    }

    @Test func badInputIsRefusedAndNothingIsWritten() throws {
        let dir = try CLI.tempDir()
        let c = try campaign(dir)
        let pdf = dir.appendingPathComponent("out.pdf").path
        let unknown = try CLI.run(["print", c, "--labels", "avery-9999", "-o", pdf])
        #expect(unknown.status == 64 && unknown.stderr.contains("avery-5160"))
        let offPage = dir.appendingPathComponent("big.json").path
        try #"{"page": "a6", "qr": {"x_mm": 80, "y_mm": 10, "size_mm": 40}, "address": {"x_mm": 5, "y_mm": 10, "width_mm": 60, "height_mm": 30}}"#
            .write(toFile: offPage, atomically: true, encoding: .utf8)
        let big = try CLI.run(["print", c, "--flyers", offPage, "-o", pdf])
        #expect(big.status == 65 && big.stderr.contains("qr") && big.stderr.contains("does not fit"), "\(big.stderr)")
        let missing = try CLI.run(["print", c, "--flyers", dir.appendingPathComponent("none.json").path, "-o", pdf])
        #expect(missing.status == 66)
        // A failure while the codes are being made and written: no partial ZIP is left.
        let small = try CLI.run(["qr", c, "-o", dir.appendingPathComponent("small.zip").path, "--size", "30"])
        #expect(small.status == 65 && small.stderr.contains("needs a PNG of at least 37 px"), "\(small.stderr)")
        let db = try GeoPackage.open(c)
        try db.write { try $0.execute(sql: "UPDATE campaign_addresses SET qr_slug = NULL WHERE seq = 3") }
        try db.close()
        let zip = dir.appendingPathComponent("codes.zip").path, csv = dir.appendingPathComponent("m.csv").path
        for args in [["print", c, "--labels", "avery-5160", "-o", pdf], ["qr", c, "-o", zip], ["export", c, "--vdp", csv]] {
            let run = try CLI.run(args)
            #expect(run.status == 65 && run.stderr.contains("1 of 558 addresses have no QR slug"), "\(args): \(run.stderr)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix("c.gpkg") }.sorted()
        #expect(left == ["big.json"], "\(left)")
    }
}

/// RFC 4180 CSV: quoted fields with doubled quotes, commas and newlines inside.
enum CSV {
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
        var it = Array(text).makeIterator()
        var pending: Character? = nil
        while let ch = pending ?? it.next() {
            pending = nil
            if quoted {
                if ch == "\"" {
                    if let n = it.next() { if n == "\"" { field.append("\"") } else { quoted = false; pending = n } } else { quoted = false }
                } else { field.append(ch) }
            } else if ch == "\"" { quoted = true
            } else if ch == "," { row.append(field); field = ""
            } else if ch == "\n" { row.append(field); rows.append(row); row = []; field = ""
            } else { field.append(ch) }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}
