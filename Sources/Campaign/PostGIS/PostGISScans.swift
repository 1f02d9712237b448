import Foundation
import PostgresNIO

extension PostGISStore {
    /// Ingests events into a campaign in the database with the GeoPackage store's rules: each
    /// event counted at most once (event_id is the primary key, INSERT … ON CONFLICT DO
    /// NOTHING) however many processes send it; crawlers skipped; a malformed event or unknown
    /// target fails alone. Each event is one statement (the insert, the counter updates and,
    /// for an address with a QR slug, its `qr_code_scans` row, in one CTE), so it commits
    /// whole; counters change in SQL (`scans_total = scans_total + 1`), never read then
    /// written. A deadlock or serialization failure is retried.
    public func ingest(campaign id: String, _ items: [(line: Int, event: Result<ScanEvent, ScanParseError>)]) async throws -> [ScanResult] {
        try await requireCurrentSchema()
        try await requireCampaign(id)
        var results: [ScanResult] = []
        results.reserveCapacity(items.count)
        for item in items {
            var attempt = 0
            while true {
                do {
                    results.append(try await ingestOne(campaign: id, item.line, item.event))
                    break
                } catch PostGISError.conflict(let why) {
                    attempt += 1
                    if attempt > 10 { throw PostGISError.server(why) }
                    try await Task.sleep(nanoseconds: UInt64(10_000_000 * attempt))
                }
            }
        }
        return results
    }

    private func ingestOne(campaign id: String, _ line: Int, _ parsed: Result<ScanEvent, ScanParseError>) async throws -> ScanResult {
        let e: ScanEvent
        switch parsed {
        case .failure(let err): return ScanResult(line: line, eventID: err.eventID, outcome: .failed, errors: err.errors)
        case .success(let ev): e = ev
        }
        func fail(_ msg: String) -> ScanResult { ScanResult(line: line, eventID: e.eventID, outcome: .failed, errors: [msg]) }
        if BotUserAgents.isBot(e.userAgent) { return ScanResult(line: line, eventID: e.eventID, outcome: .skippedBot, errors: []) }
        var building: String? = nil, address: String? = e.addressID
        if let g = e.gersID {
            let r = try await db.rows("SELECT gers_id FROM buildings WHERE campaign_id = \(id) AND gers_id = \(g)", "finding the building")
            guard let row = r.first else { return fail("unknown building gers_id '\(g)'") }
            building = try row.decode(String.self)
        } else if let a = e.addressID {
            let r = try await db.rows("SELECT building_gers_id FROM campaign_addresses WHERE campaign_id = \(id) AND gers_id = \(a)", "finding the address")
            guard let row = r.first else { return fail("unknown address_id '\(a)'") }
            building = try row.decode(String?.self)
            if building == nil { return fail("address '\(a)' is linked to no building") }
        } else if let q = e.qrSlug {
            let r = try await db.rows("SELECT gers_id, building_gers_id FROM campaign_addresses WHERE campaign_id = \(id) AND qr_slug = \(q)",
                                      "finding the QR slug")
            guard let row = r.first else { return fail("unknown qr_slug '\(q)'") }
            (address, building) = try row.decode((String?, String?).self)
            if building == nil { return fail("qr_slug '\(q)' names an address linked to no building") }
        }
        guard let building else { return fail("no target") }
        let day = String(e.scannedAt.prefix(10))
        let rows = try await db.rows("""
            WITH ins AS (
              INSERT INTO scan_events (event_id, campaign_id, gers_id, address_id, qr_slug, scanned_at, user_agent)
              VALUES (\(e.eventID), \(id), \(building), \(address), \(e.qrSlug), \(e.scannedAt)::timestamptz, \(e.userAgent))
              ON CONFLICT (event_id) DO NOTHING
              RETURNING event_id),
            stats AS (
              UPDATE building_stats SET
                scans_total = scans_total + 1,
                scans_today = CASE WHEN scans_day IS NULL OR \(day)::date > scans_day THEN 1
                                   WHEN \(day)::date = scans_day THEN scans_today + 1 ELSE scans_today END,
                scans_day = greatest(scans_day, \(day)::date),
                last_scan_at = greatest(last_scan_at, \(e.scannedAt)::timestamptz),
                status = CASE WHEN status = 'not_visited' THEN 'visited' ELSE status END
              FROM ins WHERE campaign_id = \(id) AND gers_id = \(building)
              RETURNING 1),
            addr AS (
              UPDATE campaign_addresses SET visited = true, scans = scans + 1,
                last_scanned_at = greatest(last_scanned_at, \(e.scannedAt)::timestamptz)
              FROM ins WHERE campaign_id = \(id) AND gers_id = \(address)
              RETURNING qr_slug),
            qr AS (
              INSERT INTO qr_code_scans (event_id, campaign_id, slug, address_id, gers_id, scanned_at, user_agent)
              SELECT ins.event_id, \(id), addr.qr_slug, \(address), \(building), \(e.scannedAt)::timestamptz, \(e.userAgent)
              FROM ins, addr WHERE addr.qr_slug IS NOT NULL
              ON CONFLICT (event_id) DO NOTHING
              RETURNING 1)
            SELECT (SELECT count(*) FROM ins), (SELECT count(*) FROM stats), (SELECT count(*) FROM addr), (SELECT count(*) FROM qr)
            """, "recording scan \(e.eventID)")
        let (inserted, _, _, _) = try rows[0].decode((Int, Int, Int, Int).self)
        return ScanResult(line: line, eventID: e.eventID, outcome: inserted == 1 ? .success : .duplicate, errors: [])
    }
}
