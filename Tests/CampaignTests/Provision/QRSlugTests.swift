import Testing
@testable import Campaign

@Suite struct QRSlugTests {
    @Test func qrSlugsAreRandomAndReadable() {
        let slugs = (0..<1000).map { _ in QRSlug.make() }
        #expect(Set(slugs).count == 1000)
        #expect(slugs.allSatisfy { $0.utf8.count == 10 && $0.utf8.allSatisfy { QRSlug.alphabet.contains($0) } })
        // From one source, as a provision makes them (its buffer of random words refilled).
        var source = QRSlug.Source()
        let many = (0..<5000).map { _ in QRSlug.make(&source) }
        #expect(Set(many).count == 5000)
        #expect(many.allSatisfy { $0.utf8.count == 10 && $0.utf8.allSatisfy { QRSlug.alphabet.contains($0) } })
        // Each slug as a number and back, as a provision checks them for uniqueness; other
        // texts have no number.
        #expect(many.allSatisfy { QRSlug.code($0).map(QRSlug.text) == $0 })
        #expect(Set(many.compactMap(QRSlug.code)).count == 5000)
        for other in ["", "abcdefghj", "abcdefghjkm", "ABCDEFGHJK", "abcdefghj1", "abcdefghj\u{e9}"] { #expect(QRSlug.code(other) == nil) }
        // Every letter of the alphabet turns up, about equally often.
        var counts: [UInt8: Int] = [:]
        for s in many { for c in s.utf8 { counts[c, default: 0] += 1 } }
        #expect(counts.count == QRSlug.alphabet.count)
        #expect(counts.values.allSatisfy { abs($0 - 50_000 / 31) < 300 })
    }
}
