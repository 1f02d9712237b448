import ArgumentParser
import Foundation
import Geo

struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Link every address to a building and write the link table.")

    @Option(name: .long, help: "Buildings extract (GeoJSON or GeoJSONSeq; '-' for stdin).")
    var buildings: String
    @Option(name: .long, help: "Addresses extract.")
    var addresses: String
    @Option(name: .long, help: "Road segments extract (street evidence).")
    var segments: String?
    @Option(name: [.customShort("o"), .long], help: "Output: .csv, .geojson or .json; CSV to stdout when absent.")
    var output: String?
    @Option(name: .long, help: "Truth CSV (address_id,building_id): print accuracy and the misses.")
    var check: String?

    func run() throws {
        let b = tmpLoadBuildings(buildings), a = tmpLoadAddresses(addresses)
        let s = segments.map(tmpLoadSegments) ?? []
        let result = try Linker().link(buildings: b, addresses: a, segments: s)
        for m in LinkMethod.allCases { FileHandle.standardError.write("\(m.rawValue): \(result.count(m))\n".data(using: .utf8)!) }
        for (n, t) in result.phases { FileHandle.standardError.write("\(n): \(t)s\n".data(using: .utf8)!) }
        if let output { try LinkTable.csv(result).write(toFile: output, atomically: true, encoding: .utf8) }
        if let check {
            let rows = try String(contentsOfFile: check, encoding: .utf8).split(separator: "\n").dropFirst()
            var truth: [String: String] = [:]
            for r in rows { let f = r.split(separator: ","); truth[String(f[0])] = String(f[1]) }
            var ok = 0
            var misses: [String] = []
            for l in result.links { if let t = truth[l.addressID] { if l.buildingID == t { ok += 1 } else { misses.append("\(l.addressID),\(t),\(l.buildingID ?? ""),\(l.method.rawValue),\(l.distance),\(l.confidence)") } } }
            print("accuracy \(Double(ok) / Double(truth.count)) \(ok)/\(truth.count)")
            try misses.joined(separator: "\n").write(toFile: "/tmp/misses.csv", atomically: true, encoding: .utf8)
        }
    }
}
