import ArgumentParser
import Campaign

struct FeaturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "features",
        abstract: "The web map's features: one GeoJSON feature per building with its status.")

    @OptionGroup var file: CampaignFile
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Output file; stdout when absent.", valueName: "file.geojson"))
    var output: String?
    @Flag(name: .long, help: "Replace the output file if it exists.")
    var force = false

    func run() throws {
        do {
            try checkOutput(output, force: force)
            let store = try file.open(readOnly: true)
            let text = try store.featuresGeoJSON()
            try store.close()
            try writeOutput(text, to: output)
        } catch { reportAndExit(error) }
    }
}
