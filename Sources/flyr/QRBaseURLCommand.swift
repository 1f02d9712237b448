import ArgumentParser
import Campaign

struct QRBaseURLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qr-base-url",
        abstract: "Print the campaign's QR base URL, or set it (codes hold BASE/q/SLUG).")

    @OptionGroup var file: CampaignFile
    @Argument(help: ArgumentHelp("The new base, e.g. https://flyrpro.app (http or https, no query).", valueName: "url"))
    var url: String?

    func validate() throws {
        if let url { do { _ = try QRLink.checkedBase(url) } catch { throw ValidationError(error.description) } }
    }

    func run() throws {
        do {
            let store = try file.open(readOnly: url == nil)
            if let url { try store.setQRBaseURL(url) }
            print(try store.qrBaseURL())
            try store.close()
        } catch { reportAndExit(error) }
    }
}
