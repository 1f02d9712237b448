import ArgumentParser
import Campaign
import Render

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "One CSV row per address, in walking order, for mail merge and printing.",
        discussion: """
        --csv writes the campaign's columns; --vdp writes the print shop's manifest (sequence, address \
        lines, city, region, postcode, country, slug, QR URL, QR file name as flyr qr names it), values \
        that a spreadsheet would run as a formula (starting with =, +, -, @) prefixed with an apostrophe.
        """)

    @OptionGroup var file: CampaignFile
    @Option(name: .long, help: ArgumentHelp("The CSV to write ('-' for stdout).", valueName: "file.csv"))
    var csv: String?
    @Option(name: .long, help: ArgumentHelp("The VDP manifest to write ('-' for stdout).", valueName: "manifest.csv"))
    var vdp: String?
    @Option(name: .long, help: ArgumentHelp("With --vdp: the QR images' format, for their file names (png, svg, pdf).", valueName: "format"))
    var qrFormat: QRImageFormat = .png
    @Flag(name: .long, help: "Replace the output file if it exists.")
    var force = false

    func validate() throws {
        guard (csv == nil) != (vdp == nil) else { throw ValidationError("give --csv FILE or --vdp manifest.csv (one of them)") }
    }

    func run() throws {
        do {
            let output = csv ?? vdp!
            try checkOutput(output, force: force)
            let store = try file.open(readOnly: true)
            let text = csv != nil ? try store.exportCSV() : try vdpManifest(store)
            try store.close()
            try writeOutput(text, to: output)
        } catch { reportAndExit(error) }
    }

    private func vdpManifest(_ store: CampaignStore) throws -> String {
        _ = try store.checkedPrintCount()
        let base = try store.qrBaseURL()
        var out = VDPManifest.header + "\n"
        try store.forEachPrintAddress { a in
            out += VDPManifest.row(a, url: QRLink.url(base: base, slug: a.slug!), file: "\(a.slug!).\(qrFormat.rawValue)")
        }
        return out
    }
}
