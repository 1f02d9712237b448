import Foundation
import Geo
import Testing
@testable import Render

/// Street names bent along curved roads: gentle bends only, never upside down, one collision
/// box per cluster, drawn from the glyph clusters Pango shaped.
@Suite struct CurvedLabelTests {
    /// An arc of `radius` pixels about (300, 400) from `from` to `to` degrees (y down), a vertex every 5°.
    static func arc(radius: Double, from: Double, to: Double) -> [Coord] {
        stride(from: from, through: to, by: from < to ? 5 : -5).map {
            Coord(300 + radius * cos($0 * Double.pi / 180), 400 + radius * sin($0 * Double.pi / 180))
        }
    }

    /// `n` clusters 7 px wide, side by side.
    static func clusters(_ n: Int) -> [GlyphClusters.Cluster] { (0..<n).map { GlyphClusters.Cluster(x: 7 * Double($0), width: 7) } }

    static func checkRules(_ spot: CurvedSpot) {
        #expect(spot.angle >= -Double.pi / 2 && spot.angle <= Double.pi / 2, "reading angle \(spot.angle)")
        for (a, b) in zip(spot.clusters, spot.clusters.dropFirst()) {
            #expect(abs(CurvedLabelGeometry.turn(a.angle, b.angle)) <= CurvedLabelGeometry.maxTurn + 1e-9)
        }
        for c in spot.clusters { #expect(abs(CurvedLabelGeometry.turn(spot.angle, c.angle)) < Double.pi / 2) }
    }

    @Test func aCrescentTooBentForAStraightNameTakesItCurved() throws {
        // 16 clusters (112 px) on an arc of radius 200: no chord that long keeps within 3 px of it.
        let line = Self.arc(radius: 200, from: 230, to: 310)
        #expect(StreetLabelGeometry.spots(line, length: 116, step: 24, tolerance: 3).isEmpty)
        let spots = CurvedLabelGeometry.spots(line, clusters: Self.clusters(16), pad: 2, step: 24, tolerance: 3)
        let best = try #require(spots.first)
        for s in spots { Self.checkRules(s) }
        // Each cluster starts on the line, 7 px after the one before it.
        for c in best.clusters { #expect(abs(hypot(c.origin.x - 300, c.origin.y - 400) - 200) < 1) }
        for (a, b) in zip(best.clusters, best.clusters.dropFirst()) {
            #expect(abs(hypot(b.origin.x - a.origin.x, b.origin.y - a.origin.y) - 7) < 0.1)
        }
        // The middle of the crown wins: the name reads level there.
        #expect(abs(best.angle) < 0.02, "\(best.angle)")
    }

    /// A road straight for 500 px and then bending round a crescent is named on the stretch and
    /// again round the bend, `spacing` apart, no two boxes meeting.
    @Test func aRoadNamedOnItsStraightIsNamedRoundItsBendToo() throws {
        let ctx = try CairoContext(try CairoSurface.image(width: 1000, height: 700))
        let text = try TextLayout(ctx)
        let bend = stride(from: 275.0, through: 360, by: 5).map { Coord(650 + 200 * cos($0 * Double.pi / 180), 400 + 200 * sin($0 * Double.pi / 180)) }
        let road = StreetLine(line: [Coord(150, 200), Coord(650, 200)] + bend, name: "Bellaire Crescent", roadClass: "residential")
        let labeler = StreetLabeler(font: "DejaVu Sans", size: 12, pad: 2, spacing: 150, step: 24,
                                    canvas: PixelRect(x: 0, y: 0, width: 1000, height: 700),
                                    fill: RGBA(0, 0, 0), halo: RGBA(1, 1, 1), haloWidth: 0)
        var placer = LabelPlacer(cellSize: 48)
        let labels = labeler.place([road], text: text, cr: ctx.cr, placer: &placer)
        #expect(labels.contains { $0.clusterAngles.isEmpty }, "a straight label on the stretch")
        #expect(labels.contains { !$0.clusterAngles.isEmpty }, "a bent label round the bend")
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] { #expect(!a.boxes.contains { x in b.boxes.contains { x.intersects($0) } }) }
        }
    }

    @Test func aLineDrawnLeftwardsStillReadsLeftToRight() throws {
        let line = Self.arc(radius: 200, from: 310, to: 230)
        let spot = try #require(CurvedLabelGeometry.spots(line, clusters: Self.clusters(16), pad: 2, step: 24, tolerance: 3).first)
        Self.checkRules(spot)
        #expect(spot.clusters[0].origin.x < spot.clusters[15].origin.x)
        for c in spot.clusters { #expect(cos(c.angle) > 0) }
        // Below the centre the arc bends the other way; read left to right there too.
        let under = Self.arc(radius: 200, from: 130, to: 50)
        let low = try #require(CurvedLabelGeometry.spots(under, clusters: Self.clusters(16), pad: 2, step: 24, tolerance: 3).first)
        Self.checkRules(low)
        #expect(low.clusters[0].origin.x < low.clusters[15].origin.x)
    }

    @Test func aSharpBendStaysUnlabelled() {
        // Radius 30: 7-px clusters turn about 13° each, yet 16 of them go round 200°; radius 15 turns 27° a cluster.
        #expect(CurvedLabelGeometry.spots(Self.arc(radius: 30, from: 90, to: 450), clusters: Self.clusters(16),
                                          pad: 2, step: 8, tolerance: 3).isEmpty)
        let tight = Self.arc(radius: 15, from: 180, to: 360)
        #expect(CurvedLabelGeometry.spots(tight, clusters: Self.clusters(5), pad: 0, step: 4, tolerance: 10).isEmpty)
        // A dog-leg of right angles every 20 px.
        var zigzag = [Coord(0, 100)]
        for k in 0..<12 { let p = zigzag[k]; zigzag.append(k % 2 == 0 ? Coord(p.x + 20, p.y) : Coord(p.x, p.y + (k % 4 == 1 ? -20 : 20))) }
        #expect(CurvedLabelGeometry.spots(zigzag, clusters: Self.clusters(8), pad: 2, step: 4, tolerance: 3).isEmpty)
        // The same clusters on a wide arc are placed: the limit, not the length, refused them.
        #expect(!CurvedLabelGeometry.spots(Self.arc(radius: 100, from: 180, to: 360), clusters: Self.clusters(8),
                                           pad: 2, step: 4, tolerance: 3).isEmpty)
    }

    @Test func pangoClustersCoverTheLine() throws {
        let ctx = try CairoContext(try CairoSurface.image(width: 10, height: 10))
        let text = try TextLayout(ctx)
        for name in ["Bellaire Crescent", "Office Way", "شارع الملك فيصل", "नई सड़क"] {
            let line = text.line(name, family: "DejaVu Sans", size: 10)
            let glyphs = text.clusters(name, family: "DejaVu Sans", size: 10)
            #expect(!glyphs.clusters.isEmpty)
            #expect(glyphs.clusters.count <= name.unicodeScalars.count)
            // Side by side, no gap, no overlap: together as wide as the line.
            let sorted = glyphs.clusters.sorted { $0.x < $1.x }
            #expect(abs(sorted[0].x) < 0.01, "\(name)")
            for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(abs(a.x + a.width - b.x) < 0.01, "\(name)") }
            #expect(abs(sorted.last!.x + sorted.last!.width - line.width) < 0.01, "\(name)")
            #expect(abs(glyphs.height - line.height) < 0.01 && glyphs.baseline > 0)
        }
        // Arabic reads right to left: in logical order, each cluster lies left of the one before.
        let arabic = text.clusters("شارع الملك", family: "DejaVu Sans", size: 10).clusters
        for (a, b) in zip(arabic, arabic.dropFirst()) { #expect(b.x < a.x) }
        // Devanagari's conjuncts and vowel signs stay whole: fewer clusters than code points.
        #expect(text.clusters("नई सड़क", family: "DejaVu Sans", size: 10).clusters.count < "नई सड़क".unicodeScalars.count)
    }

    static func renderCase(_ format: OutputFormat) throws -> (RenderResult, GoldenCase.Spec) {
        let (spec, map, style) = try GoldenCase(name: "curved-street-names").load()
        let view = Viewport.bbox(BBox(minX: spec.bbox[0], minY: spec.bbox[1], maxX: spec.bbox[2], maxY: spec.bbox[3]), padding: 0)
        let r = try MapRenderer(style: style).render(map, viewport: view, canvas: .pixels(width: spec.size[0], height: spec.size[1]), format: format)
        return (r, spec)
    }

    /// The golden curved case read back: the crescent named along its bend, the dog-leg not,
    /// the straight avenue as before, and no two labels' boxes meeting.
    @Test func theGoldenCurvedCaseKeepsTheRules() throws {
        let (result, spec) = try Self.renderCase(.png)
        let streets = result.labels.filter { $0.kind == .street }
        #expect(Set(streets.map(\.text)) == ["Bellaire Crescent", "Jamaica Avenue"])
        let crescent = try #require(streets.first { $0.text == "Bellaire Crescent" })
        #expect(crescent.clusterAngles.count == "Bellaire Crescent".count)
        #expect(crescent.boxes.count == crescent.clusterAngles.count)
        for (a, b) in zip(crescent.clusterAngles, crescent.clusterAngles.dropFirst()) {
            #expect(abs(CurvedLabelGeometry.turn(a, b)) <= CurvedLabelGeometry.maxTurn + 1e-9)
        }
        for a in crescent.clusterAngles { #expect(abs(CurvedLabelGeometry.turn(crescent.angle, a)) < Double.pi / 2) }
        // It bends: the crown's house number keeps the name on the east side, turning down the
        // crescent clockwise from letter to letter.
        #expect(crescent.clusterAngles.last! - crescent.clusterAngles.first! > 0.2, "\(crescent.clusterAngles)")
        for (a, b) in zip(crescent.clusterAngles, crescent.clusterAngles.dropFirst()) { #expect(b >= a - 1e-9) }
        let avenue = try #require(streets.first { $0.text == "Jamaica Avenue" })
        #expect(avenue.clusterAngles.isEmpty && abs(avenue.angle) < 1e-9)
        // The house on the crown keeps its number; the name goes round it.
        #expect(result.labels.contains { $0.kind == .houseNumber && $0.text == "99" })
        for (i, a) in result.labels.enumerated() {
            for b in result.labels[(i + 1)...] {
                #expect(!a.boxes.contains { x in b.boxes.contains { x.intersects($0) } }, "\(a.kind) '\(a.text)' meets \(b.kind) '\(b.text)'")
            }
        }
        for b in crescent.boxes {
            #expect(b.x >= 0 && b.y >= 0 && b.x + b.width <= Double(spec.size[0]) && b.y + b.height <= Double(spec.size[1]))
        }
    }

    @Test func theCurvedNameIsTextInThePDF() throws {
        let (result, _) = try Self.renderCase(.pdf)
        #expect(result.labels.contains { $0.text == "Bellaire Crescent" && !$0.clusterAngles.isEmpty })
        let pdf = Fixture.tempPath("curved.pdf"), txt = Fixture.tempPath("curved.txt")
        defer { try? FileManager.default.removeItem(atPath: pdf); try? FileManager.default.removeItem(atPath: txt) }
        try result.data.write(to: URL(fileURLWithPath: pdf))
        #expect(try Fixture.run("pdftotext", ["-raw", pdf, txt]) == 0)
        let text = StreetLabelTests.squeezed(try String(contentsOfFile: txt, encoding: .utf8))
        #expect(text.contains("BellaireCrescent"), "\(text)")
    }
}
