import ArgumentParser
import Campaign
import Foundation
import Geo

struct TurfCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "turf", abstract: "Cut the campaign's addresses into walkable turfs of about N doors.",
        discussion: """
        Block faces (one side of a road between junctions) are never split, and both sides of a \
        residential street stay together unless no turf within ±25 % can hold them. Each turf \
        grows from its westmost block face along the road network, first to faces that keep its \
        hull clear of other doors, and stops nearest N doors without passing 1.25 × N; turfs \
        under 0.75 × N join a neighbour or take what it can spare, and one still outside the \
        band is cut afresh with its neighbours (the sides of a quiet street parted only when \
        nothing else fits). Each address gets turf_id and turf_seq (its place in the walk); the \
        turfs layer holds the outlines (15 m round the walk, never overlapping). Cutting again \
        replaces both and keeps field data. Prints one row per turf: turf, doors, block faces, \
        the walk in metres and the same doors in id order in metres; the summary on stderr \
        counts the doors inside another turf's outline and inside its convex hull.
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
                walk shorter than id order: \(LinkTable.format(100 * r.shareShorterThanIDOrder, 1)) %; \
                doors inside another turf's outline: \(r.doorsInOtherOutlines) (\(percent(r.doorsInOtherOutlines, of: r.doorsInTurfs)) %), \
                inside another turf's convex hull + 15 m: \(r.doorsInOtherHulls) (\(percent(r.doorsInOtherHulls, of: r.doorsInTurfs)) %)\n
                """.utf8))
        } catch { reportAndExit(error) }
    }

    private func percent(_ n: Int, of total: Int) -> String { LinkTable.format(100 * Double(n) / Double(max(total, 1)), 1) }
}
