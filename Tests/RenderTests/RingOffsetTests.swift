import CCairo
import Geo
import Testing
@testable import Render

/// Rings moved sideways as a stroke's edges run, and the two fills they give against Cairo's
/// own fill and stroke.
@Suite struct RingOffsetTests {
    func ring(_ wkt: [(Double, Double)]) -> [Coord] { wkt.map { Coord($0.0, $0.1) } }

    func offset(_ r: [Coord], _ h: Double) -> (RingOffset.Outcome, [Coord]) {
        var o = RingOffset()
        let outcome = o.offset(r, by: h)
        return (outcome, o.ring)
    }

    /// The same points, whichever one comes first.
    func sameRing(_ a: [Coord], _ b: [Coord], tolerance: Double = 1e-9) -> Bool {
        guard a.count == b.count, let start = a.firstIndex(where: { abs($0.x - b[0].x) < tolerance && abs($0.y - b[0].y) < tolerance })
        else { return false }
        return b.indices.allSatisfy { i in
            let p = a[(start + i) % a.count]
            return abs(p.x - b[i].x) < tolerance && abs(p.y - b[i].y) < tolerance
        }
    }

    @Test func squareGrowsAndShrinksWhicheverWayItTurns() {
        let ccw = ring([(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)])
        for r in [ccw, Array(ccw.reversed())] {
            let (grown, out) = offset(r, 1)
            #expect(grown == .ring)
            let expectOut = ring([(-1, -1), (11, -1), (11, 11), (-1, 11)])
            #expect(sameRing(out, r[0].x == r[1].x ? Array(expectOut.reversed()) : expectOut))
            let (shrunk, inside) = offset(r, -1)
            #expect(shrunk == .ring)
            #expect(Set(inside.map { "\($0.x),\($0.y)" }) == ["1.0,1.0", "9.0,1.0", "9.0,9.0", "1.0,9.0"])
        }
    }

    @Test func sharpCornersAreBevelledOrCrossed() {
        // A spike of about 5.7 degrees: its miter would be 20 half widths long.
        let spike = ring([(0, 0), (20, 1), (0, 2)])
        let (grown, out) = offset(spike, 0.5)
        #expect(grown == .ring)
        #expect(out.count == 4)
        #expect(out.allSatisfy { $0.x < 20.6 })
        // Moved inward, the spike's tip is where the inner edges cross, 10 px back.
        let (shrunk, inside) = offset(spike, -0.5)
        #expect(shrunk == .ring)
        #expect(inside.count == 3 && inside.allSatisfy { $0.x < 10.5 })
        // A notch that sharp, moved outward, fills up to where it is one band wide: its sides
        // cross about 9.5 px back from its tip.
        let notch = ring([(0, 0), (20, 0), (20, 10), (0, 10), (0, 6), (19, 5), (0, 4)])
        let (closed, around) = offset(notch, 0.5)
        #expect(closed == .ring)
        #expect(around.contains { abs($0.x - 9.46) < 0.05 && abs($0.y - 5) < 1e-9 })
        // A slot narrower than the band, moved outward: its floor turns round.
        let slot = ring([(0, 0), (10, 0), (10, 10), (5.2, 10), (5.2, 3), (4.8, 3), (4.8, 10), (0, 10)])
        #expect(offset(slot, 0.5).0 == .unsupported)
        #expect(offset(slot, -0.5).0 == .ring)
    }

    @Test func ringNarrowerThanTheBandVanishesInward() {
        let sliver = ring([(0, 0), (3, 0), (3, 0.3), (0, 0.3)])
        #expect(offset(sliver, -0.25).0 == .empty)
        #expect(offset(sliver, 0.25).0 == .ring)
        // Turned, and smaller than the band both ways.
        let speck = ring([(37.02, 2035.03), (37.37, 2035.36), (37.56, 2035.16), (37.21, 2034.83)])
        #expect(offset(speck, -0.25).0 == .empty)
    }

    @Test func edgeTooShortToSurviveIsDropped() {
        // A 10 x 10 square with one corner cut by a 0.1 chamfer: moved 1 inward, the chamfer
        // vanishes and the ring is the 8 x 8 square.
        let cut = ring([(0, 0), (10, 0), (10, 9.9), (9.9, 10), (0, 10)])
        let (shrunk, inside) = offset(cut, -1)
        #expect(shrunk == .ring)
        #expect(sameRing(inside, ring([(1, 1), (9, 1), (9, 9), (1, 9)]), tolerance: 1e-6))
    }

    @Test func degenerateRingsAreRefused() {
        #expect(offset(ring([(0, 0), (1, 1), (0, 0)]), 0.5).0 == .unsupported)
        #expect(offset(ring([(0, 0), (1, 0), (2, 0), (0, 0)]), 0.5).0 == .unsupported)
        #expect(offset(ring([(0, 0), (0, 0), (1, 0), (1, 1), (1, 1)]), 0.5).0 == .ring)
    }

    /// Footprints of several shapes and sizes drawn both ways: fill then a 1 px stroke, and the
    /// grown ring in the stroke's colour then the shrunk ring in the fill's.
    @Test func twoFillsPaintWhatFillAndStrokePaint() throws {
        let shapes: [[Coord]] = [
            ring([(10.3, 10.7), (60.2, 14.1), (55.8, 48.9), (12.1, 44.4)]),
            ring([(80, 10), (130, 10), (130, 25), (100, 25), (100, 60), (80, 60)]),
            ring([(150, 20), (190, 10), (170, 55)]),
            ring([(20, 80), (20.4, 80), (20.4, 110), (20, 110)]),
            ring([(60, 80), (62.5, 80.6), (61.7, 83.1), (59.4, 82.2)]),
            ring([(100, 80), (140, 82), (110, 84), (138, 110), (98, 108)]),
        ]
        let w = 200, h = 130
        func draw(_ twoFills: Bool) throws -> RasterImage {
            let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h))!
            defer { cairo_surface_destroy(s) }
            let cr = cairo_create(s)!
            defer { cairo_destroy(cr) }
            cairo_set_source_rgb(cr, 0.95, 0.96, 0.97)
            cairo_paint(cr)
            cairo_set_line_width(cr, 1)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
            func trace(_ r: [Coord]) {
                cairo_move_to(cr, r[0].x, r[0].y)
                for p in r.dropFirst() { cairo_line_to(cr, p.x, p.y) }
                cairo_close_path(cr)
            }
            for shape in shapes {
                if twoFills {
                    var grown = RingOffset(), shrunk = RingOffset()
                    #expect(grown.offset(shape, by: 0.5) == .ring)
                    let inner = shrunk.offset(shape, by: -0.5)
                    #expect(inner != .unsupported)
                    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
                    trace(grown.ring)
                    cairo_set_source_rgb(cr, 0.28, 0.33, 0.41)
                    cairo_fill(cr)
                    if inner == .ring {
                        trace(shrunk.ring)
                        cairo_set_source_rgb(cr, 0.94, 0.27, 0.27)
                        cairo_fill(cr)
                    }
                } else {
                    trace(shape)
                    cairo_set_source_rgb(cr, 0.94, 0.27, 0.27)
                    cairo_fill_preserve(cr)
                    cairo_set_source_rgb(cr, 0.28, 0.33, 0.41)
                    cairo_stroke(cr)
                }
            }
            cairo_surface_flush(s)
            return try RasterImage(png: RasterPNG.encode(s, threads: 1))
        }
        let stroked = try draw(false), filled = try draw(true)
        var differing = 0, worst = 0
        for y in 0..<h {
            for x in 0..<w {
                let a = stroked.pixel(x, y), b = filled.pixel(x, y)
                let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                worst = max(worst, d)
                if d > 8 { differing += 1 }
            }
        }
        // Cairo's stroker and the scan converter round edges a little differently: edge
        // pixels differ by a few levels of anti-aliasing, never by a colour.
        #expect(Double(differing) / Double(w * h) < 0.01, "\(differing) pixels differ by more than 8, worst \(worst)")
        #expect(worst <= 32)
    }
}
