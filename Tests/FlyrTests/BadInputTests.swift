import Foundation
import Testing

/// One case of the bad-input corpus (`Tests/Fixtures/bad/cases.json`): a file given to one
/// layer or option of a command, the exit code it must give, and what stderr must say.
struct BadInputCase: Sendable, Decodable, CustomTestStringConvertible {
    /// The file in Tests/Fixtures/bad (or generated at test time); nil for a bad option.
    var file: String?
    /// buildings, addresses, segments (read by `flyr link`), truth (`link --check`),
    /// style (`render --style`), scans (`scans ingest`), bbox (`link --bbox`).
    var layer: String
    var exit: Int32
    /// Substrings stderr must contain.
    var stderr: [String]
    /// Generated, not committed: polygon-100k-vertices, property-10mb-string.
    var generate: String?
    /// Extra arguments (the bbox text for `bbox`).
    var args: [String]?

    var testDescription: String { file ?? "\(layer) \(args?.joined(separator: " ") ?? "")" }

    static let directory = CLI.root.appendingPathComponent("Tests/Fixtures/bad")
    static let all: [BadInputCase] = {
        let data = try! Data(contentsOf: directory.appendingPathComponent("cases.json"))
        return try! JSONDecoder().decode([BadInputCase].self, from: data)
    }()
}

@Suite struct BadInputTests {
    let b = CLI.sample("buildings.geojson"), a = CLI.sample("addresses-streetside.geojsonseq")

    @Test func theCorpusHasEnoughCases() throws {
        #expect(BadInputCase.all.count >= 40)
        // Every file in the folder is a case or a case's support file.
        let named = Set(BadInputCase.all.compactMap(\.file))
        let files = try FileManager.default.contentsOfDirectory(atPath: BadInputCase.directory.path)
            .filter { $0 != "cases.json" && $0 != "README.md" && !$0.hasPrefix("support-") }
        #expect(Set(files).subtracting(named).isEmpty, "files without a case: \(Set(files).subtracting(named).sorted())")
    }

    @Test(arguments: BadInputCase.all)
    func badInputGivesItsExitCodeAndMessage(_ c: BadInputCase) throws {
        let out = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(at: out) }
        var file = c.file.map { BadInputCase.directory.appendingPathComponent($0).path } ?? ""
        if let kind = c.generate {
            file = out.appendingPathComponent(c.file!).path
            try Self.generate(kind, at: file)
        }
        let dir = BadInputCase.directory.path
        let args: [String]
        switch c.layer {
        case "buildings": args = ["link", "--buildings", file, "--addresses", a, "-o", out.appendingPathComponent("l.csv").path]
        case "addresses": args = ["link", "--buildings", b, "--addresses", file, "-o", out.appendingPathComponent("l.csv").path]
        case "segments": args = ["link", "--buildings", b, "--addresses", a, "--segments", file, "-o", out.appendingPathComponent("l.csv").path]
        case "truth": args = ["link", "--buildings", b, "--addresses", a, "--check", file, "-o", out.appendingPathComponent("l.csv").path]
        case "bbox": args = ["link", "--buildings", b, "--addresses", a, "--bbox"] + (c.args ?? [])
        case "style": args = ["render", dir + "/z-3d.geojson", "--style", file, "-o", out.appendingPathComponent("m.png").path]
        case "scans":
            let campaign = out.appendingPathComponent("c.gpkg").path
            let p = try CLI.run(["provision", "--name", "Bad input", "--buildings", dir + "/z-3d.geojson",
                                 "--addresses", dir + "/support-address.geojsonseq", "-o", campaign])
            #expect(p.status == 0, "\(p.stderr)")
            args = ["scans", "ingest", campaign, file]
        default: Issue.record("unknown layer \(c.layer)"); return
        }
        let r = try CLI.run(args)
        #expect(r.status == c.exit, "\(r.stderr)")
        for s in c.stderr { #expect(r.stderr.contains(s), "stderr lacks «\(s)»: \(r.stderr)") }
        #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Stack dump"))
        if c.exit != 0 { #expect(r.stderr.hasPrefix("flyr: error: ") || r.stderr.contains("\nflyr: error: ") || r.stderr.hasPrefix("Error: ")) }
    }

    /// Large inputs made at test time so the repository stays small.
    static func generate(_ kind: String, at path: String) throws {
        var text = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        switch kind {
        case "polygon-100k-vertices":
            // A circle of 100 000 vertices, about 20 m across, among the sample's houses.
            let n = 100_000
            var ring: [String] = []
            ring.reserveCapacity(n + 1)
            for k in 0..<n {
                let t = 2 * Double.pi * Double(k) / Double(n)
                ring.append("[\(-73.7405 + 0.0001 * cos(t)),\(40.7171 + 0.0001 * sin(t))]")
            }
            ring.append(ring[0])
            text += "{\"type\":\"Feature\",\"id\":\"circle\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[" + ring.joined(separator: ",") + "]]},\"properties\":{}}"
        case "property-10mb-string":
            let long = String(repeating: "Hollis ", count: 10 << 20 / 7)
            text += "{\"type\":\"Feature\",\"id\":\"long\",\"properties\":{\"names\":{\"primary\":\"\(long)\"},\"note\":\"\(long)\"},"
                + "\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[-73.7410,40.7170],[-73.7408,40.7170],[-73.7408,40.7172],[-73.7410,40.7172],[-73.7410,40.7170]]]}}"
        default:
            throw CLIError(message: "unknown generated case \(kind)")
        }
        try (text + "\n]}\n").write(toFile: path, atomically: false, encoding: .utf8)
    }
}

struct CLIError: Error { var message: String }
