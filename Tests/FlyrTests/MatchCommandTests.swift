import Foundation
import Testing

/// `flyr match` and `flyr provision --recipients` on the sample area.
struct MatchCommandTests {
    let a = CLI.sample("addresses-streetside.geojsonseq")

    /// A list with three good rows (one typed twice) and three bad ones.
    static let list = """
        name,address,zip,note
        Ana,"94-29 Vanderveer St, Queens Village, NY",11428,gate code 12
        Ben,9486 218th street apt 2,11428,
        Cy,216-07 jamaica ave,11428,
        Dee,94-29 VANDERVEER STREET,11428,same house as Ana
        Eve,Vanderveer Street,11428,
        Flo,12 Nonesuch Road,11428,
        """

    func write(_ text: String, _ name: String) throws -> (dir: URL, path: String) {
        let dir = try CLI.tempDir()
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (dir, path)
    }

    @Test func matchWritesMatchedRowsReviewAndSummary() throws {
        let (dir, list) = try write(Self.list, "list.csv")
        let review = dir.appendingPathComponent("review.csv").path, out = dir.appendingPathComponent("matched.csv").path
        let r = try CLI.run(["match", "--recipients", list, "--addresses", a, "-o", out, "--review", review, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(summary["rows"] as? Int == 6 && summary["matched"] as? Int == 4 && summary["not_found"] as? Int == 2)
        #expect(summary["shared_addresses"] as? Int == 1)
        #expect((summary["reasons"] as? [String: Int]) == ["no_number": 1, "street_not_found": 1])
        let matched = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(matched.count == 5 && matched[0].hasSuffix("shared_with,name,address,zip,note"))
        #expect(matched[1].hasPrefix("2,00068fdd-2b44-52de-92c3-91f05d14074c,exact,") && matched[1].hasSuffix(",5,Ana,\"94-29 Vanderveer St, Queens Village, NY\",11428,gate code 12"))
        let rows = try String(contentsOfFile: review, encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 3)
        #expect(rows[1].hasPrefix("6,no_number,the row gives no house number,Eve,"))
        #expect(rows[2].hasPrefix("7,street_not_found,"))
        let again = try CLI.run(["match", "--recipients", list, "--addresses", a, "-o", out])
        #expect(again.status == 73 && again.stderr.contains("--force"))
    }

    @Test(arguments: [
        ("address,zip\n\"94-29 Vanderveer St,11428\n", "list.csv:2", "never closed"),
        ("address,zip\n94-29 Vanderveer St,11428,extra\n", "list.csv:2", "3 field(s)"),
        ("who,where\nA,B\n", "no address or street column", "who, where"),
    ])
    func malformedListsExit65NamingTheLine(text: String, place: String, words: String) throws {
        let (_, list) = try write(text, "list.csv")
        let r = try CLI.run(["match", "--recipients", list, "--addresses", a])
        #expect(r.status == 65 && r.stderr.contains(place) && r.stderr.contains(words), "\(r.status) \(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test func columnsGivenOnTheCommandLine() throws {
        let (_, list) = try write("Haus,Gasse\n94-29,Vanderveer St\n", "list.csv")
        let r = try CLI.run(["match", "--recipients", list, "--addresses", a, "--columns", "number=Haus,street=Gasse"])
        #expect(r.status == 0 && r.stdout.split(separator: "\n").count == 2, "\(r.stderr)")
        let bad = try CLI.run(["match", "--recipients", list, "--addresses", a, "--columns", "colour=Haus"])
        #expect(bad.status == 64 && bad.stderr.contains("FIELD=COLUMN"))
        let missing = try CLI.run(["match", "--recipients", list, "--addresses", a, "--columns", "street=Strasse"])
        #expect(missing.status == 65 && missing.stderr.contains("no column 'Strasse'"))
    }

    /// match reads addresses, and segments for the streets' other names: its help offers no
    /// buildings, and they are a usage error; --bbox keeps the addresses in the box.
    @Test func matchOffersOnlyWhatItReads() throws {
        let help = try CLI.run(["match", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--addresses") && help.stdout.contains("--bbox"))
        #expect(!help.stdout.contains("--buildings") && help.stdout.contains("--segments"), "\(help.stdout)")
        let (_, list) = try write(Self.list, "list.csv")
        let r = try CLI.run(["match", "--recipients", list, "--addresses", a, "--buildings", a])
        #expect(r.status == 64 && r.stderr.contains("--buildings"), "\(r.status) \(r.stderr)")
        let stdin = try CLI.run(["match", "--recipients", list, "--addresses", "-", "--segments", "-"])
        #expect(stdin.status == 64 && stdin.stderr.contains("stdin"))
        let twice = try CLI.run(["match", "--recipients", list, "--addresses", "-", "--addresses", "-"])
        #expect(twice.status == 64 && twice.stderr.contains("stdin"))
        // A box away from the sample leaves no address to match: every row is not found.
        let far = try CLI.run(["match", "--recipients", list, "--addresses", a, "--bbox", "-73.0,40.0,-72.9,40.1", "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(far.stdout.utf8)) as? [String: Any], "\(far.stderr)")
        #expect(far.status == 0 && summary["matched"] as? Int == 0 && summary["rows"] as? Int == 6)
    }

    /// With --segments, a row may name its street as the road's `names.common` does: matched,
    /// and said so; without them the street is not found.
    @Test func segmentsLetARowNameItsStreetByAnotherName() throws {
        let (dir, list) = try write("address\n94-29 Calle Vanderveer\n", "list.csv")
        let segments = dir.appendingPathComponent("s.geojson").path
        try #"""
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"r1","geometry":{"type":"LineString",
            "coordinates":[[-73.741,40.716],[-73.740,40.717]]},"properties":{"subtype":"road","class":"residential",
            "names":{"primary":"Vanderveer Street","common":{"es":"Calle Vanderveer"}}}}]}
            """#.write(toFile: segments, atomically: true, encoding: .utf8)
        let r = try CLI.run(["match", "--recipients", list, "--addresses", a, "--segments", segments])
        #expect(r.status == 0 && r.stdout.contains("\n2,00068fdd-2b44-52de-92c3-91f05d14074c,street_other_name,1.000,94-29,Vanderveer Street,"),
                "\(r.stdout) \(r.stderr)")
        let plain = try CLI.run(["match", "--recipients", list, "--addresses", a, "--json"])
        #expect(plain.status == 0 && plain.stdout.contains("\"street_not_found\":1"), "\(plain.stdout)")
    }

    @Test func provisionKeepsOnlyTheMatchedAddresses() throws {
        let (dir, list) = try write(Self.list, "list.csv")
        let out = dir.appendingPathComponent("c.gpkg").path, review = dir.appendingPathComponent("review.csv").path
        let r = try CLI.run(["provision", "--name", "List", "--buildings", CLI.sample("buildings.geojson"), "--addresses", a,
                             "--segments", CLI.sample("segments.geojson"), "--recipients", list, "--review", review, "-o", out, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\"addresses_saved\":3") && r.stdout.contains("\"links_created\":3"), "\(r.stdout)")
        #expect(FileManager.default.fileExists(atPath: review))
        // One export row per recipient (Ana and Dee share a house), the list's columns after the address's.
        let csv = try CLI.run(["export", out, "--csv", "-"]).stdout.split(separator: "\n")
        #expect(csv.count == 5 && csv[0].hasSuffix(",lon,lat,recipient_line,name,address,zip,note"))
        #expect(csv.filter { $0.contains("00068fdd-2b44-52de-92c3-91f05d14074c") }.map { $0.split(separator: ",").last! }
                == ["gate code 12", "same house as Ana"])
    }
}
