import ArgumentParser
import Campaign
import Geo

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "A campaign's progress.",
        discussion: """
        Targets are buildings with at least one address. visited: targets with status visited \
        or hot, or scanned. scanned: targets with a scan. scan_rate = scanned / targets. \
        progress_pct = 100 × visited / targets. When the campaign has turfs (flyr turf), one \
        line per turf follows: its doors, doors visited, doors scanned and the walk in metres.
        """)

    @OptionGroup var file: CampaignFile
    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() throws {
        do {
            let store = try file.open(readOnly: true)
            let s = try store.stats()
            let turfs = try store.turfSummaries()
            try store.close()
            if json {
                let turfJSON: [String] = turfs.map { t in
                    "{\"turf_id\":\(t.turfID),\"doors\":\(t.doors),\"block_faces\":\(t.blockFaces),\"visited\":\(t.visited),"
                        + "\"scanned\":\(t.scanned),\"route_m\":\(LinkTable.format(t.routeMetres, 1))}"
                }
                print("{\"campaign_id\":\(LinkTable.jsonString(store.campaignID)),\"addresses\":\(s.addresses),\"buildings\":\(s.buildings),"
                      + "\"target_buildings\":\(s.targetBuildings),\"visited\":\(s.visited),\"scanned\":\(s.scanned),"
                      + "\"addresses_visited\":\(s.addressesVisited),\"scan_rate\":\(LinkTable.format(s.scanRate, 4)),"
                      + "\"progress_pct\":\(LinkTable.format(s.progressPct, 2))"
                      + (turfs.isEmpty ? "" : ",\"turfs\":[" + turfJSON.joined(separator: ",") + "]") + "}")
            } else {
                print("""
                    campaign \(store.campaignID)
                      addresses \(s.addresses) (visited \(s.addressesVisited)), buildings \(s.buildings) (targets \(s.targetBuildings))
                      visited \(s.visited), scanned \(s.scanned), scan_rate \(LinkTable.format(s.scanRate, 4)), progress \(LinkTable.format(s.progressPct, 2)) %
                    """)
                for t in turfs {
                    print("  turf \(t.turfID): doors \(t.doors), visited \(t.visited), scanned \(t.scanned), walk \(LinkTable.format(t.routeMetres, 0)) m")
                }
            }
        } catch { reportAndExit(error) }
    }
}
