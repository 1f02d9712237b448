extension JSONScanner {
    /// Best-effort id of a feature that failed to parse, for error messages.
    static func findID(in bytes: UnsafeRawBufferPointer) -> String? {
        var s = JSONScanner(bytes)
        var top: String?
        var inProperties: String?
        do {
            guard try s.beginObject() else { return nil }
            repeat {
                let k = try s.key()
                if s.keyIs(k, "id") {
                    top = try s.featureID()
                } else if s.keyIs(k, "properties"), try s.nextKind() == .object {
                    if try s.beginObject() {
                        repeat {
                            let pk = try s.key()
                            if s.keyIs(pk, "id") { inProperties = try s.featureID() } else { try s.skipValue() }
                        } while try s.more(Byte.closeBrace)
                    }
                } else {
                    try s.skipValue()
                }
            } while try s.more(Byte.closeBrace)
        } catch {}
        return top ?? inProperties
    }
}
