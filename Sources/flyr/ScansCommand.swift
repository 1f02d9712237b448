import ArgumentParser
import Campaign
import Foundation

struct ScansCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scans", abstract: "QR scan events.", subcommands: [Ingest.self])

    struct Ingest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ingest",
            abstract: "Ingest scan events (JSON Lines or CSV) into a campaign, once each.",
            discussion: """
            Each event has event_id, one of gers_id, address_id or qr_slug, scanned_at (ISO 8601) \
            and optionally user_agent. Prints one JSON result per event on stdout (success, \
            duplicate, skipped_bot or failed with its errors) and a summary on stderr. Exit 0 even \
            when some events failed: their results say why; the good ones are kept.
            """)

        @Argument(help: ArgumentHelp("The campaign GeoPackage, then the events file ('-' for stdin); with --postgres only the events file.",
                                     valueName: "campaign.gpkg events"))
        var paths: [String] = []
        @OptionGroup var db: PostgresOptions

        func validate() throws {
            if db.postgres != nil {
                guard paths.count == 1 else { throw ValidationError("with --postgres give only the events file, e.g. flyr scans ingest --postgres URL --campaign ID scans.jsonl") }
            } else {
                guard paths.count == 2 else { throw ValidationError("give the campaign and the events file, e.g. flyr scans ingest hollis.gpkg scans.jsonl") }
            }
        }

        var events: String { paths.last ?? "-" }

        func run() throws {
            do {
                let data: Data
                if events == "-" { data = FileHandle.standardInput.readDataToEndOfFile() } else {
                    guard let d = FileManager.default.contents(atPath: events) else {
                        throw CLIError(message: "\(events): no such file or not readable", code: Exit.noInput)
                    }
                    data = d
                }
                guard let text = String(data: data, encoding: .utf8) else {
                    let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
                    let bad = lines.firstIndex { String(data: Data($0), encoding: .utf8) == nil } ?? 0
                    throw CLIError(message: "\(events):\(bad + 1): invalid encoding: the line is not UTF-8 text", code: Exit.dataError)
                }
                let items = ScanParser.parse(text)
                let results: [ScanResult]
                if let url = db.postgres, let id = db.campaign {
                    results = try withPostGIS(url) { store in try await store.ingest(campaign: id, items) }
                } else {
                    let store = try CampaignStore(path: paths[0])
                    results = try store.ingest(items)
                    try store.close()
                }
                var out = ""
                for r in results { out += r.json + "\n" }
                FileHandle.standardOutput.write(Data(out.utf8))
                var counts: [ScanResult.Outcome: Int] = [:]
                for r in results { counts[r.outcome, default: 0] += 1 }
                Log.info("scans: \(results.count) events: success \(counts[.success] ?? 0), duplicate \(counts[.duplicate] ?? 0), "
                         + "skipped_bot \(counts[.skippedBot] ?? 0), failed \(counts[.failed] ?? 0)")
            } catch { reportAndExit(error) }
        }
    }
}
