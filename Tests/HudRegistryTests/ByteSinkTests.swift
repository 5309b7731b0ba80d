// SPDX-License-Identifier: MIT
import Testing
@testable import HudModel
@testable import HudUnsafe

/// `ByteSink`, which `list --json` writes its renderer objects through:
/// its strings must be the bytes `JSONWriter` writes, escapes included,
/// and growing must keep every byte.
struct ByteSinkTests {
    /// Strings with and without escapes, before and after the 16-byte
    /// steps of the C scan, multi-byte UTF-8 and small (inline) strings.
    static let strings: [String?] = [
        nil, "", "a", "plain text", "quote \" inside", "back\\slash", "\u{01}control", "tab\tand\nnewline\r",
        "ré, 日本, 🎉", String(repeating: "x", count: 70) + "\"" + String(repeating: "y", count: 40),
        String(repeating: "long plain run ", count: 20), "\u{1F}", "\u{7F} is not escaped",
    ]

    @Test(arguments: strings)
    func aStringIsTheBytesJSONWriterWrites(_ value: String?) {
        var writer = JSONWriter(pretty: false)
        writer.string(value)
        var sink = ByteSink(capacity: 8)
        sink.appendJSONString(value)
        #expect(sink.take() == writer.bytes, "\(String(describing: value))")
    }

    @Test func growingKeepsEveryByteAndTakeEmptiesTheSink() {
        var sink = ByteSink(capacity: 1)
        var expected: [UInt8] = []
        for index in 0..<2_000 {
            let piece = Array("piece \(index);".utf8)
            sink.append(piece)
            sink.append([UInt8(ascii: "|")])
            expected += piece + [UInt8(ascii: "|")]
        }
        #expect(sink.count == expected.count)
        #expect(sink.take() == expected)
        #expect(sink.count == 0)
        sink.appendJSONString("again")
        #expect(sink.take() == Array("\"again\"".utf8))
    }
}
