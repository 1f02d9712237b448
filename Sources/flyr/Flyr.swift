import ArgumentParser

@main
struct Flyr: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flyr",
        abstract: "Turn Overture Maps extracts into door-to-door campaigns.",
        subcommands: [LinkCommand.self, RenderCommand.self])
}
