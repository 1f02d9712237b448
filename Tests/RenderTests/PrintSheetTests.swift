import Foundation
import Render
import Testing

/// Label and flyer PDFs drawn by Render, read back with poppler's tools and zbarimg.
@Suite struct PrintSheetTests {
    static let items = [
        PrintItem(lines: ["Hämeentie 5 A", "00530 HELSINKI"], url: "https://flyrpro.app/q/h2m3t4a5b6"),
        PrintItem(lines: ["شارع الملك فهد 12", "الرياض 12211"], url: "https://flyrpro.app/q/r7y8z9a2b3"),
        PrintItem(lines: ["81-42 243rd Street", "Unit 2", "QUEENS, NY 11426"], url: "https://flyrpro.app/q/q4u5e6e7n8"),
        PrintItem(lines: ["मुख्य मार्ग 5", "नई दिल्ली 110001"], url: "https://flyrpro.app/q/d3v4n5g6r7"),
        PrintItem(lines: ["千代田区丸の内1丁目", "東京都 100-0005"], url: "https://flyrpro.app/q/t6k7y8o9c2"),
    ]

    @Test func nonLatinAddressesAreShapedWithAFallbackFont() throws {
        let pdf = QRTests.temp("labels.pdf")
        let printer = try LabelPrinter(path: pdf, sheet: .averyL7160, style: QRStyle(), title: "test")
        for item in Self.items { try printer.add(item) }
        try printer.finish()
        // Words in reading order, line breaks as spaces (a long line may wrap in its label).
        let text = try QRTests.run("pdftotext", [pdf, "-"]).1.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("Hämeentie 5 A 00530 HELSINKI") && text.contains("81-42 243rd Street Unit 2"), "\(text)")
        // DejaVu Sans has Latin and Arabic; Devanagari and CJK come from Noto through
        // fontconfig's fallback.
        let fonts = try QRTests.run("pdffonts", [pdf]).1
        #expect(fonts.contains("DejaVuSans") && fonts.contains("NotoSansDevanagari") && fonts.contains("CJK"), "\(fonts)")
        #expect(text.contains("千代田区丸の内") && text.contains("東京都 100-0005"), "\(text)")
        let png = QRTests.temp("page")
        #expect(try QRTests.run("pdftoppm", ["-r", "200", "-png", "-singlefile", pdf, png]).0 == 0)
        #expect(Set(try QRTests.zbar(png + ".png")) == Set(Self.items.map(\.url)))
    }

    static func template(_ json: String) throws -> FlyerTemplate {
        let path = QRTests.temp("template.json")
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return try FlyerTemplate.load(path)
    }

    @Test func templatesThatDoNotFitAreRefused() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let postcard = try FlyerTemplate.load(repo.appendingPathComponent("styles/flyer-postcard.json").path)
        #expect(postcard.pageSize == (148, 105) && postcard.map != nil)
        let address = #""address": {"x_mm": 10, "y_mm": 10, "width_mm": 50, "height_mm": 20}"#
        let cases: [(String, String)] = [
            (#"{"page": "a6", "qr": {"x_mm": 80, "y_mm": 10, "size_mm": 40}, \#(address)}"#, "qr (x 80.0, y 10.0, 40.0 × 40.0 mm) does not fit"),
            (#"{"page": "a6", "qr": {"x_mm": 40, "y_mm": 20, "size_mm": 40}, \#(address)}"#, "qr and address overlap"),
            (#"{"page": "b5", "qr": {"x_mm": 10, "y_mm": 40, "size_mm": 40}, \#(address)}"#, "unknown page \"b5\""),
            (#"{"page": "a6", "qr": {"x_mm": 10, "y_mm": 40, "size_mm": 10}, \#(address)}"#, "too small to scan"),
            (#"{"page": "a6", \#(address)}"#, "missing \"qr\""),
            (#"{"page_width_mm": 100, "qr": {"x_mm": 10, "y_mm": 40, "size_mm": 40}, \#(address)}"#, "page_height_mm"),
            (#"{"page": "a6", "safe_margin_mm": 12, "qr": {"x_mm": 10, "y_mm": 40, "size_mm": 40}, \#(address)}"#, "safe margin"),
        ]
        for (json, message) in cases {
            #expect { try Self.template(json) } throws: { ($0 as? TemplateError)?.message.contains(message) == true }
        }
        let fits = try Self.template(#"{"page": "a6", "qr": {"x_mm": 10, "y_mm": 40, "size_mm": 40}, \#(address)}"#)
        #expect(fits.pageSize == (105, 148))
    }

    @Test func flyerPagesHoldTheirCodeAndAddress() throws {
        let t = try Self.template(#"""
            {"page": "a5", "qr": {"x_mm": 84, "y_mm": 140, "size_mm": 50},
             "address": {"x_mm": 10, "y_mm": 140, "width_mm": 60, "height_mm": 30},
             "headline": {"x_mm": 10, "y_mm": 10, "width_mm": 128, "height_mm": 20, "text": "Hello neighbour"}}
            """#)
        let pdf = QRTests.temp("flyers.pdf")
        let printer = try FlyerPrinter(path: pdf, template: t, style: QRStyle(ecc: .H), title: "test")
        for item in Self.items { try printer.add(item) }
        try printer.finish()
        #expect(try QRTests.run("pdfinfo", [pdf]).1.contains("Pages:           \(Self.items.count)\n"))
        for (i, item) in Self.items.enumerated() {
            let png = QRTests.temp("flyer")
            #expect(try QRTests.run("pdftoppm", ["-r", "100", "-png", "-singlefile", "-f", "\(i + 1)", "-l", "\(i + 1)", pdf, png]).0 == 0)
            #expect(try QRTests.zbar(png + ".png") == [item.url])
            let text = try QRTests.run("pdftotext", ["-f", "\(i + 1)", "-l", "\(i + 1)", pdf, "-"]).1
            #expect(text.contains("Hello neighbour") && text.contains(item.lines.last!.split(separator: " ").last!))
        }
    }
}
