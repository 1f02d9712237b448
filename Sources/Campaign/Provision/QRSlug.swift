import Foundation

/// QR slugs: 10 characters from a cryptographically secure source (the kernel's generator:
/// /dev/urandom, or getrandom(2) through the standard library), in an alphabet without
/// look-alike characters.
public enum QRSlug {
    static let alphabet = Array("23456789abcdefghjkmnpqrstuvwxyz".utf8)

    public static func make() -> String {
        var source = Source()
        return make(&source)
    }

    static func make(_ source: inout Source) -> String { text(makeCode(&source)) }

    /// A slug as a number: its characters' places in the alphabet, 5 bits each, the first
    /// character lowest.
    static func makeCode(_ source: inout Source) -> UInt64 {
        var code: UInt64 = 0
        var n = 0
        // 5 random bits a character, values 31 rejected (unbiased over the 31 letters).
        while n < 10 {
            var bits = source.next()
            for _ in 0..<12 where n < 10 {
                let v = bits & 31
                bits >>= 5
                if v < UInt64(alphabet.count) { code |= v << (5 * UInt64(n)); n += 1 }
            }
        }
        return code
    }

    /// The slug of a code from `makeCode`.
    static func text(_ code: UInt64) -> String {
        String(unsafeUninitializedCapacity: 10) { out in
            for n in 0..<10 { out[n] = alphabet[Int((code >> (5 * UInt64(n))) & 31)] }
            return 10
        }
    }

    /// The code of a slug in the form `make` gives; nil for any other text.
    static func code(_ slug: String) -> UInt64? {
        guard slug.utf8.count == 10 else { return nil }
        var code: UInt64 = 0
        for (n, c) in slug.utf8.enumerated() {
            guard let v = alphabet.firstIndex(of: c) else { return nil }
            code |= UInt64(v) << (5 * UInt64(n))
        }
        return code
    }

    /// Random words from the system's generator, fetched 512 at a time from /dev/urandom (the
    /// kernel's CSPRNG, as getrandom(2)): a kernel call per word, as SystemRandomNumberGenerator
    /// makes, would be a million calls at a city's addresses. Without /dev/urandom, the system
    /// generator word by word.
    struct Source {
        private static let device: Int32 = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        private var words = [UInt64](repeating: 0, count: 512)
        private var at = 512

        mutating func next() -> UInt64 {
            if at == words.count {
                var filled = 0
                if Self.device >= 0 {
                    filled = words.withUnsafeMutableBytes { buffer in
                        var got = 0
                        while got < buffer.count {
                            let n = read(Self.device, buffer.baseAddress! + got, buffer.count - got)
                            if n <= 0 { break }
                            got += n
                        }
                        return got
                    } / 8
                }
                var rng = SystemRandomNumberGenerator()
                for k in filled..<words.count { words[k] = rng.next() }
                at = 0
            }
            defer { at += 1 }
            return words[at]
        }
    }
}
