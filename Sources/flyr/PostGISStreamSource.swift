import Campaign
import Foundation
import Geo
import Render

/// A campaign in the product's PostGIS database drawn per view: its name and roads loaded, its
/// buildings streamed through a server-side cursor by each drawing thread as it draws.
struct PostGISStreamSource: StreamingMapSource {
    var url: String
    var campaignID: String
    /// Rows per fetch.
    var batchSize = 2048
    /// The house numbers the readers of this source have read.
    let book = HouseNumberBook()

    func loadOverlay() throws -> MapData {
        let id = campaignID
        let overlay = try withPostGIS(url) { store in
            let o = try await store.mapOverlay(campaign: id)
            return (o.name, o.roads.map { Road(line: $0.line, roadClass: $0.roadClass, name: $0.name) })
        }
        return MapData(roads: overlay.1.map { MapRoad(line: $0.line, roadClass: $0.roadClass, name: $0.name) },
                       title: overlay.0.isEmpty ? nil : overlay.0)
    }

    func buildingExtent() throws -> BBox {
        let id = campaignID
        return try withPostGIS(url) { store in try await store.buildingExtent(campaign: id) }
    }

    func openReader() throws -> BuildingReader {
        PostGISBuildingReader(url: try PostGISURL(parsing: url), campaign: campaignID, batchSize: batchSize, book: book)
    }

    private struct Road: Sendable { var line: [Coord]; var roadClass: String?; var name: String? }
}

/// House numbers of streamed buildings by key, shared by a source's readers (the one that
/// reads and the one asked for labels): one short string per numbered building read.
final class HouseNumberBook: @unchecked Sendable {
    private let lock = NSLock()
    private var numbers: [String] = []

    /// A key for a building with house number `number`; -1 for one without.
    func key(for number: String?) -> Int64 {
        guard let number else { return -1 }
        lock.lock(); defer { lock.unlock() }
        numbers.append(number)
        return Int64(numbers.count - 1)
    }

    func numbers(keys: [Int64]) -> [Int64: String] {
        lock.lock(); defer { lock.unlock() }
        var out: [Int64: String] = [:]
        for k in keys where k >= 0 && k < numbers.count { out[k] = numbers[Int(k)] }
        return out
    }
}

/// Streams a campaign's buildings from PostGIS for one thread, over a connection of its own
/// (opened at the first read): the cursor's rows, a fetch at a time, as the renderer's
/// batches. The server sorts them in draw order, so `sortFirst` changes nothing.
private final class PostGISBuildingReader: BuildingReader {
    private let url: PostGISURL
    private let campaign: String
    private let batchSize: Int
    private let book: HouseNumberBook
    private var store: PostGISStore?
    private var rows = CampaignMapReader.Batch()
    private var batch = BuildingBatch()
    private var numbers: [String?] = []
    private(set) var buildingsRead = 0

    init(url: PostGISURL, campaign: String, batchSize: Int, book: HouseNumberBook) {
        self.url = url; self.campaign = campaign; self.batchSize = batchSize; self.book = book
    }

    /// The rows whose geometry's box meets `area`, in id order; a lost connection is
    /// `PostGISError.unavailable` naming the campaign and the last building read, a row that
    /// cannot be read `PostGISError.badData`. The transaction is rolled back after a failure.
    func read(area: BBox, sortFirst: Bool, _ body: (inout BuildingBatch) throws -> Void) throws {
        guard !area.isEmpty else { return }
        if store == nil {
            let url = self.url
            store = try waitFor { try await PostGISStore.connect(url) }
        }
        let cursor = PostGISBuildingCursor(store: store!, campaign: campaign)
        let count = batchSize
        do {
            try waitFor { try await cursor.open(area: area) }
            var last: String?
            while true {
                let after = last
                let fetched = try waitFor { try await cursor.fetch(count, after: after) }
                buildingsRead += fetched.count
                rows.clear()
                numbers.removeAll(keepingCapacity: true)
                last = try rows.append(postGISRows: fetched, campaign: campaign, labels: &numbers) ?? last
                for i in rows.rows.indices { rows.rows[i].fid = book.key(for: numbers[i]) }
                if !rows.rows.isEmpty { try hand(&rows, as: &batch, to: body) }
                if fetched.count < count { break }
            }
            try waitFor { try await cursor.close() }
        } catch {
            _ = try? waitFor { await cursor.abandon() }
            throw error
        }
    }

    func labels(keys: [Int64]) throws -> [Int64: String] { book.numbers(keys: keys) }

    func close() throws {
        guard let store else { return }
        self.store = nil
        try waitFor { try await store.close() }
    }
}
