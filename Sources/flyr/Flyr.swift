import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

@main
struct Flyr: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flyr",
        abstract: "Turn Overture Maps extracts into door-to-door campaigns.",
        subcommands: [ReadCommand.self, LinkCommand.self, OrientCommand.self, QueryCommand.self, SelectCommand.self, ProvisionCommand.self,
                      MarkCommand.self, ScansCommand.self, StatsCommand.self, FeaturesCommand.self, ExportCommand.self,
                      RenderCommand.self, QRCommand.self, QRBaseURLCommand.self, PrintCommand.self, TurfCommand.self, PushCommand.self, PullCommand.self, MatchCommand.self])

    /// A file size limit (`ulimit -f`) must make a write fail with EFBIG, which flyr reports,
    /// not kill the process with SIGXFSZ half way through a file.
    static func main() {
        signal(SIGXFSZ, SIG_IGN)
        main(nil)
    }
}
