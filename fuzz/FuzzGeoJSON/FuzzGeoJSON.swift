// libFuzzer target: the streaming GeoJSON / GeoJSONSeq reader, for each layer, with a chunk
// size small enough that values straddle refills. Any input may be refused with an
// InputError; none may crash, hang or leak. Built only by `make fuzz` (FLYR_FUZZ=1).
#if canImport(Glibc)
import Glibc
#endif
@testable import Geo

/// One scratch file per process: the reader takes a path, as flyr's commands give it.
private let scratch = "/tmp/flyr-fuzz-geojson-\(getpid())"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let fd = open(scratch, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { fatalError("cannot create \(scratch)") }
    var written = 0
    while written < size {
        let n = write(fd, data + written, size - written)
        guard n > 0 else { fatalError("cannot write \(scratch)") }
        written += n
    }
    close(fd)
    // The first byte picks a chunk size from 1 to 64 bytes; the default is tried as well.
    let chunk = size > 0 ? Int(data[0] % 64) + 1 : 1
    for chunkSize in [chunk, ChunkedInput.defaultChunkSize] {
        read(Building.self, chunkSize)
        read(Address.self, chunkSize)
        read(Segment.self, chunkSize)
    }
    return 0
}

private func read<F: OvertureFeature>(_: F.Type, _ chunkSize: Int) {
    do {
        let reader = try GeoJSONReader<F>(path: scratch, chunkSize: chunkSize)
        var last = -1
        while let feature = try reader.next() {
            precondition(!feature.id.isEmpty, "a feature came back without an id")
            precondition(reader.featureIndex > last, "feature index did not advance")
            last = reader.featureIndex
        }
    } catch {
        precondition(!error.description.isEmpty)
    }
}

/// SwiftPM links an executable with its entry point renamed to `FuzzGeoJSON_main`; libFuzzer's own
/// main is then never pulled in, so this one hands control to libFuzzer's driver.
@_cdecl("FuzzGeoJSON_main")
public func FuzzGeoJSONMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzGeoJSON)
}

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) -> Int32
