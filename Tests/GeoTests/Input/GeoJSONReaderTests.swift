import Foundation
import Testing
@testable import Geo

// MARK: Fixtures

/// The one directory this test run writes its input files under, removed when the run exits.
let readerFixtureRoot: URL = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("flyr-reader-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: readerFixtureRoot) }
    return root
}()

/// A fresh temporary file holding `bytes`; its path.
func tempFile(_ bytes: [UInt8], name: String = "input.geojson") -> String {
    let dir = readerFixtureRoot.appendingPathComponent(UUID().uuidString)
    try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try! Data(bytes).write(to: url)
    return url.path
}

func tempFile(_ text: String, name: String = "input.geojson") -> String {
    tempFile(Array(text.utf8), name: name)
}

func readAll<F: OvertureFeature>(_: F.Type, _ path: String, chunkSize: Int = 4096) throws(InputError) -> [F] {
    let reader = try GeoJSONReader<F>(path: path, chunkSize: chunkSize)
    var out: [F] = []
    while let f = try reader.next() { out.append(f) }
    return out
}

private func readError<F: OvertureFeature>(_: F.Type, _ path: String, chunkSize: Int = 4096) -> InputError? {
    do { _ = try readAll(F.self, path, chunkSize: chunkSize) } catch { return error }
    return nil
}

private let square = "[[[0,0],[1,0],[1,1],[0,1],[0,0]]]"

private func building(_ id: String = "b1", _ coords: String = square, properties: String = "{}") -> String {
    #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Polygon","coordinates":\#(coords)},"properties":\#(properties)}"#
}

private func address(_ id: String = "a1", _ point: String = "[-73.7662282,40.7197475]", properties: String = "{}") -> String {
    #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":\#(point)},"properties":\#(properties)}"#
}

private func segment(_ id: String = "s1", _ line: String = "[[0,0],[1,1]]", properties: String = "{}") -> String {
    #"{"type":"Feature","id":"\#(id)","geometry":{"type":"LineString","coordinates":\#(line)},"properties":\#(properties)}"#
}

private func collection(_ features: [String]) -> String {
    "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}\n"
}

/// `../../../../shared/data` from this file: /work/shared/data for a checkout in /work/<name>.
private let sharedData = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/data")

private func sharedFile(_ relative: String) -> String? {
    let path = sharedData.appendingPathComponent(relative).path
    return FileManager.default.fileExists(atPath: path) ? path : nil
}

// MARK: Formats

@Suite struct GeoJSONReaderFormatTests {
    @Test(arguments: [1, 2, 3, 7, 64, 4096])
    func collectionAndSequenceGiveTheSameFeatures(chunkSize: Int) throws {
        let features = [building("b1"), building("b2", properties: #"{"height":6.7,"num_floors":2}"#)]
        let fc = try readAll(Building.self, tempFile(collection(features)), chunkSize: chunkSize)
        let seq = try readAll(Building.self, tempFile(features.joined(separator: "\n") + "\n"), chunkSize: chunkSize)
        #expect(fc.map(\.id) == ["b1", "b2"])
        #expect(fc == seq)
        #expect(fc[1].height == 6.7 && fc[1].numFloors == 2)
        #expect(fc[0].polygons[0].rings[0].count == 5)
        #expect(fc[0].bbox == BBox(minX: 0, minY: 0, maxX: 1, maxY: 1))
    }

    @Test func collectionMembersInAnyOrder() throws {
        let a = #"{"features":[\#(building("b1"))],"bbox":[0,0,1,1],"type":"FeatureCollection","name":"x"}"#
        let b = #"{"name":"n","crs":{"type":"name","properties":{"name":"EPSG:4326"}},"type":"FeatureCollection","features":[\#(building("b1")),\#(building("b2"))]}"#
        #expect(try readAll(Building.self, tempFile(a), chunkSize: 5).map(\.id) == ["b1"])
        #expect(try readAll(Building.self, tempFile(b), chunkSize: 5).map(\.id) == ["b1", "b2"])
    }

    /// A top-level object is a Feature when its type says so before any `features` array; one
    /// whose `features` array comes first is read as a collection, whatever the chunk size.
    @Test(arguments: [3, 4096])
    func featuresMemberAtTheTopLevel(chunkSize: Int) throws {
        let typedFirst = #"{"type":"Feature","id":"b1","geometry":{"type":"Polygon","coordinates":\#(square)},"features":[1]}"#
        #expect(try readAll(Building.self, tempFile(typedFirst + "\n" + building("b2")), chunkSize: chunkSize).map(\.id) == ["b1", "b2"])
        let arrayFirst = #"{"features":[],"type":"Feature","id":"b1","geometry":{"type":"Polygon","coordinates":\#(square)}}"#
        let e = readError(Building.self, tempFile(arrayFirst), chunkSize: chunkSize)
        #expect(e?.kind == .notGeoJSON)
        #expect(e?.detail.contains("expected FeatureCollection") == true)
    }

    /// Features spread over several lines: an error names the line its feature starts on.
    @Test(arguments: [5, 4096])
    func errorLinesAfterMultiLineFeatures(chunkSize: Int) throws {
        let pretty = building("b1").replacingOccurrences(of: ",", with: ",\n")
        let text = collection([pretty, pretty.replacingOccurrences(of: "b1", with: "b2"), building("b3", "[[[0,0],[1,0]]]")])
        let e = readError(Building.self, tempFile(text), chunkSize: chunkSize)
        #expect(e?.featureID == "b3")
        #expect(e?.featureIndex == 2)
        #expect(e?.line == 2 + 2 * (pretty.filter { $0 == "\n" }.count + 1))
    }

    @Test func recordSeparatorsBlankLinesAndCRLF() throws {
        let text = "\u{1E}" + address("a1") + "\r\n\r\n\n\u{1E}" + address("a2") + "\n  \n" + address("a3")
        let out = try readAll(Address.self, tempFile(text), chunkSize: 3)
        #expect(out.map(\.id) == ["a1", "a2", "a3"])
    }

    @Test func byteOrderMarkIsSkipped() throws {
        for text in [collection([address()]), address()] {
            let path = tempFile([0xEF, 0xBB, 0xBF] + Array(text.utf8))
            #expect(try readAll(Address.self, path, chunkSize: 1).map(\.id) == ["a1"])
        }
    }

    @Test(arguments: ["", "\n\n", "\u{FEFF}", #"{"type":"FeatureCollection","features":[]}"#, #"{"features": [ ] }"#])
    func emptyInputGivesNoFeatures(text: String) throws {
        #expect(try readAll(Building.self, tempFile(text)).isEmpty)
    }

    @Test func bareFeatureIsAOneFeatureSequence() throws {
        let pretty = "{\n  \"id\": \"a9\",\n  \"type\": \"Feature\",\n  \"properties\": {\"number\": \"12\"},\n  \"geometry\": {\"coordinates\": [1.5, 2.5], \"type\": \"Point\"}\n}\n"
        let out = try readAll(Address.self, tempFile(pretty), chunkSize: 4)
        #expect(out == [Address(id: "a9", point: Coord(1.5, 2.5), number: "12")])
    }

    @Test func idsAtTopLevelInPropertiesAndAsNumbers() throws {
        let inProps = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"id":"old-1"}}"#
        let both = #"{"type":"Feature","id":"top","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"id":"inner"}}"#
        let nullTop = #"{"type":"Feature","id":null,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{"id":"inner"}}"#
        let number = #"{"type":"Feature","id":12345,"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let decimal = #"{"type":"Feature","id":-1.50e3,"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let out = try readAll(Address.self, tempFile([inProps, both, nullTop, number, decimal].joined(separator: "\n")))
        #expect(out.map(\.id) == ["old-1", "top", "inner", "12345", "-1.50e3"])
    }

    @Test func escapesAndNonASCII() throws {
        let props = #"{"street":"Caf\u00e9 \"A\" \/ \\ \b\f\n\r\t","number":"\ud83c\udfe0 Straße","unit":"日本","address_levels":[{"value":"Qu\u00e9bec"},{"value":"Zürich"}],"sources":[]}"#
        for chunk in [1, 2, 5, 4096] {
            let out = try readAll(Address.self, tempFile(address(properties: props)), chunkSize: chunk)
            #expect(out.count == 1)
            #expect(out[0].street == "Café \"A\" / \\ \u{08}\u{0C}\n\r\t")
            #expect(out[0].number == "🏠 Straße")
            #expect(out[0].unit == "日本")
            #expect(out[0].addressLevelsJSON == #"[{"value":"Qu\u00e9bec"},{"value":"Zürich"}]"#)
            #expect(out[0].sourcesJSON == "[]")
        }
    }

    @Test func escapedIDAndKeys() throws {
        let text = #"{"type":"Feature","\u0069d":"x\"y","geometry":{"type":"Point","coordinates":[1,2]}}"#
        #expect(try readAll(Address.self, tempFile(text)).map(\.id) == ["x\"y"])
    }

    @Test func coordinatesMatchDoubleParsing() throws {
        let values = ["-73.7662282", "40.7197475", "0.1", "-0", "1e-7", "12.345678901234567", "1.7976931348623157e1",
                      "-79.99999999999999999999", "89.000000000000000000001", "4.9e-324", "0.30000000000000004",
                      "123456789012345678901e-19", "-0.0000000000000000000000001"]
        let features = stride(from: 0, to: values.count - 1, by: 1).map { k in
            address("p\(k)", "[\(values[k]),\(values[k + 1])]")
        }
        let out = try readAll(Address.self, tempFile(features.joined(separator: "\n")))
        for (k, a) in out.enumerated() {
            #expect(a.point.x == Double(values[k])!, "x of \(values[k])")
            #expect(a.point.y == Double(values[k + 1])!, "y of \(values[k + 1])")
            #expect(a.point.x.sign == Double(values[k])!.sign)
        }
    }

    /// Position lists are read by a compact fast path (`[[x,y],...]`) and, on anything else,
    /// again by the general one: both must give `Double(String)`'s values, in lines and rings.
    @Test func positionListsMatchDoubleParsingCompactOrSpaced() throws {
        let lons = ["-73.7662282", "0", "-0", "0.5", "1e-7", "12.345678901234567", "-179.9999999", "180",
                    "123456789012345678901e-19", "9007199254740993e-16", "7.0E1", "-79.99999999999999999999"]
        let lats = ["40.7197475", "-0", "0.30000000000000004", "-90", "89.000000000000000000001", "1234567890123456789e-18",
                    "0.1", "90", "-0.0000000000000000000000001", "45", "1.5e1", "-12.5"]
        let pairs = Array(zip(lons, lats))
        let expected = pairs.map { Coord(Double($0.0)!, Double($0.1)!) }
        for spaced in [false, true] {
            let list = "[" + pairs.map { spaced ? "[ \($0.0), \($0.1) ]" : "[\($0.0),\($0.1)]" }.joined(separator: ",") + "]"
            let line = try readAll(Segment.self, tempFile(segment("s", list)))[0].line
            #expect(line.count == expected.count)
            for (got, want) in zip(line, expected) {
                #expect(got.x == want.x && got.x.sign == want.x.sign && got.y == want.y && got.y.sign == want.y.sign,
                        "\(got) against \(want), spaced \(spaced)")
            }
            let ring = "[" + list.dropLast() + "," + (spaced ? "[ \(pairs[0].0), \(pairs[0].1) ]" : "[\(pairs[0].0),\(pairs[0].1)]") + "]]"
            let footprint = try readAll(Building.self, tempFile(building("b", ring)))[0].polygons[0].rings[0]
            #expect(Array(footprint.dropLast()) == expected && footprint.last == expected[0])
        }
        // Out of range in a compact list: the general path reports it.
        let bad = try? readAll(Segment.self, tempFile(segment("s", "[[1,2],[180.5,3]]")))
        #expect(bad == nil)
    }

    /// Raw JSON properties (`sources`, `names`, `address_levels`) are skipped by a loop without
    /// recursion and, on any doubt, again by the recursive path: valid values are kept byte for
    /// byte, invalid ones are errors, nesting up to the limit is accepted and beyond it refused.
    @Test func rawValuesAreValidatedAndKeptVerbatim() throws {
        let valid = [#"[]"#, #"{}"#, #"[ ]"#, #"{ "a" : [ 1 , -2.5e3 , 0 , true , false , null , "x\"y" , { } , [ [ ] ] ] }"#,
                     #"[{"property":"","dataset":"OpenStreetMap","record_id":"w1@1","update_time":null,"confidence":0.75}]"#,
                     #"[{"a":{"b":{"c":[1,[2,[3]]]}}},"é\u00e9",12345678901234567890123,1E+2,-0.0]"#,
                     String(repeating: "[", count: 500) + String(repeating: "]", count: 500)]
        for raw in valid {
            let out = try readAll(Address.self, tempFile(address(properties: #"{"sources":"# + raw + "}")))
            #expect(out.first?.sourcesJSON == raw, "\(raw.prefix(60))")
        }
        let invalid = [#"[1,]"#, #"{"a" 1}"#, #"{"a":1,}"#, #"[tru]"#, #"[nul]"#, #"[01]"#, #"[1.]"#, #"[-]"#, #"{a:1}"#,
                       #"[1 2]"#, #"[{"a":1]"#, #"[{"a":1}"#, "[\"a\tb\"]" /* a raw tab */,
                       #"["\x"]"#, #"[NaN]"#, #"{"a":[1}"#, #"[1}"#,
                       String(repeating: "[", count: 600) + String(repeating: "]", count: 600)]
        for raw in invalid {
            #expect((try? readAll(Address.self, tempFile(address(properties: #"{"sources":"# + raw + "}")))) == nil,
                    "\(raw.prefix(60)) was accepted")
        }
    }

    /// Strings are scanned eight bytes at a time up to the first byte that needs a look: a
    /// quote, escape, control or non-ASCII byte at every offset of ids of every length.
    @Test func stringsAroundTheEightByteScan() throws {
        for length in 1...20 {
            for at in 0..<length {
                for (insert, decoded) in [("\\\"", "\""), ("é", "é"), ("\\u00e9", "é"), ("日", "日")] {
                    var raw = String(repeating: "a", count: length), want = raw
                    raw.replaceSubrange(raw.index(raw.startIndex, offsetBy: at)..<raw.index(raw.startIndex, offsetBy: at + 1), with: insert)
                    want.replaceSubrange(want.index(want.startIndex, offsetBy: at)..<want.index(want.startIndex, offsetBy: at + 1), with: decoded)
                    let out = try readAll(Address.self, tempFile(address(raw)))
                    #expect(out.map(\.id) == [want], "id \(raw)")
                }
                var control = Array(String(repeating: "a", count: length).utf8)
                control[at] = 0x09  // an unescaped tab
                let text = #"{"type":"Feature","id":""# + String(decoding: control, as: UTF8.self) + #"","geometry":{"type":"Point","coordinates":[1,2]}}"#
                #expect((try? readAll(Address.self, tempFile(text))) == nil, "unescaped tab at \(at) of \(length)")
            }
        }
    }

    @Test func positionsWithZAndMAreAccepted() throws {
        let text = segment("s1", "[[1,2,30],[3,4,40.5,7]]")
        #expect(try readAll(Segment.self, tempFile(text))[0].line == [Coord(1, 2), Coord(3, 4)])
    }

    @Test func coordinatesBeforeGeometryType() throws {
        let text = #"{"type":"Feature","geometry":{"coordinates":[[[0,0],[1,0],[1,1],[0,0]]],"type":"Polygon"},"id":"b"}"#
        #expect(try readAll(Building.self, tempFile(text))[0].polygons[0].rings[0].count == 4)
    }

    @Test func multiPolygonWithHole() throws {
        let coords = "[[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[2,1],[2,2],[1,1]]],[[[5,5],[6,5],[6,6],[5,5]]]]"
        let text = #"{"type":"Feature","id":"m","geometry":{"type":"MultiPolygon","coordinates":\#(coords)}}"#
        let b = try readAll(Building.self, tempFile(text))[0]
        #expect(b.polygons.count == 2 && b.polygons[0].rings.count == 2)
        #expect(b.bbox == BBox(minX: 0, minY: 0, maxX: 6, maxY: 6))
    }

    @Test func propertiesMapOntoModels() throws {
        let bprops = #"{"height":12.5,"num_floors":3,"subtype":"residential","class":"house","names":{"primary":"A"},"sources":[{"dataset":"OSM"}],"roof_shape":"flat","has_parts":false}"#
        let b = try readAll(Building.self, tempFile(building("b", properties: bprops)))[0]
        #expect(b == Building(id: "b", polygons: b.polygons, height: 12.5, numFloors: 3, subtype: "residential",
                              buildingClass: "house", namesJSON: #"{"primary":"A"}"#, sourcesJSON: #"[{"dataset":"OSM"}]"#))
        let aprops = #"{"number":"81-42","street":"243rd Street","unit":null,"postcode":"11426","postal_city":"Bellerose","country":"US","address_levels":[{"value":"NY"}],"version":0}"#
        let a = try readAll(Address.self, tempFile(address("a", properties: aprops)))[0]
        #expect(a == Address(id: "a", point: Coord(-73.7662282, 40.7197475), number: "81-42", street: "243rd Street",
                             postcode: "11426", postalCity: "Bellerose", country: "US", addressLevelsJSON: #"[{"value":"NY"}]"#))
        let sprops = #"{"subtype":"road","class":"residential","subclass":"driveway","names":{ "common": null, "primary" : "85th Avenue" },"sources":[]}"#
        let s = try readAll(Segment.self, tempFile(segment("s", properties: sprops)))[0]
        #expect(s == Segment(id: "s", line: [Coord(0, 0), Coord(1, 1)], subtype: "road", segmentClass: "residential",
                             subclass: "driveway", name: "85th Avenue", namesJSON: #"{ "common": null, "primary" : "85th Avenue" }"#,
                             sourcesJSON: "[]"))
    }

    @Test func dashReadsStandardInput() throws {
        let path = tempFile(address("a1") + "\n" + address("a2"))
        let file = open(path, O_RDONLY)
        let saved = dup(0)
        #expect(file >= 0 && saved >= 0)
        dup2(file, 0)
        defer { dup2(saved, 0); close(saved); close(file) }
        let loaded = try loadAddresses(["-"])
        #expect(loaded.features.map(\.id) == ["a1", "a2"])
        do { _ = try loadAddresses(["-"]) } catch { Issue.record("stdin at its end should give no features: \(error)") }
    }
}

// MARK: Errors

/// An input that must fail, with where the failure must be reported.
struct BadInput: CustomTestStringConvertible, Sendable {
    var name: String
    var text: [UInt8]
    var layer: Layer
    var kind: InputError.Kind
    var line: Int?
    var index: Int?
    var id: String?
    /// Text the detail must contain.
    var detail: String = ""

    init(_ name: String, _ text: String, _ layer: Layer = .buildings, _ kind: InputError.Kind,
         line: Int? = 1, index: Int? = 0, id: String? = nil, detail: String = "") {
        self.init(name, Array(text.utf8), layer, kind, line: line, index: index, id: id, detail: detail)
    }
    init(_ name: String, _ bytes: [UInt8], _ layer: Layer = .buildings, _ kind: InputError.Kind,
         line: Int? = 1, index: Int? = 0, id: String? = nil, detail: String = "") {
        self.name = name; text = bytes; self.layer = layer; self.kind = kind
        self.line = line; self.index = index; self.id = id; self.detail = detail
    }
    var testDescription: String { name }

    static let all: [BadInput] = [
        BadInput("missing id", #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"#,
                 .addresses, .missingID),
        BadInput("null id", #"{"type":"Feature","id":null,"geometry":{"type":"Point","coordinates":[1,2]}}"#,
                 .addresses, .missingID),
        BadInput("bool id", #"{"type":"Feature","id":true,"geometry":{"type":"Point","coordinates":[1,2]}}"#,
                 .addresses, .badID, detail: "boolean"),
        BadInput("object id", #"{"type":"Feature","id":{"a":1},"geometry":{"type":"Point","coordinates":[1,2]}}"#,
                 .addresses, .badID, detail: "object"),
        BadInput("array id in properties", #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"id":[1]}}"#,
                 .addresses, .badID, detail: "array"),
        BadInput("missing geometry", address("a1") + "\n" + #"{"type":"Feature","id":"a2","properties":{}}"#,
                 .addresses, .missingGeometry, line: 2, index: 1, id: "a2"),
        BadInput("null geometry", #"{"type":"Feature","id":"a3","geometry":null}"#, .addresses, .missingGeometry, id: "a3"),
        BadInput("point for a building", address("x"), .buildings, .wrongGeometryType, id: "x",
                 detail: "expected Polygon or MultiPolygon for buildings, found Point"),
        BadInput("multilinestring for a segment",
                 #"{"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[[[0,0],[1,1]]]},"id":"late"}"#,
                 .segments, .wrongGeometryType, id: "late", detail: "expected LineString for segments, found MultiLineString"),
        BadInput("geometry collection", #"{"type":"Feature","id":"g","geometry":{"type":"GeometryCollection","geometries":[]}}"#,
                 .buildings, .wrongGeometryType, id: "g", detail: "GeometryCollection"),
        BadInput("string coordinate", address("a", #"["-73.5",40.1]"#), .addresses, .badCoordinates, id: "a", detail: "-73.5"),
        BadInput("longitude out of range", address("a", "[200.5,40.1]"), .addresses, .badCoordinates, id: "a", detail: "200.5"),
        BadInput("latitude out of range", address("a", "[10,-91]"), .addresses, .badCoordinates, id: "a", detail: "-91"),
        BadInput("infinite coordinate", address("a", "[1e999,1]"), .addresses, .badCoordinates, id: "a", detail: "finite"),
        BadInput("one-number position", address("a", "[1]"), .addresses, .badCoordinates, id: "a"),
        BadInput("unclosed ring", building("b", "[[[0,0],[1,0],[1,1],[0,1]]]"), .buildings, .badRing, id: "b", detail: "not closed"),
        BadInput("short ring", building("b", "[[[0,0],[1,0],[0,0]]]"), .buildings, .badRing, id: "b", detail: "at least 4"),
        BadInput("short line", segment("s", "[[0,0]]"), .segments, .badCoordinates, id: "s", detail: "at least 2"),
        BadInput("height as a string", building("b", properties: #"{"height":"12"}"#), .buildings, .badValue, id: "b",
                 detail: "height"),
        BadInput("fractional floors", building("b", properties: #"{"num_floors":2.5}"#), .buildings, .badValue, id: "b",
                 detail: "num_floors"),
        BadInput("names as a string", segment("s", properties: #"{"names":"Main St"}"#), .segments, .badValue, id: "s"),
        BadInput("truncated feature", collection([building("b1")]) .replacingOccurrences(of: "]]]},", with: "]]]},\n").dropLast(12).description,
                 .buildings, .truncated, line: 2, index: 0, id: "b1"),
        BadInput("truncated collection", "{\"type\":\"FeatureCollection\",\"features\":[\n" + building("b1") + ",\n",
                 .buildings, .truncated, line: 3, index: nil),
        BadInput("trailing comma", "{\"type\":\"FeatureCollection\",\"features\":[\n" + building("b1") + ",\n]}",
                 .buildings, .invalidJSON, line: 3, index: nil, detail: "expected a Feature object, found ']'"),
        BadInput("syntax error in a feature", address("a1") + "\n\n" + #"{"type":"Feature","id":"a2",,"geometry":null}"#,
                 .addresses, .invalidJSON, line: 3, index: 1, id: "a2", detail: "found ','"),
        BadInput("invalid UTF-8", Array(#"{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"street":"x"#.utf8)
                 + [0xC3, 0x28] + Array(#""}}"#.utf8), .addresses, .invalidEncoding, id: "a"),
        BadInput("invalid UTF-8 in a skipped member", Array(#"{"type":"Feature","id":"a","other":""#.utf8) + [0xFF]
                 + Array(#"","geometry":{"type":"Point","coordinates":[1,2]}}"#.utf8), .addresses, .invalidEncoding, id: "a"),
        BadInput("invalid UTF-8 in a collection member", Array(#"{"type":"FeatureCollection","name":"x"#.utf8) + [0xFF]
                 + Array(#"","features":[]}"#.utf8), .addresses, .invalidEncoding, index: nil),
        BadInput("invalid UTF-8 after the features", Array(#"{"type":"FeatureCollection","features":[],"name":"x"#.utf8) + [0xE2, 0x82]
                 + Array(#""}"#.utf8), .addresses, .invalidEncoding, index: nil),
        BadInput("lone surrogate", address("a", properties: #"{"street":"\ud83c x"}"#), .addresses, .invalidEncoding, id: "a"),
        BadInput("not a feature", #"{"type":"Point","coordinates":[1,2]}"#, .addresses, .notGeoJSON, detail: "Point"),
        BadInput("top-level array", "[1,2]", .addresses, .notGeoJSON, index: nil),
        BadInput("garbage", "hello", .addresses, .invalidJSON, index: nil),
    ]
}

@Suite struct GeoJSONReaderErrorTests {
    @Test(arguments: BadInput.all)
    func badInputIsReportedWithItsLocation(_ bad: BadInput) throws {
        for chunkSize in [1, 3, 4096] {
            let path = tempFile(bad.text, name: "bad.geojson")
            let error: InputError?
            switch bad.layer {
            case .buildings: error = readError(Building.self, path, chunkSize: chunkSize)
            case .addresses: error = readError(Address.self, path, chunkSize: chunkSize)
            case .segments: error = readError(Segment.self, path, chunkSize: chunkSize)
            }
            let e = try #require(error, "no error for \(bad.name)")
            #expect(e.kind == bad.kind, "\(e)")
            #expect(e.file == path)
            #expect(e.line == bad.line, "\(e)")
            #expect(e.featureIndex == bad.index, "\(e)")
            #expect(e.featureID == bad.id, "\(e)")
            #expect(bad.detail.isEmpty || e.detail.contains(bad.detail), "\(e)")
            #expect(e.description.hasPrefix(path + (bad.line.map { ":\($0)" } ?? "")))
            if let index = bad.index { #expect(e.description.contains("feature \(index)")) }
            if let id = bad.id { #expect(e.description.contains("id \(id)")) }
        }
    }

    @Test func missingFileAndDirectory() throws {
        let missing = readError(Building.self, "/nonexistent/flyr/x.geojson")
        #expect(missing?.kind == .fileNotFound)
        #expect(missing?.file == "/nonexistent/flyr/x.geojson")
        let dir = (tempFile("") as NSString).deletingLastPathComponent
        #expect(readError(Building.self, dir)?.kind == .unreadable)
    }
}

// MARK: Loading

@Suite struct FeatureLoaderTests {
    @Test func bboxKeepsIntersectingFeatures() throws {
        let text = [address("in", "[0.5,0.5]"), address("edge", "[1,1]"), address("out", "[2,2]")].joined(separator: "\n")
        let box = BBox(minX: 0, minY: 0, maxX: 1, maxY: 1)
        let loaded = try loadAddresses([tempFile(text)], options: LoadOptions(bbox: box))
        #expect(loaded.features.map(\.id) == ["in", "edge"])
        let b = try loadBuildings([tempFile(building("b", "[[[0.9,0.9],[3,0.9],[3,3],[0.9,0.9]]]"))], options: LoadOptions(bbox: box))
        #expect(b.features.count == 1)
    }

    @Test func overlappingExtractsAreMergedOnce() throws {
        let first = tempFile(collection([building("b1"), building("b2")]), name: "west.geojson")
        let second = tempFile([building("b2"), building("b3"), building("b1")].joined(separator: "\n"), name: "east.geojsonseq")
        let loaded = try loadFeatures(Building.self, from: [first, second], options: .init(), chunkSize: 16)
        #expect(loaded.features.map(\.id) == ["b1", "b2", "b3"])
        #expect(loaded.duplicatesSkipped == 2)
        let expectedBytes = try [first, second].map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as! Int }
        #expect(loaded.bytesRead == expectedBytes.reduce(0, +))
    }

    @Test func sameIDWithOtherGeometryIsAConflict() throws {
        let first = tempFile(building("b1") + "\n" + building("b2"), name: "west.geojson")
        let second = tempFile(building("b0") + "\n" + building("b2", "[[[0,0],[2,0],[2,2],[0,0]]]"), name: "east.geojson")
        #expect(throws: InputError.self) { try loadBuildings([first, second]) }
        do { _ = try loadBuildings([first, second]) } catch {
            #expect(error.kind == .conflictingID)
            #expect(error.file == second && error.line == 2 && error.featureIndex == 1 && error.featureID == "b2")
            #expect(error.description.contains(first) && error.description.contains(second))
        }
    }

    @Test func loadErrorsNameTheFile() throws {
        let good = tempFile(address("a1"))
        #expect(throws: InputError(.fileNotFound, file: "/no/such.geojsonseq", detail: "No such file or directory")) {
            try loadAddresses([good, "/no/such.geojsonseq"])
        }
    }
}

// MARK: Real data

@Suite struct GeoJSONReaderRealDataTests {
    @Test(.enabled(if: sharedFile("queens-village-ny/buildings.geojson") != nil))
    func queensVillage() throws {
        let buildings = try loadBuildings([sharedFile("queens-village-ny/buildings.geojson")!])
        #expect(buildings.features.count == 49_777)
        #expect(buildings.duplicatesSkipped == 0)
        let first = try #require(buildings.features.first)
        #expect(first.id == "0000483d-ea20-587f-9f9c-251bdea7ab3d")
        #expect(first.polygons[0].rings[0][0] == Coord(-73.7662282, 40.7197475))
        #expect(first.height == 6.7)
        let addresses = try loadAddresses([sharedFile("queens-village-ny/addresses.geojsonseq")!])
        #expect(addresses.features.count == 32_045)
        #expect(addresses.features.allSatisfy { $0.number != nil && $0.street != nil })
        let segments = try loadSegments([sharedFile("queens-village-ny/segments.geojson")!])
        #expect(segments.features.count == 1_486)
        #expect(segments.features.filter { $0.name != nil }.count == 1_248)
    }

    @Test(.enabled(if: sharedFile("overture-boston-buildings/buildings.geojson") != nil))
    func bostonOlderLayout() throws {
        let path = sharedFile("overture-boston-buildings/buildings.geojson")!
        let loaded = try loadBuildings([path])
        #expect(loaded.features.count == 918)
        #expect(loaded.features.allSatisfy { !$0.id.isEmpty })
        #expect(Set(loaded.features.map(\.id)).count == 918)
        #expect(loaded.features.filter { $0.polygons[0].rings.count > 1 }.count == 6)
        #expect(loaded.features[0].id == "ce505dca-01c3-4c6f-b295-341844edf547")
        #expect(loaded.features[1].subtype == "outbuilding" && loaded.features[1].buildingClass == "shed")
        #expect(loaded.features[0].sourcesJSON?.hasPrefix(#"[{"property":"","dataset":"OpenStreetMap""#) == true)
    }

    @Test(.enabled(if: sharedFile("queens-village-ny/segments.geojson") != nil))
    func smallChunksGiveTheSameResult() throws {
        let path = sharedFile("queens-village-ny/segments.geojson")!
        let whole = try loadFeatures(Segment.self, from: [path], options: .init(), chunkSize: 1 << 22)
        let small = try loadFeatures(Segment.self, from: [path], options: .init(), chunkSize: 333)
        #expect(whole.features == small.features)
    }
}

// MARK: Timing

/// Prints parse speed; run by hand with
/// `FLYR_READER_BENCH=1 swift test -c release --filter ReaderBenchmark`.
@Suite struct ReaderBenchmark {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["FLYR_READER_BENCH"] == "1"))
    func printSpeed() throws {
        func time<F: OvertureFeature>(_ file: String, _ load: ([String]) throws -> Loaded<F>) throws -> String {
            guard let path = sharedFile(file) else { return "\(file): absent" }
            var best = Double.infinity
            var count = 0, bytes = 0
            for _ in 0..<5 {
                let start = DispatchTime.now().uptimeNanoseconds
                let loaded = try load([path])
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                count = loaded.features.count; bytes = loaded.bytesRead
            }
            let mbs = Double(bytes) / 1e6 / best
            return "| \(file) | \(count) | \(bytes) | \(String(format: "%.1f", best * 1000)) ms | \(String(format: "%.0f", mbs)) MB/s |"
        }
        print("| file | features | bytes | best of 5 | speed |")
        print("|---|---:|---:|---:|---:|")
        print(try time("queens-village-ny/buildings.geojson") { try loadBuildings($0) })
        print(try time("queens-village-ny/addresses.geojsonseq") { try loadAddresses($0) })
        print(try time("queens-village-ny/segments.geojson") { try loadSegments($0) })
        print(try time("overture-boston-buildings/buildings.geojson") { try loadBuildings($0) })
    }
}

@Suite struct StringInternerTests {
    private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }
    private func storage(of s: String) -> UnsafeRawPointer? {
        var s = s
        return s.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func repeatsShareOneStringAndValuesStayExact() {
        var interner = StringInterner()
        let levels = #"[{"value":"NY"},{"value":"QUEENS"}]"#
        var made: [String] = []
        // Enough distinct texts to make the table grow several times in between.
        for k in 0..<2_000 {
            for text in [levels, "Springfield Boulevard \(k % 7)", "unique text number \(k)", "short \(k % 3)"] {
                made.append(bytes(text).withUnsafeBufferPointer { interner.string($0) })
                #expect(made.last == text)
            }
        }
        let firstLevels = made[0]
        for k in stride(from: 4, to: made.count, by: 4) {
            #expect(storage(of: made[k]) == storage(of: firstLevels), "repeat \(k / 4) of address_levels has its own copy")
        }
        #expect(storage(of: made[1]) == storage(of: made[4 * 7 + 1]))
        #expect(storage(of: made[1]) != storage(of: made[4 + 1]))
    }

    @Test func recurringPropertiesReadAsWritten() throws {
        let levels = #"[{"value":"NY"},{"value":"QUEENS"}]"#
        let features = (0..<50).map { k in
            address("a\(k)", properties: #"{"street":"Springfield Boulevard","postal_city":"Queens Village \#(k % 2)","address_levels":\#(levels),"number":"\#(k)"}"#)
        } + [address("e", properties: #"{"street":"Springfield Boulevar\u0064","address_levels":[ {"value" : "NY"} ]}"#)]
        let read = try readAll(Address.self, tempFile(features.joined(separator: "\n")))
        #expect(read.count == 51)
        for (k, a) in read.prefix(50).enumerated() {
            #expect(a.street == "Springfield Boulevard")
            #expect(a.postalCity == "Queens Village \(k % 2)")
            #expect(a.addressLevelsJSON == levels)
            #expect(a.number == "\(k)")
        }
        #expect(read[50].street == "Springfield Boulevard")
        #expect(read[50].addressLevelsJSON == #"[ {"value" : "NY"} ]"#)
        #expect(storage(of: read[0].addressLevelsJSON!) == storage(of: read[49].addressLevelsJSON!))
    }
}
