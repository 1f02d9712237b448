import CGEOS

/// A failure inside GEOS (not a problem with the user's data).
public struct GEOSError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var message: String
    public var description: String { "GEOS \(operation) failed: \(message)" }
}

/// Collects the last message GEOS reported on one context.
final class GEOSMessageBox {
    var lastError = ""
    var lastNotice = ""
}

/// One GEOS context handle. Confine it to one task or worker: it is not thread-safe.
/// Every `Geometry` keeps its context alive.
public final class GEOSContext {
    let handle: GEOSContextHandle_t
    private let messages = GEOSMessageBox()

    public init() {
        handle = GEOS_init_r()
        let box = Unmanaged.passUnretained(messages).toOpaque()
        GEOSContext_setErrorMessageHandler_r(handle, { message, userdata in
            guard let message, let userdata else { return }
            Unmanaged<GEOSMessageBox>.fromOpaque(userdata).takeUnretainedValue().lastError = String(cString: message)
        }, box)
        GEOSContext_setNoticeMessageHandler_r(handle, { message, userdata in
            guard let message, let userdata else { return }
            Unmanaged<GEOSMessageBox>.fromOpaque(userdata).takeUnretainedValue().lastNotice = String(cString: message)
        }, box)
    }

    deinit { GEOS_finish_r(handle) }

    func error(_ operation: String) -> GEOSError {
        let m = messages.lastError
        messages.lastError = ""
        return GEOSError(operation: operation, message: m.isEmpty ? "no message" : m)
    }

    /// The GEOS library version, e.g. "3.11.1-CAPI-1.17.1".
    public static var version: String { String(cString: GEOSversion()) }
}
