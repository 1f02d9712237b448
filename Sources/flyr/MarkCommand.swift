import ArgumentParser
import Campaign

struct MarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mark", abstract: "Set a building's field status.")

    @OptionGroup var file: CampaignFile
    @Option(name: .long, help: ArgumentHelp("The building's GERS id.", valueName: "gers_id"))
    var building: String
    @Option(name: .long, help: ArgumentHelp("hot, visited or not_visited.", valueName: "status"))
    var status: String

    func validate() throws {
        guard CampaignStore.statuses.contains(status) else {
            throw ValidationError("--status takes hot, visited or not_visited, e.g. --status visited")
        }
    }

    func run() throws {
        do {
            let store = try file.open()
            try store.mark(building: building, status: status)
            try store.close()
            Log.info("\(building): \(status)")
        } catch { reportAndExit(error) }
    }
}
