import Geo

/// A row of a recipient list matched to a campaign address: its line in the list and its
/// columns as (name, value) in the list's order, carried to the exports.
public struct CampaignRecipient: Sendable, Equatable {
    public var addressID: String
    public var line: Int
    public var fields: [Field]
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) { self.name = name; self.value = value }
    }

    public init(addressID: String, line: Int, fields: [Field]) {
        self.addressID = addressID; self.line = line; self.fields = fields
    }

    /// The fields as a JSON array of [name, value] pairs.
    var fieldsJSON: String {
        "[" + fields.map { "[\(LinkTable.jsonString($0.name)),\(LinkTable.jsonString($0.value))]" }.joined(separator: ",") + "]"
    }
}
