import ArgumentParser
import Campaign
import Foundation
import Geo

struct TurfCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "turf", abstract: "Cut the campaign's addresses into walkable turfs of about N doors.",
        discussion: """
        Block faces (one side of a road between junctions; both sides of a residential street) \
        are never split. Each turf grows from its westmost block face along the road network \
        and stops nearest N doors without passing 1.25 × N; turfs under 0.75 × N join a \
        neighbour when the sum stays within 1.25 × N. Each address gets turf_id and turf_seq \
        (its place in the walk); the turfs layer holds the outlines. Cutting again replaces \
        both and keeps field data. Prints one row per turf: turf, doors, block faces, the \
        walk in metres and the same doors in id order in metres.
        """)

    @OptionGroup var file: CampaignFile
    @Option(name: .long, help: "Doors per turf (the target).")
    var doors: Int

    func validate() throws {
        guard doors >= 1 else { throw ValidationError("--doors must be at least 1, e.g. --doors 60") }
    }

    func run() throws {
        do {
            let store = try file.open()
            let r = try store.cutTurfs(doors: doors)
            try store.close()
            print("turf,doors,block_faces,route_m,id_order_m")
            for t in r.turfs {
                print("\(t.id),\(t.doors.count),\(t.blockFaces),\(LinkTable.format(t.routeMetres, 1)),\(LinkTable.format(t.idOrderMetres, 1))")
            }
            FileHandle.standardError.write(Data("""
                \(r.turfs.count) turfs, \(r.doorsInTurfs) doors (\(r.doorsLeftOut) on no walkable road, left out); \
                within ±25 % of \(doors): \(LinkTable.format(100 * r.shareWithinBand, 1)) %; \
                walk shorter than id order: \(LinkTable.format(100 * r.shareShorterThanIDOrder, 1)) %\n
                """.utf8))
        } catch { reportAndExit(error) }
    }
}
