// SPDX-License-Identifier: MIT
import Testing
@testable import HudModel

/// The fast paths agree with the careful ones they skip.
struct FastPathTests {
    /// Quoting appends unescaped runs whole: the result is the same as
    /// escaping scalar by scalar.
    @Test(arguments: ["", "plain", "a\"b", "back\\slash", "line\nbreak\r\t", "\u{1}\u{1f}", "émoji 🎉 \"x\"", "\"", "tail\\",
                     "a string of more than twenty-four bytes, nothing to escape", "more than twenty-four bytes, then a quote: \""])
    func quotingMatchesScalarByScalarEscaping(_ text: String) throws {
        var expected = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": expected += "\\\""
            case "\\": expected += "\\\\"
            case "\n": expected += "\\n"
            case "\r": expected += "\\r"
            case "\t": expected += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                expected += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: expected.unicodeScalars.append(scalar)
            }
        }
        expected += "\""
        let quoted = JSONValue.string(text).serialized(pretty: false)
        #expect(quoted == expected)
        #expect(try JSONParser.parse(quoted).stringValue == text)
    }

    /// The environment's revision stamp: copies share it, setting any field
    /// (even to the value it had) takes a new one, and `==`/`hash` ignore it.
    @Test func everyFieldSetTakesANewEnvironmentRevision() {
        let base = HudEnvironment(device: .iphone16Pro, navigationTitle: "Home")
        let copy = base
        #expect(copy.revision.value == base.revision.value)
        #expect(HudEnvironment(device: .iphone16Pro, navigationTitle: "Home").revision.value != base.revision.value)
        let edits: [(String, (inout HudEnvironment) -> Void)] = [
            ("screenSize", { $0.screenSize.width += 1 }), ("safeArea", { $0.safeArea.top += 1 }), ("scale", { $0.scale = 2 }),
            ("layoutDirection", { $0.layoutDirection = .rightToLeft }), ("colorScheme", { $0.colorScheme = .light }),
            ("appearance", { $0.appearance = .system }), ("textScale", { $0.textScale = 1.5 }),
            ("navigationBar", { $0.navigationBar.height = 10 }), ("navigationTitle", { $0.navigationTitle = "Away" }),
            ("accessibility", { $0.accessibility.insert(.reduceMotion) }), ("paletteOverride", { $0.paletteOverride = .stable }),
            ("presentation", { $0.presentation = .deckResting }), ("reservedLanes", { $0.reservedLanes.bottom = 40 }),
            ("same title again", { $0.navigationTitle = "Home" }),
        ]
        var seen: Set<UInt64> = [base.revision.value]
        for (field, edit) in edits {
            var changed = base
            edit(&changed)
            #expect(seen.insert(changed.revision.value).inserted, "\(field) kept a revision")
        }
        var same = base
        same.navigationTitle = "Home"
        #expect(same == base && same.hashValue == base.hashValue, "the stamp is not part of the value")
    }
    /// The control-character check runs over UTF-8 bytes: it finds what the
    /// scalar-by-scalar definition (`TextChecks.isControl`) finds, at the
    /// same byte offset, on the boundaries of C0, DEL and C1.
    @Test(arguments: ["", "plain", "tab\there", "\u{1F}", " ~", "\u{7F}", "é\u{7F}", "\u{80}", "ab\u{9F}", "\u{A0}", "\u{FF}",
                      "é", "ĀÂ\u{85}", "🎉\u{1}", "\u{100}\u{9F}", "\u{C2}", "x\u{7E}"])
    func theControlCheckOverBytesAgreesWithTheScalarDefinition(_ text: String) {
        var expected: Int?
        var offset = 0
        for scalar in text.unicodeScalars {
            if TextChecks.isControl(scalar) {
                expected = offset
                break
            }
            offset += scalar.utf8.count
        }
        #expect(TextChecks.firstControlCharacter(in: text) == expected, "\(text.unicodeScalars.map(\.value))")
    }

    /// The position sets made once per mask are the sets of the mask's
    /// positions (unknown bits ignored).
    @Test func positionSetsPerMaskMatchThePositionsOfTheMask() {
        for mask in UInt32(0)..<256 {
            #expect(Position.set(in: mask) == Set(Position.positions(in: mask)), "\(mask)")
        }
    }

    /// A document streamed out in pieces (`flush`, as `list --json` does
    /// every 64 KiB of rows) is the same bytes as one written whole, and
    /// each piece is whole UTF-8.
    @Test(arguments: [true, false])
    func aDocumentFlushedInPiecesIsTheSameBytes(_ pretty: Bool) {
        func document(flushEvery: Int?) -> (bytes: [UInt8], pieces: [[UInt8]]) {
            var pieces: [[UInt8]] = []
            var writer = JSONWriter(pretty: pretty)
            writer.beginObject()
            writer.key("rows")
            writer.beginArray()
            for index in 0..<50 {
                writer.element()
                writer.beginObject()
                writer.member("name", "ré \(index)")
                writer.member("count", integer: index)
                writer.endObject()
                if let flushEvery, index % flushEvery == 0 { writer.flush { pieces.append($0) } }
            }
            writer.endArray()
            writer.endObject()
            writer.flush { pieces.append($0) }
            return (pieces.flatMap { $0 }, pieces)
        }
        let whole = document(flushEvery: nil)
        let streamed = document(flushEvery: 7)
        #expect(streamed.bytes == whole.bytes)
        #expect(streamed.pieces.count == 9)
        for piece in streamed.pieces { #expect(String(validating: piece, as: UTF8.self) != nil) }
    }
}
