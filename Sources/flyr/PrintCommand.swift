import ArgumentParser
import Campaign
import Foundation
import Geo
import Render

struct PrintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print-ready PDF at true size: address labels with QR codes, one flyer per address, or walk lists.",
        discussion: """
        --labels avery-5160 (30 a US-letter sheet) or avery-l7160 (21 an A4 sheet); --flyers TEMPLATE.json \
        (page size and where the QR code, the address block, a headline and a small map of the house go; \
        see docs/print.md); --walk-list (per turf of flyr turf, a US-letter page with its map and its doors \
        in walking order, each with a tick box and a notes line; see docs/maps.md). Addresses in walking \
        order; codes hold BASE/q/SLUG. Nothing is written on error.
        """)

    @OptionGroup var file: CampaignFile
    @Option(name: .long, help: ArgumentHelp("Label sheet: \(LabelSheet.all.map(\.name).joined(separator: " or ")).", valueName: "sheet"))
    var labels: String?
    @Option(name: .long, help: ArgumentHelp("Flyer template JSON: one page per address.", valueName: "template.json"))
    var flyers: String?
    @Flag(name: .long, help: "Walk lists: per turf its map and ordered doors (cut turfs first with flyr turf).")
    var walkList = false
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The PDF to write.", valueName: "file.pdf"))
    var output: String
    @OptionGroup var qr: QROptions
    @Flag(name: .long, help: "Replace the output file if it exists.")
    var force = false

    func validate() throws {
        guard [labels != nil, flyers != nil, walkList].filter({ $0 }).count == 1 else {
            throw ValidationError("give --labels avery-5160 (or avery-l7160), --flyers template.json or --walk-list (one of them)")
        }
        if let labels, LabelSheet.named(labels) == nil {
            throw ValidationError("unknown label sheet \"\(labels)\": use \(LabelSheet.all.map(\.name).joined(separator: " or "))")
        }
        guard output.lowercased().hasSuffix(".pdf") else { throw ValidationError("-o takes a .pdf file, e.g. -o labels.pdf") }
    }

    func run() throws {
        do { try walkList ? executeWalkList() : execute() } catch { reportAndExit(error) }
    }

    private func executeWalkList() throws {
        let start = ContinuousClock.now
        let store = try file.open(readOnly: true)
        let total = try store.turfDoorCount()
        guard total > 0 else {
            throw CLIError(message: "\(file.campaign): no turfs; cut them first, e.g. flyr turf \(file.campaign) --doors 60", code: Exit.dataError)
        }
        let routes = Dictionary(uniqueKeysWithValues: try store.turfSummaries().map { ($0.turfID, $0.routeMetres) })
        let staged = try StagedOutput(output, isDirectory: false, force: force)
        do {
            let p = try WalkListPrinter(path: staged.staging, title: URL(fileURLWithPath: file.campaign).deletingPathExtension().lastPathComponent)
            try store.forEachTurf { turf, stops, roads in
                p.add(turf: turf, routeMetres: routes[turf] ?? 0, rows: stops.map {
                    WalkRow(number: $0.number, street: $0.street, unit: $0.unit, location: $0.location, footprint: $0.footprint)
                }, roads: roads.map { MapRoad(line: $0.line, roadClass: $0.roadClass, name: $0.name) })
            }
            try store.close()
            try p.finish()
            try staged.commit()
            Log.info("flyr print: walk lists of \(routes.count) turfs, \(total) doors, \(p.pageCount) pages in \(staged.target), \(LinkTable.format(seconds(since: start), 2)) s")
        } catch {
            staged.discard()
            throw error
        }
    }

    private func execute() throws {
        let start = ContinuousClock.now
        let template = try flyers.map { path in
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw CLIError(message: "\(path): no such template file", code: Exit.noInput)
            }
            return try FlyerTemplate.load(path)
        }
        let store = try file.open(readOnly: true)
        let total = try store.checkedPrintCount()
        let base = try store.qrBaseURL()
        let staged = try StagedOutput(output, isDirectory: false, force: force)
        let title = URL(fileURLWithPath: file.campaign).deletingPathExtension().lastPathComponent
        do {
            let add: (PrintItem) throws -> Void, finish: () throws -> Void
            if let template {
                let p = try FlyerPrinter(path: staged.staging, template: template, style: qr.style(), title: title)
                (add, finish) = (p.add, p.finish)
            } else {
                let p = try LabelPrinter(path: staged.staging, sheet: LabelSheet.named(labels!)!, style: qr.style(), title: title)
                (add, finish) = (p.add, p.finish)
            }
            var progress = Progress(total: total, what: template == nil ? "labels" : "flyers")
            try store.forEachPrintAddress(footprints: template?.map != nil) { a in
                try add(PrintItem(lines: a.lines, url: QRLink.url(base: base, slug: a.slug!), footprint: a.footprint, location: a.location))
                progress.advance(1)
            }
            try store.close()
            try finish()
            try staged.commit()
        } catch {
            staged.discard()
            throw error
        }
        let what = template == nil ? "labels (\(labels!))" : "flyers"
        Log.info("flyr print: \(total) \(what) in \(staged.target), \(LinkTable.format(seconds(since: start), 2)) s")
    }
}
