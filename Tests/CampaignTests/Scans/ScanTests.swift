import Foundation
import GRDB
import Testing
@testable import Campaign
import Geo

@Suite(.serialized) struct ScanTests {
    func provisioned() throws -> (CampaignStore, ProvisionInput, String) {
        let path = try Fixtures.tempDir().appendingPathComponent("c.gpkg").path
        let input = try Fixtures.sampleInput()
        _ = try Provisioner.provision(input, at: path)
        return (try CampaignStore(path: path), input, path)
    }

    @Test func goodEventsAreKeptBesideBadOnes() throws {
        let (store, input, _) = try provisioned()
        let b = input.links.links.compactMap(\.buildingID).sorted()[0]
        let text = """
            {"event_id":"a","gers_id":"\(b)","scanned_at":"2026-11-22T10:00:00Z","user_agent":"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile"}
            {"event_id":"b","gers_id":"no-such-building","scanned_at":"2026-11-22T10:01:00Z"}
            {"event_id":"c","gers_id":"\(b)","scanned_at":"not a time"}
            {"gers_id":"\(b)","scanned_at":"2026-11-22T10:02:00Z"}
            {"event_id":"d","gers_id":"\(b)","address_id":"x","scanned_at":"2026-11-22T10:03:00Z"}
            {"event_id":"e","gers_id":"\(b)","scanned_at":"2026-11-22T10:04:00Z","user_agent":"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"}
            {"event_id":"f","gers_id":"\(b)","scanned_at":"2026-11-22T10:05:00Z","user_agent":"WhatsApp/2.23.20.0 A"}
            this is not json
            {"event_id":"a","gers_id":"\(b)","scanned_at":"2026-11-22T10:00:00Z"}
            {"event_id":"g","gers_id":"\(b)","scanned_at":"2026-11-22T10:06:00+02:00","user_agent":"QR Scanner/3.1 (Android 14)"}
            """
        let results = try store.ingest(ScanParser.parse(text))
        #expect(results.map(\.outcome.rawValue) == ["success", "failed", "failed", "failed", "failed", "skipped_bot", "skipped_bot",
                                                    "failed", "duplicate", "success"])
        #expect(results.map(\.line) == Array(1...10))
        #expect(results[1].errors == ["unknown building gers_id 'no-such-building'"])
        #expect(results[3].errors == ["missing event_id"])
        let s = try store.stats()
        #expect(s.scanned == 1)
        try store.close()
    }

    @Test func countersFollowDaysAndKeepTheLatestScan() throws {
        let (store, input, path) = try provisioned()
        let l = input.links.links.first { $0.buildingID != nil }!
        let csv = """
            event_id,address_id,scanned_at,user_agent
            1,\(l.addressID),2026-11-20T23:00:00Z,
            2,\(l.addressID),2026-11-21T09:00:00Z,
            3,\(l.addressID),2026-11-21T18:00:00Z,
            4,\(l.addressID),2026-11-20T08:00:00Z,
            """
        let r = try store.ingest(ScanParser.parse(csv))
        #expect(r.allSatisfy { $0.outcome == .success })
        try store.close()
        let db = try DatabaseQueue(path: path)
        let row = try db.read { try Row.fetchOne($0, sql: "SELECT * FROM building_stats WHERE gers_id = ?", arguments: [l.buildingID!]) }!
        #expect(row["scans_total"] as Int == 4)
        #expect(row["scans_today"] as Int == 2)            // two on the 21st, the latest day
        #expect(row["scans_day"] as String == "2026-11-21")
        #expect(row["last_scan_at"] as String == "2026-11-21T18:00:00.000Z")
        #expect(row["status"] as String == "visited")
        let a = try db.read { try Row.fetchOne($0, sql: "SELECT visited, scans FROM campaign_addresses WHERE gers_id = ?", arguments: [l.addressID]) }!
        #expect(a["visited"] as Bool && a["scans"] as Int == 4)
    }

    @Test func qrSlugsResolveToTheirAddress() throws {
        let (store, _, path) = try provisioned()
        let db = try DatabaseQueue(path: path)
        let row = try db.read { try Row.fetchOne($0, sql: "SELECT gers_id, qr_slug FROM campaign_addresses WHERE building_gers_id IS NOT NULL LIMIT 1") }!
        let slug: String = row["qr_slug"]
        let r = try store.ingest(ScanParser.parse("{\"event_id\":\"q\",\"qr_slug\":\"\(slug)\",\"scanned_at\":\"2026-11-22T10:00:00Z\"}"))
        #expect(r.map(\.outcome) == [.success])
        try store.close()
        #expect(try db.read { try Int.fetchOne($0, sql: "SELECT scans FROM campaign_addresses WHERE gers_id = ?", arguments: [row["gers_id"] as String]) } == 1)
    }

    @Test func markRefusesUnknownBuildingsAndStatuses() throws {
        let (store, input, _) = try provisioned()
        #expect(throws: GeoPackageError.self) { try store.mark(building: "nope", status: "hot") }
        #expect(throws: GeoPackageError.self) { try store.mark(building: input.buildings[0].id, status: "burning") }
        try store.mark(building: input.links.links.compactMap(\.buildingID)[0], status: "hot")
        let s = try store.stats()
        #expect(s.visited == 1 && s.scanned == 0)
        #expect(abs(s.progressPct - 100.0 / Double(s.targetBuildings)) < 1e-9)
        try store.close()
    }

    @Test(arguments: ["Mozilla/5.0 (compatible; bingbot/2.0)", "facebookexternalhit/1.1", "Slackbot-LinkExpanding 1.0",
                      "Twitterbot/1.0", "Discordbot/2.0", "TelegramBot (like TwitterBot)", "LinkedInBot/1.0"])
    func crawlersAreBots(_ ua: String) { #expect(BotUserAgents.isBot(ua)) }

    @Test(arguments: ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
                      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36",
                      "QR Code Reader/2.1 CFNetwork/1410 Darwin/22.6.0", "Instagram 300.0 (iPhone)", ""])
    func peopleAreNotBots(_ ua: String) { #expect(!BotUserAgents.isBot(ua)) }
}
