// SPDX-License-Identifier: MIT
import Testing
@testable import HudModel

/// The JSON every document of the project is read with (scene files, the
/// registry cache, the sandboxed children's replies, preview requests): strict
/// RFC 8259, so a file another tool accepts loosely is refused here with the
/// line, the column and the reason; and the numbers every JSON output prints
/// read back as the same values.
struct JSONGrammarTests {
    struct Refusal: CustomTestStringConvertible, Sendable {
        var text: [UInt8]
        var line: Int
        var column: Int
        var reason: String
        var testDescription: String { String(decoding: text, as: UTF8.self).debugDescription }
    }

    static let refusals: [Refusal] = [
        Refusal("", 1, 1, "unexpected end of input; expected a value"),
        Refusal("01", 1, 2, "unexpected text after the JSON value"),
        Refusal("+1", 1, 1, "unexpected character '+'; expected a value"),
        Refusal(".5", 1, 1, "unexpected character '.'; expected a value"),
        Refusal("1.", 1, 3, "invalid number: digits must follow '.'"),
        Refusal("1e", 1, 3, "invalid number: exponent has no digits"),
        Refusal("-", 1, 2, "invalid number"),
        Refusal("1e999", 1, 6, "number 1e999 is out of range"),
        Refusal("NaN", 1, 1, "unexpected character 'N'; expected a value"),
        Refusal("nul", 1, 4, "invalid literal; expected 'null'"),
        Refusal("[1,]", 1, 4, "unexpected character ']'; expected a value"),
        Refusal("[1 2]", 1, 4, "expected ',' or ']' in array"),
        Refusal(#"{"a":1,}"#, 1, 8, "expected a quoted key"),
        Refusal("{'a':1}", 1, 2, "expected a quoted key"),
        Refusal(#"{"a" 1}"#, 1, 6, #"expected ':' after key "a""#),
        Refusal(#"{"a":1 "b":2}"#, 1, 8, "expected ',' or '}' in object"),
        Refusal("\"tab\there\"", 1, 5, "control character U+9 in string; escape it"),
        Refusal(#""\x""#, 1, 4, #"invalid escape '\x'"#),
        Refusal(#""\ud800""#, 1, 8, #"unpaired surrogate \ud800"#),
        Refusal(#""\udc00""#, 1, 8, #"unpaired surrogate \udc00"#),
        Refusal(#""\u12G4""#, 1, 6, #"invalid hex digit in \u escape"#),
        Refusal(#""abc"#, 1, 5, "unterminated string"),
        Refusal("{\n  \"a\": tru\n}", 2, 11, "invalid literal; expected 'true'"),
        Refusal("\"✓\" x", 1, 5, "unexpected text after the JSON value"),
        Refusal(String(repeating: "[", count: 66), 1, 66, "nesting deeper than 64 levels"),
        // Columns count characters: a continuation byte is not one.
        Refusal(text: [0x22, 0x80, 0x22], line: 1, column: 3, reason: "string is not valid UTF-8"),
    ]

    @Test(arguments: refusals)
    func whatRFC8259RefusesIsRefusedWithItsPlace(_ refusal: Refusal) throws {
        let error = try #require(throws: JSONParser.Error.self) { try JSONParser.parse(bytes: refusal.text) }
        #expect(error.reason == refusal.reason)
        #expect(error.line == refusal.line && error.column == refusal.column, "at \(error.line):\(error.column)")
        #expect(error.description == "line \(refusal.line), column \(refusal.column): \(refusal.reason)")
    }

    @Test func aDocumentOverTheSizeLimitIsRefusedBeforeItIsRead() throws {
        var limits = JSONParser.Limits()
        limits.maxBytes = 8
        let error = try #require(throws: JSONParser.Error.self) { try JSONParser.parse("[1, 2, 3, 4]", limits: limits) }
        #expect(error.description == "line 1, column 1: the document is 12 bytes; at most 8 are accepted")
        #expect(try JSONParser.parse("[1,2,3]", limits: limits) == .array([1, 2, 3]))
    }

    @Test func whatRFC8259AllowsIsRead() throws {
        let accepted: [(String, JSONValue)] = [
            (" \t\r\n 7 \n", 7),
            ("-0", 0),
            ("1E+2", 100),
            ("2.5e-1", 0.25),
            (#""\ud83c\udf89 \/ \b\f\n\r\t \u00e9""#, "🎉 / \u{8}\u{c}\n\r\t é"),
            ("null", .null),
            ("true", true),
            ("[]", .array([])),
            ("{}", .object([])),
            (#"{"b": [1, {"c": null}], "a": false}"#, .object([("b", .array([1, .object([("c", .null)])])), ("a", false)])),
            (String(repeating: "[", count: 65) + String(repeating: "]", count: 65), Self.nested(64)),
        ]
        for (text, value) in accepted {
            #expect(try JSONParser.parse(text) == value, "\(text.debugDescription)")
        }
    }

    /// `[[…[]…]]`, `depth` arrays around an empty one.
    static func nested(_ depth: Int) -> JSONValue {
        (0..<depth).reduce(JSONValue.array([])) { inner, _ in .array([inner]) }
    }

    /// Integers below 10^15 print without a fraction; every finite number
    /// prints in a form that reads back as the same value; a non-finite
    /// one prints as null, so the document stays JSON.
    @Test func numbersPrintAsJSONAndReadBackTheSame() throws {
        #expect(JSONValue.format(42) == "42" && JSONValue.format(-3) == "-3" && JSONValue.format(-0.0) == "0")
        #expect(JSONValue.format(999_999_999_999_999) == "999999999999999")
        #expect(JSONValue.format(0.1) == "0.1" && JSONValue.format(1e15) == "1000000000000000.0" && JSONValue.format(-2e20) == "-2e+20")
        #expect(JSONValue.format(.nan) == "null" && JSONValue.format(-.infinity) == "null")
        let values: [Double] = [0, 1, -1, 0.1, 1.0 / 3, 123_456.789, 1e15, 1e15 - 1, 9_007_199_254_740_992, 1e-7, .leastNonzeroMagnitude,
                                .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNormalMagnitude]
        for value in values {
            let text = JSONValue.number(value).serialized(pretty: false)
            #expect(try JSONParser.parse(text) == .number(value), "\(value) printed as \(text)")
        }
    }
}

extension JSONGrammarTests.Refusal {
    init(_ text: String, _ line: Int, _ column: Int, _ reason: String) {
        self.init(text: Array(text.utf8), line: line, column: column, reason: reason)
    }
}
