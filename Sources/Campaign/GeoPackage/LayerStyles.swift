/// QGIS styles (QML) stored in `layer_styles`, so QGIS shows the product's status colours when
/// the file is opened: buildings by status with the product's priority, QR-scanned (yellow)
/// over hot (blue) over visited (green) over untouched (red); orphans grey.
enum LayerStyles {
    static let scanned = "250,204,21,255", hot = "59,130,246,255", visited = "34,197,94,255"
    static let untouched = "239,68,68,255", orphan = "156,163,175,255"

    /// The expression QGIS evaluates per building; the same priority as the renderer.
    static let buildingStatusExpression = """
        CASE WHEN "feature_status" = 'orphan_building' THEN 'orphan' \
        WHEN coalesce(attribute(get_feature('building_stats', 'gers_id', "gers_id"), 'scans_total'), 0) > 0 THEN 'scanned' \
        WHEN attribute(get_feature('building_stats', 'gers_id', "gers_id"), 'status') = 'hot' THEN 'hot' \
        WHEN attribute(get_feature('building_stats', 'gers_id', "gers_id"), 'status') = 'visited' THEN 'visited' \
        ELSE 'untouched' END
        """

    static var all: [(String, String)] {
        [("buildings", buildings), ("campaign_addresses", addresses), ("segments", segments)]
    }

    static func fill(_ name: String, _ color: String) -> String {
        """
        <symbol type="fill" name="\(name)" alpha="1" clip_to_extent="1" force_rhr="0"><layer class="SimpleFill" enabled="1" locked="0" pass="0">\
        <Option type="Map"><Option type="QString" name="color" value="\(color)"/><Option type="QString" name="outline_color" value="55,65,81,255"/>\
        <Option type="QString" name="outline_width" value="0.2"/><Option type="QString" name="style" value="solid"/></Option></layer></symbol>
        """
    }

    static func category(_ value: String, _ symbol: String, _ label: String) -> String {
        "<category render=\"true\" value=\"\(value)\" symbol=\"\(symbol)\" label=\"\(label)\"/>"
    }

    static var buildings: String {
        let expr = buildingStatusExpression.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        return """
        <!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>
        <qgis version="3.28" styleCategories="Symbology">
        <renderer-v2 type="categorizedSymbol" attr="\(expr)" symbollevels="0" enableorderby="0" forceraster="0">
        <categories>\(category("scanned", "0", "QR scanned"))\(category("hot", "1", "Hot"))\(category("visited", "2", "Visited"))\(category("untouched", "3", "Not visited"))\(category("orphan", "4", "No address"))</categories>
        <symbols>\(fill("0", scanned))\(fill("1", hot))\(fill("2", visited))\(fill("3", untouched))\(fill("4", orphan))</symbols>
        </renderer-v2>
        </qgis>
        """
    }

    static let addresses = """
        <!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>
        <qgis version="3.28" styleCategories="Symbology">
        <renderer-v2 type="singleSymbol" symbollevels="0" enableorderby="0" forceraster="0"><symbols>
        <symbol type="marker" name="0" alpha="1" clip_to_extent="1" force_rhr="0"><layer class="SimpleMarker" enabled="1" locked="0" pass="0">
        <Option type="Map"><Option type="QString" name="color" value="17,24,39,255"/><Option type="QString" name="name" value="circle"/>
        <Option type="QString" name="size" value="1.6"/></Option></layer></symbol></symbols></renderer-v2>
        </qgis>
        """

    static let segments = """
        <!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>
        <qgis version="3.28" styleCategories="Symbology">
        <renderer-v2 type="singleSymbol" symbollevels="0" enableorderby="0" forceraster="0"><symbols>
        <symbol type="line" name="0" alpha="1" clip_to_extent="1" force_rhr="0"><layer class="SimpleLine" enabled="1" locked="0" pass="0">
        <Option type="Map"><Option type="QString" name="line_color" value="156,163,175,255"/><Option type="QString" name="line_width" value="0.8"/>
        </Option></layer></symbol></symbols></renderer-v2>
        </qgis>
        """
}
