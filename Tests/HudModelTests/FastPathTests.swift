// SPDX-License-Identifier: MIT
import Testing
@testable import HudModel

/// The fast paths of issue 15 agree with the careful ones they skip.
struct FastPathTests {
    @Test(arguments: ["com.example.ring", "a.b", "org.hudbench.generated-00042", "a-b.c-d", "x0.9y",
                      "", "nodot", ".a", "a.", "a..b", "-a.b", "a-.b", "a.b-", "a.-b", "Com.example", "a.b c", "a.b_c", "ä.b", "a.b\n"])
    func theIDFastPathAgreesWithTheFullCheck(_ id: String) {
        #expect(RendererInfo.isWellFormedID(id) == (RendererInfo.idProblem(id) == nil), "\(id)")
    }

    /// Quoting appends unescaped runs whole: the result is the same as
    /// escaping scalar by scalar.
    @Test(arguments: ["", "plain", "a\"b", "back\\slash", "line\nbreak\r\t", "\u{1}\u{1f}", "émoji 🎉 \"x\"", "\"", "tail\\"])
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
        var quoted = ""
        JSONValue.quote(text, into: &quoted)
        #expect(quoted == expected)
        #expect(try JSONParser.parse(quoted).stringValue == text)
    }
}
