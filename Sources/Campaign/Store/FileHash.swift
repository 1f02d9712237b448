import Crypto
import Foundation

/// SHA-256 fingerprints of a campaign's source files and settings, hex-encoded. swift-crypto
/// (BoringSSL's assembly, with the CPU's SHA extensions where present) hashes a city's
/// extracts several times faster than portable Swift would.
enum FileHash {
    /// Hex SHA-256 of a file's bytes; nil when it cannot be opened.
    static func file(_ path: String) -> String? {
        guard let fh = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? fh.close() }
        var h = Crypto.SHA256()
        while let chunk = try? fh.read(upToCount: 4 << 20), !chunk.isEmpty { h.update(data: chunk) }
        return hex(h.finalize())
    }

    /// Hex SHA-256 of a text's UTF-8 bytes.
    static func hex(_ text: String) -> String { hex(Crypto.SHA256.hash(data: Data(text.utf8))) }

    private static func hex(_ digest: Crypto.SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
