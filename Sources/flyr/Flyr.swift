import ArgumentParser

@main
struct Flyr: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flyr",
        abstract: "Turn Overture Maps extracts into door-to-door campaigns.",
        subcommands: [LinkCommand.self, OrientCommand.self, QueryCommand.self, SelectCommand.self, ProvisionCommand.self,
                      MarkCommand.self, ScansCommand.self, StatsCommand.self, FeaturesCommand.self, ExportCommand.self,
                      RenderCommand.self, PushCommand.self, PullCommand.self])
}
