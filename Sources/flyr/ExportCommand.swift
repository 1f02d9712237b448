import ArgumentParser
import Campaign

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "One CSV row per address, in walking order, for mail merge and printing.")

    @OptionGroup var file: CampaignFile
    @Option(name: .long, help: ArgumentHelp("The CSV to write ('-' for stdout).", valueName: "file.csv"))
    var csv: String
    @Flag(name: .long, help: "Replace the output file if it exists.")
    var force = false

    func run() throws {
        do {
            try checkOutput(csv, force: force)
            let store = try file.open(readOnly: true)
            let text = try store.exportCSV()
            try store.close()
            try writeOutput(text, to: csv)
        } catch { reportAndExit(error) }
    }
}
