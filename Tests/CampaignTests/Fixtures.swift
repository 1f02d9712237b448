import Foundation
import GRDB
@testable import Campaign
import Geo

enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func sample(_ name: String) -> String { root.appendingPathComponent("samples/queens-village/\(name)").path }

    static func tempDir() throws -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("flyr-campaign-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }

    /// The sample area read, linked and oriented, ready to provision.
    static func sampleInput(name: String = "Sample", dropBuildings: Int = 0, dropAddresses: Int = 0, settings: String = "default") throws -> ProvisionInput {
        var b = try loadBuildings([sample("buildings.geojson")]).features
        b.removeFirst(dropBuildings)
        var a = try loadAddresses([sample("addresses-streetside.geojsonseq")]).features
        a.removeFirst(dropAddresses)
        let s = try loadSegments([sample("segments.geojson")]).features
        let links = try Linker().link(buildings: b, addresses: a, segments: s)
        let o = try Orienter.orientAddresses(buildings: b, addresses: a, segments: s, links: links)
        var sources = [SourceFile(layer: "buildings", path: sample("buildings.geojson")),
                       SourceFile(layer: "addresses", path: sample("addresses-streetside.geojsonseq")),
                       SourceFile(layer: "segments", path: sample("segments.geojson"))]
        if dropBuildings > 0 { sources[0].sha256 = "dropped-\(dropBuildings)" }
        if dropAddresses > 0 { sources[1].sha256 = "dropped-\(dropAddresses)" }
        return ProvisionInput(name: name, type: "flyer", buildings: b, addresses: a, segments: s, links: links,
                              orientations: o, sources: sources, bbox: nil, settings: settings)
    }

    /// Runs a command, returning its exit status and standard output.
    static func run(_ tool: String, _ args: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [tool] + args
        let out = try tempDir().appendingPathComponent("out")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let fh = try FileHandle(forWritingTo: out)
        p.standardOutput = fh
        p.standardError = fh
        try p.run()
        p.waitUntilExit()
        try fh.close()
        return (p.terminationStatus, try String(contentsOf: out, encoding: .utf8))
    }

    /// Copies the rows of `table` from the attached database `schema` into main, column by
    /// column of main's table (an older schema may have fewer columns).
    static func copyRows(_ db: Database, table: String, from schema: String) throws {
        let columns = try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(table))").map { $0["name"] as String }.joined(separator: ", ")
        try db.execute(sql: "INSERT INTO main.\(table) (\(columns)) SELECT \(columns) FROM \(schema).\(table)")
    }

    struct OGRLayer: Equatable { var count: Int; var extent: [Double]? }

    /// `ogrinfo -so -al` of a file: layer name → feature count and extent (minx, miny, maxx, maxy).
    static func ogrinfo(_ path: String) throws -> [String: OGRLayer] {
        let (status, text) = try run("ogrinfo", ["-so", "-al", path])
        guard status == 0 else { throw OGRError(message: "ogrinfo failed (\(status)): \(text)") }
        var layers: [String: OGRLayer] = [:]
        var current: String? = nil
        for line in text.split(separator: "\n") {
            if line.hasPrefix("Layer name: ") { current = String(line.dropFirst(12)); layers[current!] = OGRLayer(count: -1, extent: nil) }
            guard let c = current else { continue }
            if line.hasPrefix("Feature Count: ") { layers[c]?.count = Int(line.dropFirst(15)) ?? -1 }
            if line.hasPrefix("Extent: ") {
                let nums = line.split(whereSeparator: { "(), -".contains($0) == false && !"0123456789.e".contains($0) })
                _ = nums
                let cleaned = line.dropFirst(8).replacingOccurrences(of: "(", with: "").replacingOccurrences(of: ")", with: "")
                    .replacingOccurrences(of: " - ", with: ",")
                layers[c]?.extent = cleaned.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            }
        }
        return layers
    }
    struct OGRError: Error { var message: String }
}
