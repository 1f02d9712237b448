import Foundation
import GRDB
import Testing
@testable import Campaign

@Suite struct PrintAddressesTests {
    @Test func campaignFromBeforeMigration006ReadsTheDefaultBaseThenTakesANewOne() throws {
        let path = try Fixtures.tempDir().appendingPathComponent("c.gpkg").path
        _ = try Provisioner.provision(try Fixtures.sampleInput(), at: path)
        // The file as 004 left it: no qr_base_url column, migration 006 not applied.
        let db = try GeoPackage.open(path)
        try db.write { db in
            try db.execute(sql: "ALTER TABLE campaigns DROP COLUMN qr_base_url")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = '006 qr base url'")
        }
        try db.close()
        let old = try CampaignStore(path: path, readOnly: true)
        #expect(try old.qrBaseURL() == "https://flyrpro.app")
        try old.close()
        let store = try CampaignStore(path: path)
        #expect(try store.setQRBaseURL("https://go.example.org/") == "https://go.example.org")
        #expect(try store.qrBaseURL() == "https://go.example.org")
        #expect(throws: QRBaseURLError.self) { try store.setQRBaseURL("https://x.org/?a=1") }
        #expect(throws: QRBaseURLError.self) { try store.setQRBaseURL("flyrpro.app") }
        var first: PrintAddress?
        var count = 0
        try store.forEachPrintAddress(footprints: true) { a in
            if first == nil { first = a }
            count += 1
        }
        #expect(count == 558 && first?.seq == 1 && first?.slug?.count == 10)
        #expect(first?.location != nil && first?.footprint.isEmpty == false)
        try store.close()
    }

    @Test func formulaLeadingValuesAreNeutralised() {
        for (value, expected) in [("=1+2", "'=1+2"), ("+1", "'+1"), ("-5", "'-5"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"),
                                  ("81-42 243rd Street", "81-42 243rd Street"), ("", "")] {
            #expect(VDPManifest.neutralised(value) == expected)
        }
    }
}
