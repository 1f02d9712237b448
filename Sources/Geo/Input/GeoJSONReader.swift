/// Streams the features of one GeoJSON file, recognising its format by content.
///
/// Accepts a FeatureCollection (members in any order, unknown ones ignored), GeoJSONSeq
/// (one Feature per line, RFC 8142 record separators, blank lines) and a single bare Feature.
/// A leading UTF-8 BOM is skipped. An empty file or an empty collection yields no features.
/// The text is read in chunks, so memory grows with the largest feature, not the file.
public final class GeoJSONReader<Feature: OvertureFeature> {
    /// The path as given (`-` is stdin).
    public let path: String
    private let input: ChunkedInput
    private var state = State.start
    private var collectionType: String?
    /// Features seen so far, including one that failed.
    public private(set) var featuresRead = 0
    /// 1-based line and 0-based index of the last feature returned or refused.
    private(set) var featureLine = 1
    private(set) var featureIndex = 0
    /// True while the bytes being read belong to a feature (or may, at the top level).
    private var insideFeature = false
    /// Lent to each feature's scanner (see `JSONScanner.scratch`).
    private var scratch = FeatureScratch()
    /// Lent to each feature's scanner (see `JSONScanner.interner`).
    private var interner = StringInterner()

    private enum State {
        case start, topLevel, features(first: Bool), collectionTail, done
    }

    public convenience init(path: String) throws(InputError) {
        try self.init(path: path, chunkSize: ChunkedInput.defaultChunkSize)
    }

    init(path: String, chunkSize: Int, maxFeatureBytes: Int = ChunkedInput.maxValueBytes) throws(InputError) {
        self.path = path
        input = try ChunkedInput(path: path, chunkSize: chunkSize, maxValueBytes: maxFeatureBytes)
    }

    /// Size of a regular file in bytes; nil for stdin and pipes.
    var fileSize: Int? { input.fileSize }

    /// Bytes read from the file so far.
    public var bytesRead: Int { input.bytesRead }

    /// The next feature, or nil at the end of the input.
    public func next() throws(InputError) -> Feature? {
        do {
            return try nextFeature()
        } catch where error.kind == .tooLarge && error.featureIndex == nil {
            // From the buffer, which does not know where the feature starts.
            throw self.error(.tooLarge, error.detail, atFeature: insideFeature)
        }
    }

    private func nextFeature() throws(InputError) -> Feature? {
        while true {
            switch state {
            case .start:
                try skipBOM()
                state = .topLevel
            case .topLevel:
                guard try skipSpace(allowRecordSeparator: true) else { state = .done; return nil }
                if let feature = try topLevelValue() { return feature }
            case .features(let first):
                guard try skipSpace() else { throw truncated("expected a Feature or ']' in the features array") }
                let c = input.buffer[input.pos]
                if c == Byte.closeBracket {
                    input.pos += 1
                    state = .collectionTail
                    continue
                }
                if !first {
                    guard c == Byte.comma else { throw syntax("expected ',' or ']' after a feature, found \(Byte.describe(c))") }
                    input.pos += 1
                    guard try skipSpace() else { throw truncated("expected a Feature after ','") }
                }
                let d = input.buffer[input.pos]
                guard d == Byte.openBrace else {
                    if JSONKind(first: d) != nil {
                        startFeature()
                        throw error(.notGeoJSON, "features array holds a \(JSONKind(first: d)!.rawValue), expected a Feature object", atFeature: true)
                    }
                    throw syntax("expected a Feature object, found \(Byte.describe(d))")
                }
                state = .features(first: false)
                startFeature()
                if let feature = parsedInPlace(atTopLevel: false) { return feature }
                try captureValue()
                return try finishFeature()
            case .collectionTail:
                guard try skipSpace() else { throw truncated("expected ',' or '}' to end the FeatureCollection") }
                let c = input.buffer[input.pos]
                input.pos += 1
                if c == Byte.closeBrace {
                    if let type = collectionType, type != "FeatureCollection" {
                        throw error(.notGeoJSON, "object with a features array has type \(type), expected FeatureCollection", atFeature: false)
                    }
                    guard !(try skipSpace(allowRecordSeparator: true)) else {
                        throw syntax("expected the end of input after the FeatureCollection, found \(Byte.describe(input.buffer[input.pos]))")
                    }
                    state = .done
                    return nil
                }
                guard c == Byte.comma else { throw syntax("expected ',' or '}' in the FeatureCollection, found \(Byte.describe(c))") }
                let key = try memberKey()
                input.mark = input.pos
                try captureValue()
                if key == .type {
                    collectionType = try decodeString(from: input.mark!)
                } else {
                    var scanner = JSONScanner(input.bytes(from: input.mark!))
                    do { try scanner.skipValue() } catch { throw self.error(error.kind, error.detail, atFeature: false) }
                }
                input.mark = nil
            case .done:
                return nil
            }
        }
    }

    // MARK: Top level

    /// Walks one top-level object: a FeatureCollection switches to streaming its features
    /// (returns nil); anything else is parsed as one Feature.
    private func topLevelValue() throws(InputError) -> Feature? {
        let c = input.buffer[input.pos]
        guard c == Byte.openBrace else {
            if let kind = JSONKind(first: c) {
                throw error(.notGeoJSON, "top-level value is \(kind == .array ? "an" : "a") \(kind.rawValue); expected a FeatureCollection or Feature object", atFeature: false)
            }
            throw syntax("expected a FeatureCollection or Feature object, found \(Byte.describe(c))")
        }
        startFeature()
        if let feature = parsedInPlace(atTopLevel: true) { return feature }
        input.pos += 1
        var type: String?
        guard try skipSpace() else { throw truncated("expected a member or '}'") }
        if input.buffer[input.pos] == Byte.closeBrace {
            input.pos += 1
            return try finishFeature()
        }
        while true {
            let key = try memberKey()
            if key == .features, input.buffer[input.pos] == Byte.openBracket, type != "Feature" {
                insideFeature = false
                try validateCollectionHead()
                input.pos += 1
                input.mark = nil
                insideFeature = false
                featuresRead -= 1
                collectionType = type
                state = .features(first: true)
                return nil
            }
            let valueStart = input.pos - input.mark!
            try captureValue()
            if key == .type { type = try decodeString(from: input.mark! + valueStart) }
            guard try skipSpace() else { throw truncated("expected ',' or '}' after a member") }
            let c = input.buffer[input.pos]
            input.pos += 1
            if c == Byte.closeBrace { return try finishFeature() }
            guard c == Byte.comma else { throw syntax("expected ',' or '}' after a member, found \(Byte.describe(c))") }
        }
    }

    /// Checks the collection's members before `features` (`mark..<pos`, which ends at the key).
    private func validateCollectionHead() throws(InputError) {
        var scanner = JSONScanner(input.bytes(from: input.mark!))
        do {
            _ = try scanner.beginObject()
            while true {
                let k = try scanner.key()
                if scanner.keyIs(k, "features") && scanner.i == scanner.count { return }
                try scanner.skipValue()
                _ = try scanner.more(Byte.closeBrace)
            }
        } catch {
            throw self.error(error.kind, error.detail, atFeature: false)
        }
    }

    private func skipBOM() throws(InputError) {
        while input.available < 3, try input.refill() {}
        let b = input.buffer + input.pos
        if input.available >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { input.pos += 3 }
    }

    /// Skips whitespace (and record separators at the top level); false at end of input.
    private func skipSpace(allowRecordSeparator: Bool = false) throws(InputError) -> Bool {
        while try input.ensure() {
            let p = input.buffer
            var j = input.pos
            let end = j + input.available
            var lines = 0
            defer { input.line += lines }
            while j < end {
                let c = p[j]
                if c == Byte.newline {
                    lines += 1
                } else if !(Byte.isSpace(c) || (allowRecordSeparator && c == Byte.recordSeparator)) {
                    input.pos = j
                    return true
                }
                j += 1
            }
            input.pos = j
        }
        return false
    }

    /// Member names the top-level walk cares about.
    private enum MemberName { case type, features, other }

    /// Reads `"key"` and the colon, leaving `pos` at the value.
    private func memberKey() throws(InputError) -> MemberName {
        guard try skipSpace() else { throw truncated("expected a member name") }
        guard input.buffer[input.pos] == Byte.quote else {
            throw syntax("expected a member name in quotes, found \(Byte.describe(input.buffer[input.pos]))")
        }
        let start = input.pos - (input.mark ?? input.pos)
        let hadMark = input.mark != nil
        if !hadMark { input.mark = input.pos }
        try captureValue()
        let keyStart = input.mark! + start
        let raw = UnsafeBufferPointer(start: input.buffer + keyStart + 1, count: input.pos - keyStart - 2)
        let name: MemberName
        if raw.allSatisfy({ $0 < 0x80 && $0 != Byte.backslash }) {
            name = raw.elementsEqual("type".utf8) ? .type : raw.elementsEqual("features".utf8) ? .features : .other
        } else {
            let key = try decodeString(from: keyStart) ?? ""
            name = key == "type" ? .type : key == "features" ? .features : .other
        }
        if !hadMark { input.mark = nil }
        guard try skipSpace() else { throw truncated("expected ':' after a member name") }
        guard input.buffer[input.pos] == Byte.colon else {
            throw syntax("expected ':' after a member name, found \(Byte.describe(input.buffer[input.pos]))")
        }
        input.pos += 1
        guard try skipSpace() else { throw truncated("expected a value after ':'") }
        return name
    }

    /// Decodes the string value lying at `start..<pos`; nil when it is not a string.
    private func decodeString(from start: Int) throws(InputError) -> String? {
        var scanner = JSONScanner(input.bytes(from: start))
        guard scanner.peek == Byte.quote else {
            do { try scanner.skipValue() } catch { throw self.error(error.kind, error.detail, atFeature: false) }
            return nil
        }
        do { return try scanner.string() } catch { throw self.error(error.kind, error.detail, atFeature: false) }
    }

    // MARK: Capturing a value

    /// Moves `pos` past one JSON value without validating it (the scanner does that later),
    /// counting newlines. Values that span chunks stay whole because `mark` is set.
    /// The reader's innermost loop over every byte of a feature: its string, nesting and refill
    /// paths share the loop's local cursor, so it is kept as one piece.
    private func captureValue() throws(InputError) {
        guard try input.ensure() else { throw truncated("expected a value") }
        let first = input.buffer[input.pos]
        if first == Byte.quote {
            input.pos += 1
            var escaped = false
            while true {
                guard try input.ensure() else { throw truncated("unterminated string") }
                let p = input.buffer
                var j = input.pos
                let end = j + input.available
                while j < end {
                    let c = p[j]
                    j += 1
                    if escaped { escaped = false } else if c == Byte.backslash { escaped = true } else if c == Byte.quote {
                        input.pos = j
                        return
                    }
                }
                input.pos = j
            }
        }
        if first != Byte.openBrace && first != Byte.openBracket {
            // A number or literal: up to the next delimiter.
            while try input.ensure() {
                let c = input.buffer[input.pos]
                if Byte.isSpace(c) || c == Byte.comma || c == Byte.closeBrace || c == Byte.closeBracket || c == Byte.colon {
                    break
                }
                guard c >= 0x21 && c < 0x7F && c != Byte.quote && c != Byte.openBrace && c != Byte.openBracket else {
                    throw syntax("unexpected \(Byte.describe(c))")
                }
                input.pos += 1
            }
            return
        }
        var depth = 0
        var inString = false
        var escaped = false
        var lines = 0
        while true {
            guard try input.ensure() else {
                input.line += lines
                throw truncated("input ends inside \(first == Byte.openBrace ? "an object" : "an array")")
            }
            let p = input.buffer
            var j = input.pos
            let end = j + input.available
            while j < end {
                if inString {
                    if escaped {
                        escaped = false
                        j += 1
                        continue
                    }
                    // Inside a string only a quote or a backslash matters.
                    while j < end, p[j] != Byte.quote, p[j] != Byte.backslash { j += 1 }
                    guard j < end else { break }
                    if p[j] == Byte.backslash { escaped = true } else { inString = false }
                    j += 1
                    continue
                }
                let c = p[j]
                j += 1
                switch c {
                case Byte.quote: inString = true
                case Byte.openBrace, Byte.openBracket:
                    depth += 1
                    // Checked here, so that a long run of brackets is not read whole first.
                    if depth > JSONScanner.maxDepth {
                        input.pos = j
                        input.line += lines
                        throw syntax("nesting deeper than \(JSONScanner.maxDepth)")
                    }
                case Byte.closeBrace, Byte.closeBracket:
                    depth -= 1
                    if depth == 0 {
                        input.pos = j
                        input.line += lines
                        return
                    }
                case Byte.newline: lines += 1
                default: break
                }
            }
            input.pos = j
        }
    }

    // MARK: Features

    private func startFeature() {
        featureLine = input.line
        featureIndex = featuresRead
        featuresRead += 1
        insideFeature = true
        input.mark = input.pos
    }

    /// The feature starting at `pos`, parsed straight from the bytes already read, or nil (and
    /// nothing consumed) when that fails for any reason: the feature runs past the buffer, is
    /// bad, or, at the top level, may be a FeatureCollection. The caller then takes the slower
    /// path that captures the whole value first and reports errors.
    private func parsedInPlace(atTopLevel: Bool) -> Feature? {
        let start = input.pos
        var scanner = JSONScanner(UnsafeRawBufferPointer(start: input.buffer + start, count: input.available))
        swap(&scanner.scratch, &scratch)
        swap(&scanner.interner, &interner)
        defer { swap(&scanner.scratch, &scratch); swap(&scanner.interner, &interner) }
        var id: String?
        guard let parsed = try? scanner.feature(Feature.layer, knownID: &id),
              !(atTopLevel && parsed.mayBeCollection) else { return nil }
        let end = start + scanner.i
        input.line += countNewlines(input.buffer + start, end - start)
        input.pos = end
        input.mark = nil
        insideFeature = false
        return parsed.make(Feature.self, properties: scanner.scratch.properties)
    }

    /// Parses the feature lying at `mark..<pos`.
    private func finishFeature() throws(InputError) -> Feature {
        let bytes = input.bytes(from: input.mark!)
        defer { input.mark = nil; insideFeature = false }
        var scanner = JSONScanner(bytes)
        swap(&scanner.scratch, &scratch)
        swap(&scanner.interner, &interner)
        defer { swap(&scanner.scratch, &scratch); swap(&scanner.interner, &interner) }
        var id: String?
        do {
            let parsed = try scanner.feature(Feature.layer, knownID: &id)
            return parsed.make(Feature.self, properties: scanner.scratch.properties)
        } catch {
            throw InputError(error.kind, file: path, line: featureLine, featureIndex: featureIndex,
                             featureID: id ?? JSONScanner.findID(in: bytes), detail: error.detail)
        }
    }

    // MARK: Errors

    private func error(_ kind: InputError.Kind, _ detail: String, atFeature: Bool) -> InputError {
        let inFeature = atFeature || insideFeature
        let id = inFeature ? input.mark.flatMap { JSONScanner.findID(in: input.bytes(from: $0)) } : nil
        return InputError(kind, file: path, line: inFeature ? featureLine : input.line,
                          featureIndex: inFeature ? featureIndex : nil, featureID: id, detail: detail)
    }

    private func truncated(_ detail: String) -> InputError {
        error(.truncated, detail + ", found end of input", atFeature: false)
    }

    private func syntax(_ detail: String) -> InputError {
        error(.invalidJSON, detail, atFeature: false)
    }
}

/// The newlines among `count` bytes at `p`, found with `memchr` (a feature holds few).
func countNewlines(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
    var lines = 0
    var at = UnsafeRawPointer(p)
    let end = at + count
    while at < end, let nl = memchr(at, Int32(Byte.newline), end - at) {
        lines += 1
        at = UnsafeRawPointer(nl) + 1
    }
    return lines
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
