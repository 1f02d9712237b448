import Testing
@testable import Geo

/// A number standing within a range of its street is the range's household.
@Suite struct HouseholdKeysTests {
    @Test func aNumberWithinARangeOfItsStreetTakesTheRangesKey() {
        let numbers: [String?] = ["10-14", "14", "11", "14", "1-1C", "1A", "20-24", "22-26", "24", "7"]
        let streets: [String?] = ["a", "a", "a", "b", "a", "a", "a", "a", "a", nil]
        let read = HouseNumbers.householdKeys(numbers: numbers, streets: streets)
        #expect(read.inRange == [false, true, false, false, false, true, false, false, false, false])
        #expect(read.keys == [
            "10-14|a", "10-14|a",  // 14 within 10-14
            "11|a",                // the other parity
            "14|b",                // another street
            "1-1C|a", "1-1C|a",    // 1A within 1-1C
            "20-24|a", "22-26|a", "24|a",  // within two ranges
            "7|",
        ])
    }

    @Test func blockHyphenHouseNumbersAreNoRanges() {
        let numbers: [String?] = ["116-03", "116-07", "116-05", "116"]
        #expect(HouseNumbers.householdKeys(numbers: numbers, streets: Array(repeating: "a", count: 4)).keys
            == ["116-03|a", "116-07|a", "116-05|a", "116|a"])
    }

    /// The range's own point stands between its house and the next: a second household would
    /// send it next door, but "14" in the house is the range's own.
    @Test func aRangeKeepsTheHouseItsNumbersPointHolds() throws {
        func linked(_ inside: String) throws -> String? {
            var s = Scene()
            s.building("a", "POLYGON((0 0,10 0,10 10,0 10,0 0))")
            s.building("b", "POLYGON((11.5 0,21.5 0,21.5 10,11.5 10,11.5 0))")
            s.road("r", "LINESTRING(-20 -10,40 -10)", name: "Main Street")
            s.address("inside", 5, 5, number: inside)
            s.address("range", 10.6, -1, number: "10-14")
            return try s.link().link("range").buildingID
        }
        #expect(try linked("14") == "a")
        #expect(try linked("16") == "b")
    }

    /// A range's point nearer the next house goes to the house holding a covered number of the
    /// range; not where the covered number is outside the range or the same number again.
    @Test func aRangeGoesToTheHouseACoveredNumberOfItsRangeStandsIn() throws {
        func linked(covered: String, pending: String) throws -> String? {
            var s = Scene()
            s.building("a", "POLYGON((0 0,10 0,10 10,0 10,0 0))")
            s.building("b", "POLYGON((11.5 0,21.5 0,21.5 10,11.5 10,11.5 0))")
            s.road("r", "LINESTRING(-20 -10,40 -10)", name: "Main Street")
            s.address("covered", 5, 5, number: covered)
            s.address("pending", 12.5, -1.5, number: pending)
            return try s.link().link("pending").buildingID
        }
        #expect(try linked(covered: "14", pending: "10-14") == "a")
        #expect(try linked(covered: "10-14", pending: "12") == "a")
        #expect(try linked(covered: "16", pending: "10-14") == "b")
        #expect(try linked(covered: "14", pending: "14") == "b")
    }
}
