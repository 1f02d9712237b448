import Foundation
import GRDB
import Testing

/// flyr render on a campaign: street names in the PDF's text, and one turf with its walk.
@Suite(.serialized) struct RenderTurfTests {
    static func campaign(_ dir: URL) throws -> String {
        let c = dir.appendingPathComponent("c.gpkg").path
        let made = try CLI.run(["provision", "--name", "Sample", "--buildings", CLI.sample("buildings.geojson"),
                                "--addresses", CLI.sample("addresses-streetside.geojsonseq"), "--segments", CLI.sample("segments.geojson"), "-o", c])
        #expect(made.status == 0, "\(made.stderr)")
        return c
    }

    @Test func aPDFMapCarriesTheStreetNamesAsText() throws {
        let dir = try CLI.tempDir()
        let c = try Self.campaign(dir)
        let pdf = dir.appendingPathComponent("map.pdf").path
        let r = try CLI.run(["render", c, "--paper", "letter", "--dpi", "150", "--landscape", "-o", pdf])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try PrintTools.tool("pdftotext", ["-raw", pdf, "-"])
        #expect(text.status == 0)
        // Rotated glyphs come out one a line: compare without white space, ligatures split.
        func squeezed(_ s: String) -> String {
            String(s.precomposedStringWithCompatibilityMapping.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
        }
        let all = squeezed(text.stdout)
        let names = try DatabaseQueue(path: c).read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT name FROM segments WHERE name NOT NULL ORDER BY name")
        }
        let found = names.filter { all.contains(squeezed($0)) }
        // The segments' names come through the campaign file: most streets are named on the
        // sheet (short ones at the edge may find no room), the primary roads all are.
        #expect(found.count >= 15, "found \(found) of \(names)")
        for main in ["Jamaica Avenue", "Springfield Boulevard", "Hempstead Avenue"] { #expect(found.contains(main)) }
    }

    @Test func oneTurfWithItsWalkDiffersFromTheMapAndUnknownTurfsAreRefused() throws {
        let dir = try CLI.tempDir()
        let c = try Self.campaign(dir)
        let turfPNG = dir.appendingPathComponent("turf.png").path
        let before = try CLI.run(["render", c, "--turf", "1", "--size", "800x600", "-o", turfPNG])
        #expect(before.status == 65 && before.stderr.contains("flyr turf") && !FileManager.default.fileExists(atPath: turfPNG))
        #expect(try CLI.run(["turf", c, "--doors", "60"]).status == 0)

        let full = dir.appendingPathComponent("full.png").path
        #expect(try CLI.run(["render", c, "--size", "800x600", "-o", full]).status == 0)
        let one = try CLI.run(["render", c, "--turf", "1", "--size", "800x600", "-o", turfPNG])
        #expect(one.status == 0, "\(one.stderr)")
        let a = try Data(contentsOf: URL(fileURLWithPath: full)), b = try Data(contentsOf: URL(fileURLWithPath: turfPNG))
        #expect(b.count > 1000 && a != b)
        // Fewer buildings drawn at full strength: only the turf's are counted.
        let count = { (s: String) in Int(s.components(separatedBy: " px, ").last?.split(separator: " ").first ?? "") ?? -1 }
        let all = try CLI.run(["render", c, "--size", "800x600", "-o", full, "--force"])
        #expect(count(one.stderr) > 0 && count(one.stderr) < count(all.stderr), "\(one.stderr) \(all.stderr)")

        let unknown = try CLI.run(["render", c, "--turf", "999", "--size", "800x600", "-o", dir.appendingPathComponent("x.png").path])
        #expect(unknown.status == 65 && unknown.stderr.contains("no turf 999") && unknown.stderr.contains("1 to "))
        #expect(try CLI.run(["render", c, "--turf", "0", "-o", turfPNG, "--force"]).status == 64)
        #expect(try CLI.run(["render", "--buildings", CLI.sample("buildings.geojson"), "--turf", "1", "-o", turfPNG, "--force"]).status == 64)
    }
}
