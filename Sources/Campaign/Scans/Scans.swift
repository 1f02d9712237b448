import Foundation
import GRDB
import Geo

/// A QR scan reported by the product: one of gers_id, address_id or qr_slug names the target.
public struct ScanEvent: Sendable, Equatable {
    public var eventID: String
    public var gersID: String?
    public var addressID: String?
    public var qrSlug: String?
    /// UTC, normalised to `yyyy-MM-ddTHH:mm:ss.SSSZ` so text order is time order.
    public var scannedAt: String
    public var userAgent: String?
}

/// What became of one event, as the mobile batch APIs report it.
public struct ScanResult: Sendable, Equatable {
    public enum Outcome: String, Sendable { case success, duplicate, skippedBot = "skipped_bot", failed }
    /// 1-based line of the event in its file.
    public var line: Int
    public var eventID: String?
    public var outcome: Outcome
    public var errors: [String]

    public var json: String {
        "{\"line\":\(line),\"event_id\":\(eventID.map(LinkTable.jsonString) ?? "null"),\"result\":\"\(outcome.rawValue)\""
            + ",\"errors\":[\(errors.map(LinkTable.jsonString).joined(separator: ","))]}"
    }
}

/// Crawlers and link-preview fetchers: their requests are not people scanning a code.
/// Matched case-insensitively as substrings of the user agent. QR-reader apps and ordinary
/// browsers (including in-app browsers) are not on the list.
public enum BotUserAgents {
    public static let tokens = [
        "googlebot", "google-inspectiontool", "adsbot-google", "mediapartners-google", "apis-google",
        "bingbot", "bingpreview", "msnbot", "slurp", "duckduckbot", "baiduspider", "yandexbot", "yandex.com/bots",
        "sogou", "exabot", "applebot", "petalbot", "ahrefsbot", "semrushbot", "mj12bot", "dotbot", "bytespider",
        "gptbot", "chatgpt-user", "claudebot", "ccbot", "perplexitybot", "amazonbot",
        "facebookexternalhit", "facebookcatalog", "facebot", "meta-externalagent", "twitterbot", "linkedinbot",
        "slackbot", "slack-imgproxy", "discordbot", "telegrambot", "whatsapp/", "skypeuripreview", "redditbot",
        "pinterestbot", "pinterest/", "embedly", "iframely", "vkshare", "tumblr", "snapchat/", "viber",
        "line-poker", "kakaotalk-scrap", "mastodon/", "bluesky cardyb", "outbrain", "quora link preview",
        "headlesschrome", "phantomjs", "uptimerobot", "pingdom", "statuscake",
    ]

    public static func isBot(_ userAgent: String?) -> Bool {
        guard let ua = userAgent?.lowercased(), !ua.isEmpty else { return false }
        return tokens.contains { ua.contains($0) }
    }
}

public enum ScanParser {
    /// Parses JSON Lines (each line an object) or CSV with a header, recognised by content.
    /// Each line gives an event or the reasons it is malformed.
    public static func parse(_ text: String) -> [(line: Int, event: Result<ScanEvent, ScanParseError>)] {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" })
        let firstContent = lines.first { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        if firstContent?.trimmingCharacters(in: .whitespaces).hasPrefix("{") ?? true {
            return lines.enumerated().compactMap { (i, l) in
                let t = l.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !t.isEmpty else { return nil }
                return (i + 1, jsonLine(t))
            }
        }
        guard let headerIndex = lines.firstIndex(where: { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) else { return [] }
        let header = CSV.fields(lines[headerIndex]).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var out: [(Int, Result<ScanEvent, ScanParseError>)] = []
        for i in (headerIndex + 1)..<lines.count {
            let l = lines[i]
            guard !l.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { continue }
            let f = CSV.fields(l)
            guard f.count == header.count else {
                out.append((i + 1, .failure(ScanParseError(eventID: nil, errors: ["expected \(header.count) fields, found \(f.count)"]))))
                continue
            }
            var fields: [String: String] = [:]
            for (k, v) in zip(header, f) where !v.isEmpty { fields[k] = v }
            out.append((i + 1, event(fields)))
        }
        return out
    }

    static func jsonLine(_ t: String) -> Result<ScanEvent, ScanParseError> {
        guard let obj = (try? JSONSerialization.jsonObject(with: Data(t.utf8))) as? [String: Any] else {
            return .failure(ScanParseError(eventID: nil, errors: ["not a JSON object"]))
        }
        var fields: [String: String] = [:]
        var errors: [String] = []
        for (k, v) in obj {
            switch v {
            case let s as String: fields[k] = s
            case is NSNull: continue
            case let n as NSNumber where k != "scanned_at": fields[k] = n.stringValue
            default: errors.append("\(k) must be a string")
            }
        }
        if !errors.isEmpty { return .failure(ScanParseError(eventID: fields["event_id"], errors: errors)) }
        return event(fields)
    }

    static func event(_ f: [String: String]) -> Result<ScanEvent, ScanParseError> {
        var errors: [String] = []
        let id = f["event_id"]?.trimmingCharacters(in: .whitespaces)
        if id?.isEmpty ?? true { errors.append("missing event_id") }
        let targets = ["gers_id", "address_id", "qr_slug", "qr"].filter { f[$0] != nil }
        if targets.isEmpty { errors.append("needs one of gers_id, address_id or qr_slug") }
        if targets.count > 1 { errors.append("give only one of gers_id, address_id or qr_slug (found \(targets.joined(separator: ", ")))") }
        var at: String? = nil
        if let s = f["scanned_at"] {
            at = Timestamp.normalize(s)
            if at == nil { errors.append("scanned_at '\(s)' is not an ISO 8601 time, e.g. 2026-11-22T14:05:00Z") }
        } else {
            errors.append("missing scanned_at")
        }
        guard errors.isEmpty, let id, let at else { return .failure(ScanParseError(eventID: id, errors: errors)) }
        return .success(ScanEvent(eventID: id, gersID: f["gers_id"], addressID: f["address_id"],
                                  qrSlug: f["qr_slug"] ?? f["qr"], scannedAt: at, userAgent: f["user_agent"]))
    }
}

public struct ScanParseError: Error, Sendable, Equatable {
    public var eventID: String?
    public var errors: [String]
}

enum Timestamp {
    /// The formatters, made once per thread: making one costs far more than using it.
    private final class Formatters {
        let plain = ISO8601DateFormatter()
        let frac = ISO8601DateFormatter()
        let out = ISO8601DateFormatter()
        init() {
            frac.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            out.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            out.timeZone = TimeZone(identifier: "UTC")
        }
    }
    private static let key = "flyr.Timestamp.formatters"

    /// ISO 8601 with or without fractional seconds and with any offset, as UTC text with
    /// milliseconds; nil when it does not parse.
    static func normalize(_ s: String) -> String? {
        let f: Formatters
        if let cached = Thread.current.threadDictionary[key] as? Formatters { f = cached } else {
            f = Formatters()
            Thread.current.threadDictionary[key] = f
        }
        guard let d = f.frac.date(from: s) ?? f.plain.date(from: s) else { return nil }
        return f.out.string(from: d)
    }
}

extension CampaignStore {
    /// Ingests events: each counted at most once (by event id) however often or from how many
    /// processes it arrives. Crawlers are skipped; malformed or unknown targets fail alone while
    /// the good events of the same file are kept. Counters are updated in SQL
    /// (`scans_total = scans_total + 1`), never read then written. Events are written in
    /// batches of `batchSize`, each one transaction; a busy database is waited for and retried.
    public func ingest(_ items: [(line: Int, event: Result<ScanEvent, ScanParseError>)], batchSize: Int = 500) throws -> [ScanResult] {
        var results: [ScanResult] = []
        results.reserveCapacity(items.count)
        var start = 0
        while start < items.count {
            let batch = items[start..<min(items.count, start + batchSize)]
            var attempt = 0
            while true {
                do {
                    results.append(contentsOf: try db.write { db in try batch.map { try ingestOne(db, $0.line, $0.event) } })
                    break
                } catch let e as DatabaseError where (e.resultCode == .SQLITE_BUSY || e.resultCode == .SQLITE_LOCKED) && attempt < 20 {
                    attempt += 1
                    usleep(useconds_t(20_000 * attempt))
                }
            }
            start += batchSize
        }
        return results
    }

    private func ingestOne(_ db: Database, _ line: Int, _ parsed: Result<ScanEvent, ScanParseError>) throws -> ScanResult {
        let e: ScanEvent
        switch parsed {
        case .failure(let err): return ScanResult(line: line, eventID: err.eventID, outcome: .failed, errors: err.errors)
        case .success(let ev): e = ev
        }
        if BotUserAgents.isBot(e.userAgent) { return ScanResult(line: line, eventID: e.eventID, outcome: .skippedBot, errors: []) }
        // Resolve the target to a building (and an address when one is named).
        var building: String? = nil, address: String? = e.addressID
        if let g = e.gersID {
            building = try String.fetchOne(db, sql: "SELECT gers_id FROM buildings WHERE gers_id = ?", arguments: [g])
            if building == nil { return fail(line, e, "unknown building gers_id '\(g)'") }
        } else if let a = e.addressID {
            guard let row = try Row.fetchOne(db, sql: "SELECT building_gers_id FROM campaign_addresses WHERE gers_id = ?", arguments: [a]) else {
                return fail(line, e, "unknown address_id '\(a)'")
            }
            building = row["building_gers_id"]
            if building == nil { return fail(line, e, "address '\(a)' is linked to no building") }
        } else if let q = e.qrSlug {
            guard let row = try Row.fetchOne(db, sql: "SELECT gers_id, building_gers_id FROM campaign_addresses WHERE qr_slug = ?", arguments: [q]) else {
                return fail(line, e, "unknown qr_slug '\(q)'")
            }
            address = row["gers_id"]
            building = row["building_gers_id"]
            if building == nil { return fail(line, e, "qr_slug '\(q)' names an address linked to no building") }
        }
        guard let building else { return fail(line, e, "no target") }
        try db.execute(sql: """
            INSERT OR IGNORE INTO scan_events (event_id, gers_id, address_id, qr_slug, scanned_at, user_agent, ingested_at)
            VALUES (?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ','now'))
            """, arguments: [e.eventID, building, address, e.qrSlug, e.scannedAt, e.userAgent])
        guard db.changesCount == 1 else { return ScanResult(line: line, eventID: e.eventID, outcome: .duplicate, errors: []) }
        let day = String(e.scannedAt.prefix(10))
        try db.execute(sql: """
            UPDATE building_stats SET
              scans_total = scans_total + 1,
              scans_today = CASE WHEN scans_day IS NULL OR :day > scans_day THEN 1
                                 WHEN :day = scans_day THEN scans_today + 1 ELSE scans_today END,
              scans_day = CASE WHEN scans_day IS NULL OR :day > scans_day THEN :day ELSE scans_day END,
              last_scan_at = CASE WHEN last_scan_at IS NULL OR :at > last_scan_at THEN :at ELSE last_scan_at END,
              status = CASE WHEN status = 'not_visited' THEN 'visited' ELSE status END
            WHERE gers_id = :g
            """, arguments: ["day": day, "at": e.scannedAt, "g": building])
        if let address {
            try db.execute(sql: "UPDATE campaign_addresses SET visited = 1, scans = scans + 1 WHERE gers_id = ?", arguments: [address])
        }
        return ScanResult(line: line, eventID: e.eventID, outcome: .success, errors: [])
    }

    private func fail(_ line: Int, _ e: ScanEvent, _ msg: String) -> ScanResult {
        ScanResult(line: line, eventID: e.eventID, outcome: .failed, errors: [msg])
    }
}
