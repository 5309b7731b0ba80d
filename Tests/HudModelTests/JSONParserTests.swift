// SPDX-License-Identifier: MIT
import Testing
@testable import HudModel

/// The strict JSON parser's duplicate-key rule, on small objects (compared
/// member by member) and large ones (hashed), where a quadratic check once
/// made a 560 KB scene take minutes to reject.
struct JSONParserTests {
    /// `{"k000000": 0, "k000001": 1, …}` with `count` distinct keys, then
    /// `extra` members as written.
    static func object(count: Int, extra: [String] = []) -> String {
        var members: [String] = []
        members.reserveCapacity(count + extra.count)
        for index in 0..<count { members.append("\"\(key(index))\": \(index)") }
        return "{" + (members + extra).joined(separator: ", ") + "}"
    }

    static func key(_ index: Int) -> String {
        let digits = String(index)
        return "k" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    @Test(arguments: [0, 1, 15, 16, 17, 40_000])
    func anObjectWithDistinctKeysKeepsEveryMemberInOrder(count: Int) throws {
        let value = try JSONParser.parse(Self.object(count: count))
        let members = try #require(value.objectValue)
        #expect(members.count == count)
        #expect(members.map(\.0) == (0..<count).map(Self.key))
        if count > 0 { #expect(value[Self.key(count - 1)]?.numberValue == Double(count - 1)) }
    }

    @Test(arguments: [(2, 0), (2, 1), (15, 14), (16, 0), (17, 16), (40_000, 0), (40_000, 39_999), (40_000, 20_000)])
    func aRepeatedKeyIsRejectedWhereverItIs(count: Int, repeated: Int) throws {
        let text = Self.object(count: count, extra: ["\"\(Self.key(repeated))\": true"])
        let error = try #require(throws: JSONParser.Error.self) { try JSONParser.parse(text) }
        #expect(error.reason == "duplicate key \"\(Self.key(repeated))\"")
        // Just after the repeated key's closing quote: the end of the text minus `: true}`.
        #expect(error.line == 1 && error.column == text.utf8.count - 6)
    }

    @Test func keysAreComparedPerObjectNotAcrossNestedObjects() throws {
        let inner = Self.object(count: 20)
        let text = "{\"a\": \(inner), \"b\": \(inner), \"k000000\": [\(inner)]}"
        let value = try JSONParser.parse(text)
        #expect(value.objectValue?.map(\.0) == ["a", "b", "k000000"])
        #expect(value["a"]?.objectValue?.count == 20)
    }

    @Test func keysThatDifferOnlyInEscapesAreTheSameKey() throws {
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(#"{"a": 1, "\u0061": 2}"#) }
        let many = Self.object(count: 30, extra: [#""\u006b000003": 0"#])
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(many) }
    }
}
