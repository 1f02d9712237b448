import ArgumentParser
import Campaign
import Geo
import Foundation

struct PushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Write a campaign GeoPackage into the product's PostGIS database, in one transaction.",
        discussion: """
        Creates what is missing of the schema (ordered migrations recorded in flyr_migrations), \
        then upserts the campaign. The same provision twice changes nothing. After a re-provision \
        the features and links follow the file; the statuses, scans and visits already in the \
        database are kept for the buildings and addresses that still exist.
        """)

    @OptionGroup var file: CampaignFile
    @Option(name: .long, help: ArgumentHelp("The product database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.", valueName: "URL"))
    var postgres: String
    @Flag(name: .long, help: "Print the summary as JSON on stdout.")
    var json = false

    func validate() throws {
        do { _ = try PostGISURL(parsing: postgres) } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        do {
            let start = ContinuousClock.now
            let store = try file.open(readOnly: true)
            let snapshot = try store.snapshot()
            try store.close()
            let summary = try withPostGIS(postgres) { db in try await db.push(snapshot) }
            report(summary, seconds: seconds(since: start))
        } catch { reportAndExit(error) }
    }

    private func report(_ s: PushSummary, seconds: Double) {
        let secs = LinkTable.format(seconds, 2)
        if json {
            print("{\"campaign_id\":\(LinkTable.jsonString(s.campaignID)),\"unchanged\":\(s.unchanged),\"buildings\":\(s.buildings),"
                  + "\"addresses\":\(s.addresses),\"segments\":\(s.segments),\"links\":\(s.links),\"scan_events\":\(s.scanEvents),"
                  + "\"migrations_applied\":[\(s.migrationsApplied.map(LinkTable.jsonString).joined(separator: ","))],\"seconds\":\(secs)}")
            return
        }
        for m in s.migrationsApplied { Log.info("flyr push: applied migration \(m)") }
        if s.unchanged { Log.info("flyr push: the database already holds this provision of campaign \(s.campaignID); nothing changed") }
        Log.info("""
            campaign \(s.campaignID) in the database\(s.unchanged ? " (unchanged)" : "")
              buildings \(s.buildings), addresses \(s.addresses), segments \(s.segments), links \(s.links), scan_events \(s.scanEvents), \(secs) s
            """)
    }
}
