import ArgumentParser
import Foundation
import Geo

/// A recipient list and how to read it, shared by `match` and `provision`.
struct RecipientOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Recipient list: CSV with a header (address, or number and street; unit, city, postcode, lat, lon, name; other columns kept).", valueName: "list.csv"))
    var recipients: String?
    @Option(name: .long, help: ArgumentHelp("Which column holds which field, where the header's names are not recognised: FIELD=COLUMN pairs (address, number, street, unit, city, postcode, lat, lon, name).", valueName: "address=Addr,number=No,…"))
    var columns: String?
    @Option(name: .long, help: ArgumentHelp("Write the rows not matched with confidence here: the row, the reason, up to three candidates with scores.", valueName: "review.csv"))
    var review: String?

    func validate() throws {
        if let columns {
            do { _ = try RecipientColumns.overrides(columns) } catch { throw ValidationError(error.description) }
        }
        if recipients == nil, columns != nil || review != nil { throw ValidationError("--columns and --review go with --recipients list.csv") }
    }

    /// Reads the list and matches it against `addresses` (a street also by the other names its
    /// `segments` carry); writes the review file and logs the counts.
    func match(_ addresses: [Address], segments: [Segment], force: Bool, command: String) throws -> RecipientMatches? {
        guard let recipients else { return nil }
        try checkOutput(review, force: force)
        let table = try CSVTable.load(recipients)
        let columns: RecipientColumns
        do {
            columns = try RecipientColumns(header: table.header, overrides: try self.columns.map(RecipientColumns.overrides) ?? [:])
        } catch {
            throw CLIError(message: "\(recipients): \(error.description)", code: Exit.dataError)
        }
        let matches = RecipientMatches(table: table, columns: columns, book: AddressBook(addresses, segments: segments))
        Log.info("\(command): \(table.rows.count) rows: \(matches.matchedCount) matched, \(matches.reviewCount) to review, "
                 + "\(matches.notFoundCount) not found; \(matches.sharedAddressCount) address(es) matched by more than one row")
        if let review { try writeOutput(matches.reviewCSV(), to: review) }
        return matches
    }
}

struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Match a recipient list (postal addresses as people write them) to the addresses of an extract.",
        discussion: """
        Writes the rows matched with confidence (CSV: line, address_id, how, score, the address \
        found, shared_with, then the row's own columns) to -o or stdout; rows that are ambiguous \
        or not found go to --review, never guessed. --json prints a summary with one result per \
        row instead of the matched rows on stdout.
        """)

    @OptionGroup var list: RecipientOptions
    @OptionGroup var input: AddressInputOptions
    @Option(name: .long, help: ArgumentHelp("Road segments extract; repeatable. A row may then name its street as the road's names.common or names.rules do (another language, an official or short name).", valueName: "file"))
    var segments: [String] = []
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The matched rows (CSV); '-' or absent for stdout (unless --json).", valueName: "matched.csv"))
    var output: String?
    @Flag(name: .long, help: "Print the summary as JSON on stdout.")
    var json = false
    @Flag(name: .long, help: "Replace output files that exist.")
    var force = false

    func validate() throws {
        if list.recipients == nil { throw ValidationError("missing --recipients list.csv") }
        if input.addresses.isEmpty { throw ValidationError("missing --addresses FILE") }
        try validateInputs(input.addresses + segments, bbox: input.bbox)
        if json, output == "-" { throw ValidationError("--json prints the summary on stdout; write the matched rows with -o matched.csv") }
    }

    func run() throws {
        do { try execute() } catch { reportAndExit(error) }
    }

    private func execute() throws {
        let start = ContinuousClock.now
        try checkOutput(output, force: force)
        let addresses = try loadAddresses(input.addresses, options: input.loadOptions).features
        let roads = try loadSegments(segments, options: input.loadOptions).features
        guard let matches = try list.match(addresses, segments: roads, force: force, command: "flyr match") else { return }
        if output != nil || !json { try writeOutput(matches.matchedCSV(), to: output) }
        if json { print(matches.json(seconds: seconds(since: start)), terminator: "") }
    }
}
