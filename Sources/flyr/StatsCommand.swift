import ArgumentParser
import Campaign
import Geo

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "A campaign's progress.",
        discussion: """
        Targets are buildings with at least one address. visited: targets with status visited \
        or hot, or scanned. scanned: targets with a scan. scan_rate = scanned / targets. \
        progress_pct = 100 × visited / targets.
        """)

    @OptionGroup var file: CampaignFile
    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() throws {
        do {
            let store = try file.open(readOnly: true)
            let s = try store.stats()
            try store.close()
            if json {
                print("{\"campaign_id\":\(LinkTable.jsonString(store.campaignID)),\"addresses\":\(s.addresses),\"buildings\":\(s.buildings),"
                      + "\"target_buildings\":\(s.targetBuildings),\"visited\":\(s.visited),\"scanned\":\(s.scanned),"
                      + "\"addresses_visited\":\(s.addressesVisited),\"scan_rate\":\(LinkTable.format(s.scanRate, 4)),"
                      + "\"progress_pct\":\(LinkTable.format(s.progressPct, 2))}")
            } else {
                print("""
                    campaign \(store.campaignID)
                      addresses \(s.addresses) (visited \(s.addressesVisited)), buildings \(s.buildings) (targets \(s.targetBuildings))
                      visited \(s.visited), scanned \(s.scanned), scan_rate \(LinkTable.format(s.scanRate, 4)), progress \(LinkTable.format(s.progressPct, 2)) %
                    """)
            }
        } catch { reportAndExit(error) }
    }
}
