import ArgumentParser
import Campaign
import Geo
import Foundation

struct PullCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Write a campaign from the product's PostGIS database, with its current statuses and scans, as a GeoPackage.")

    @OptionGroup var db: PostgresOptions
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The campaign GeoPackage to write.", valueName: "campaign.gpkg"))
    var output: String
    @Flag(name: .long, help: "Replace the output file if it exists.")
    var force = false

    func validate() throws {
        if db.postgres == nil { throw ValidationError("missing --postgres URL --campaign ID, e.g. flyr pull --postgres postgres://flyr@127.0.0.1/flyr --campaign ID -o campaign.gpkg") }
    }

    func run() throws {
        do {
            guard let url = db.postgres, let id = db.campaign else { return }
            try checkOutput(output, force: force)
            let start = ContinuousClock.now
            let snapshot = try withPostGIS(url) { store in try await store.snapshot(campaign: id) }
            do { try Provisioner.write(snapshot, at: output) } catch let e as GeoPackageError {
                // In use, unreadable, or a full disk: each has its own exit code.
                throw e
            } catch {
                throw CLIError(message: "cannot write \(output): \(error)", code: Exit.cantCreate)
            }
            Log.info("flyr pull: campaign \(id) to \(output): \(snapshot.buildings.count) buildings, \(snapshot.addresses.count) addresses, "
                     + "\(snapshot.segments.count) segments, \(snapshot.events.count) scan events, \(LinkTable.format(seconds(since: start), 2)) s")
        } catch { reportAndExit(error) }
    }
}
