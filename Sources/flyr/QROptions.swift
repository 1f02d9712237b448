import ArgumentParser
import Render

extension QRErrorCorrection: ExpressibleByArgument {}
extension QRImageFormat: ExpressibleByArgument {}

/// How codes are made, shared by the commands that draw them.
struct QROptions: ParsableArguments {
    @Option(name: .customLong("qr-ecc"), help: ArgumentHelp("QR error correction: L, M, Q or H.", valueName: "level"))
    var ecc: QRErrorCorrection = .M
    @Option(name: .customLong("quiet-zone"), help: ArgumentHelp("Light modules around each code (4 by the standard).", valueName: "modules"))
    var quietZone = 4

    func validate() throws {
        guard (0...40).contains(quietZone) else { throw ValidationError("--quiet-zone takes 0 to 40 modules, e.g. --quiet-zone 4") }
    }

    func style(pixels: Int = 512) -> QRStyle { QRStyle(ecc: ecc, quietZone: quietZone, pixels: pixels) }
}
