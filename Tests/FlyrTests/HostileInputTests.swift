import Foundation
import Testing

/// Hostile input cut off early, and CSV cells a spreadsheet would run as formulas defused.
@Suite struct HostileInputTests {
    let b = CLI.sample("buildings.geojson"), a = CLI.sample("addresses-streetside.geojsonseq")

    /// A feature of more than 256 MiB (one endless string) is refused with exit 65 once that
    /// much is read, with its place in the file, not read whole.
    @Test func aFeatureAbove256MiBIsRefused() throws {
        let head = #"{"type":"Feature","id":"big","geometry":{"type":"Point","coordinates":[-73.74,40.71]},"properties":{"note":""#
        let r = try CLI.shell("(printf '%s' '\(head)'; head -c 300000000 /dev/zero | tr '\\0' a; printf '\"}}\\n') | exec \"$FLYR\" link --buildings '\(b)' --addresses -")
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("-:1: feature 0, id big: too large: a single feature holds more than 256 MiB"), "\(r.stderr)")
    }

    /// A long run of `[` is refused at depth 513, while it is being read: a 300 MB run and an
    /// endless one (it would never end if the whole value were read first) give the same error.
    @Test func deepNestingIsRefusedWhileReading() throws {
        let head = #"{"type":"Feature","id":"deep","geometry":{"type":"Polygon","coordinates":"#
        for source in ["head -c 300000000 /dev/zero", "cat /dev/zero"] {
            let r = try CLI.shell("(printf '%s' '\(head)'; \(source) | tr '\\0' '[') | exec \"$FLYR\" link --buildings - --addresses '\(a)'")
            #expect(r.status == 65, "\(r.stderr)")
            #expect(r.stderr.contains("-:1: feature 0, id deep: invalid JSON: nesting deeper than 512"), "\(r.stderr)")
        }
    }

    /// Cells a spreadsheet would run as formulas start with an apostrophe in every CSV flyr
    /// writes; numbers (negative longitudes) stay numbers.
    @Test func csvCellsThatLookLikeFormulasAreNeutralised() throws {
        let dir = try CLI.tempDir()
        let addresses = dir.appendingPathComponent("a.geojsonseq").path
        let evil = [("=HYPERLINK(\\\"http://x\\\",\\\"y\\\")", "+1+cmd|' /C calc'!A0"), ("@SUM(1,2)", "-2+3"), ("-42", "=1")]
        var lines = ""
        for (k, (id, number)) in evil.enumerated() {
            lines += "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[-73.7409,40.71\(70 + k)]},\"properties\":{\"number\":\"\(number)\",\"street\":\"Main St\"}}\n"
        }
        try lines.write(toFile: addresses, atomically: true, encoding: .utf8)
        let links = try CLI.run(["link", "--buildings", b, "--addresses", addresses])
        #expect(links.status == 0, "\(links.stderr)")
        #expect(formulaCells(links.stdout).isEmpty, "\(formulaCells(links.stdout))")
        #expect(links.stdout.contains("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"") && links.stdout.contains("'@SUM(1,2)"))
        #expect(links.stdout.contains("\n-42,"))
        let out = dir.appendingPathComponent("c.gpkg").path
        #expect(try CLI.run(["provision", "--name", "X", "--buildings", b, "--addresses", addresses, "-o", out]).status == 0)
        let csv = try CLI.run(["export", out, "--csv", "-"])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(formulaCells(csv.stdout).isEmpty, "\(formulaCells(csv.stdout))")
        #expect(csv.stdout.contains("'+1+cmd|' /C calc'!A0") && csv.stdout.contains("'-2+3") && csv.stdout.contains("'=1"))
        #expect(csv.stdout.contains(",-73.7409,"))
    }

    /// The cells (split at commas, a leading quote dropped) that start like a formula: =, +, @,
    /// or - not followed by a plain number.
    func formulaCells(_ csv: String) -> [String] {
        csv.split(separator: "\n").dropFirst().flatMap { $0.split(separator: ",") }.map(String.init).filter { cell in
            let text = cell.hasPrefix("\"") ? cell.dropFirst() : Substring(cell)
            guard let first = text.first else { return false }
            return "=+@".contains(first) || (first == "-" && Double(text) == nil)
        }
    }

}
