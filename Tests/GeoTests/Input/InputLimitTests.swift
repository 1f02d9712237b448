import Foundation
import Testing
@testable import Geo

/// Limits on hostile input: one feature's size, its nesting, and counts beyond 32 bits.
@Suite struct InputLimitTests {
    func feature(_ id: String, note: Int) -> String {
        #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"note":""#
            + String(repeating: "x", count: note) + "\"}}\n"
    }

    @Test(arguments: [16, 64, 4096])
    func aFeatureLargerThanTheCapIsRefusedWithItsPlace(chunkSize: Int) throws {
        let path = tempFile(feature("small", note: 500) + feature("big", note: 5000) + feature("after", note: 10))
        let reader = try GeoJSONReader<Address>(path: path, chunkSize: chunkSize, maxFeatureBytes: 1000)
        #expect(try reader.next()?.id == "small")
        do {
            _ = try reader.next()
            Issue.record("a 5 kB feature read with a 1000-byte cap")
        } catch {
            #expect(error.kind == .tooLarge && error.featureIndex == 1 && error.line == 2, "\(error)")
            #expect(error.description.contains("feature 1, id big: too large: a single feature holds more than 1000 bytes"), "\(error)")
        }
        // The same file in a collection, and under the default cap: read whole.
        let all = try GeoJSONReader<Address>(path: path, chunkSize: chunkSize)
        var ids: [String] = []
        while let f = try all.next() { ids.append(f.id) }
        #expect(ids == ["small", "big", "after"])
        #expect(ChunkedInput.maxValueBytes == 256 << 20)
    }

    @Test func nestingIsCheckedWhileAValueIsCaptured() throws {
        // Inside a collection, a feature is captured before it is parsed: 513 brackets fail
        // where they are, 512 more bytes of them are never looked at.
        let deep = String(repeating: "[", count: 513)
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"d","properties":{},"geometry":{"type":"Polygon","coordinates":"#
            + deep + String(repeating: "[", count: 100_000)
        let reader = try GeoJSONReader<Building>(path: tempFile(text), chunkSize: 64)
        do {
            _ = try reader.next()
            Issue.record("read past 512 levels")
        } catch {
            #expect(error.kind == .invalidJSON && error.detail == "nesting deeper than 512" && error.featureIndex == 0, "\(error)")
        }
        #expect(reader.bytesRead < 4096, "\(reader.bytesRead) bytes read")
    }

    @Test func countsBeyondInt32ThrowInsteadOfTrapping() throws {
        #expect(try CheckedCount.int32(2_147_483_647, "features") == Int32.max)
        #expect(try CheckedCount.int32(0, "features") == 0)
        for bad in [2_147_483_648, Int.max, -1] {
            do {
                _ = try CheckedCount.int32(bad, "features", file: "f.geojson")
                Issue.record("\(bad) converted")
            } catch {
                #expect(error.kind == .tooLarge && error.description == "f.geojson: too large: \(bad) features: flyr holds at most 2147483647")
            }
        }
    }
}
