/// A colour with straight (not premultiplied) alpha, each channel in [0, 1].
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    public var r: Double, g: Double, b: Double, a: Double
    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) { self.r = r; self.g = g; self.b = b; self.a = a }

    /// Parses `#rgb`, `#rrggbb` or `#rrggbbaa`; nil for anything else.
    public init?(hex: String) {
        guard hex.first == "#" else { return nil }
        var digits = Array(hex.dropFirst())
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        guard digits.count == 6 || digits.count == 8 else { return nil }
        var v: [Double] = []
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(digits[i...i + 1]), radix: 16) else { return nil }
            v.append(Double(byte) / 255)
        }
        self.init(v[0], v[1], v[2], v.count == 4 ? v[3] : 1)
    }

    /// 8-bit channels, rounded.
    public var bytes: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        func q(_ x: Double) -> UInt8 { UInt8((min(max(x, 0), 1) * 255).rounded()) }
        return (q(r), q(g), q(b), q(a))
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var hex: String {
        let c = bytes
        func h(_ x: UInt8) -> String { let s = String(x, radix: 16); return s.count == 1 ? "0" + s : s }
        return "#" + h(c.r) + h(c.g) + h(c.b) + (c.a == 255 ? "" : h(c.a))
    }
    public var description: String { hex }

    /// This colour moved `t` (0...1) of the way to `other`, channel by channel; opaque.
    public func mixed(with other: RGBA, _ t: Double) -> RGBA {
        RGBA(r + (other.r - r) * t, g + (other.g - g) * t, b + (other.b - b) * t)
    }
}
