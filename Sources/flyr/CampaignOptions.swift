import ArgumentParser
import Campaign
import Foundation

/// The campaign GeoPackage a command works on.
struct CampaignFile: ParsableArguments {
    @Argument(help: ArgumentHelp("The campaign GeoPackage (from flyr provision).", valueName: "campaign.gpkg"))
    var campaign: String

    func open(readOnly: Bool = false) throws -> CampaignStore { try CampaignStore(path: campaign, readOnly: readOnly) }
}
