// libFuzzer target: the style parser. Any input may be refused with a StyleError; none may
// crash, and an accepted style has finite, non-negative sizes. Built only by `make fuzz`.
import Foundation
import Render

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStyle(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(bytes: data, count: size)
    do {
        let style = try Style.parse(bytes, file: "fuzz.json")
        for v in [style.titleSize, style.labelSize, style.legendSize, style.attributionSize,
                  style.buildingStrokeWidth, style.roadCasingWidth, style.labelHaloWidth, style.labelPadding] {
            precondition(v.isFinite && v >= 0, "accepted a size of \(v)")
        }
        for (_, w) in style.roadWidths { precondition(w.isFinite && w >= 0, "accepted a road width of \(w)") }
    } catch {
        precondition(!error.description.isEmpty)
    }
    return 0
}

/// SwiftPM links an executable with its entry point renamed to `FuzzStyle_main`; libFuzzer's own
/// main is then never pulled in, so this one hands control to libFuzzer's driver.
@_cdecl("FuzzStyle_main")
public func FuzzStyleMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzStyle)
}

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) -> Int32
