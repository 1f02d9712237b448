import ArgumentParser
import Foundation
import Geo

struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Read and check extracts without linking: counts, duplicates, warnings, speed.",
        discussion: "Exits as flyr link does on bad input (65, 66), so it validates a download before a long run.")

    @OptionGroup var input: InputOptions
    @Flag(name: .long, help: "Print the summary as JSON on stdout.")
    var json = false

    func validate() throws {
        if input.buildings.isEmpty && input.addresses.isEmpty && input.segments.isEmpty {
            throw ValidationError("give at least one of --buildings, --addresses, --segments FILE")
        }
    }

    func run() throws {
        do {
            let start = ContinuousClock.now
            let loaded = try LoadedInputs.load(input)
            let secs = seconds(since: start)
            let bytes = loaded.buildings.bytesRead + loaded.addresses.bytesRead + loaded.segments.bytesRead
            let mbps = secs > 0 ? Double(bytes) / secs / 1e6 : 0
            let dups = loaded.buildings.duplicatesSkipped + loaded.addresses.duplicatesSkipped + loaded.segments.duplicatesSkipped
            if json {
                print("{\"buildings\":\(loaded.buildings.features.count),\"addresses\":\(loaded.addresses.features.count),"
                      + "\"segments\":\(loaded.segments.features.count),\"duplicates_skipped\":\(dups),\"bytes\":\(bytes),"
                      + "\"seconds\":\(LinkTable.format(secs, 3)),\"mb_per_s\":\(LinkTable.format(mbps, 1))}")
            } else {
                Log.info("flyr read: \(loaded.buildings.features.count) buildings, \(loaded.addresses.features.count) addresses, "
                         + "\(loaded.segments.features.count) segments, \(dups) duplicates skipped; "
                         + "\(bytes) bytes in \(LinkTable.format(secs, 2)) s (\(LinkTable.format(mbps, 1)) MB/s)")
            }
        } catch { reportAndExit(error) }
    }
}
