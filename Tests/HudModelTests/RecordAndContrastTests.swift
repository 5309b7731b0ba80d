// SPDX-License-Identifier: MIT
import Testing
import HudModel

/// The renderer record (what the registry cache stores and a scan child
/// replies): its exact text, its round trip, and the reason a bad record
/// gives; the WCAG contrast arithmetic `a11y-contrast` and the shell's
/// readable text colours stand on; the byte-wise text helpers.
struct RecordAndContrastTests {
    static let ring = RendererInfo(id: "com.example.ring", name: "Ring \"R\"", version: "1.2.0", vendor: "Example", summary: "A ring of slots",
                                   supportedPositions: [.topLeft, .topRight, .center], capabilities: .threadSafe,
                                   abiVersion: ABIVersion(major: 1, minor: 2), origin: .file("/p/libring.so"), pickerIcon: "circle.dotted")

    /// The cache file and the scan reply hold this text: a change to it is
    /// a change to a file format (Docs/COMPATIBILITY.md).
    @Test func aRecordIsWrittenAsItsPinnedText() {
        var writer = JSONWriter(pretty: false)
        writer.value(Self.ring.recordJSON)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text == #"{"id":"com.example.ring","name":"Ring \"R\"","version":"1.2.0","vendor":"Example","abi":65538,"positions":"#
            + "\(Position.mask([Position.topLeft, .topRight, .center])),"
            + #""capabilities":1,"description":"A ring of slots","pickerIcon":"circle.dotted"}"#)
        var bare = Self.ring
        bare.summary = ""
        bare.pickerIcon = nil
        #expect(bare.recordJSON["description"] == nil && bare.recordJSON["pickerIcon"] == nil, "optional members are left out, not null")
    }

    @Test(arguments: [true, false])
    func aRecordReadsBackAsTheSameRenderer(_ optionals: Bool) throws {
        var info = Self.ring
        if !optionals {
            info.summary = ""
            info.pickerIcon = nil
        }
        let parsed = try JSONParser.parse(info.recordJSON.serialized(pretty: false))
        let decoded = try RendererInfo.decodeRecord(parsed, path: "/p/libring.so").get()
        #expect(decoded == info)
        #expect(decoded.pickerIcon == info.pickerIcon && decoded.summary == info.summary)
    }

    /// Each bad record is refused with what is wrong, naming the renderer
    /// (its id escaped, so a control character cannot reach a terminal).
    @Test(arguments: [
        (#"{"id":"a.b","name":"n","version":"1","vendor":"v","abi":65537,"positions":1}"#, "a malformed renderer description"),
        (#"{"id":"a.b","name":"n","version":"1","vendor":"v","abi":1.5,"positions":1,"capabilities":0}"#, "a malformed renderer description"),
        (#"{"id":"a.b","name":"n","version":"1","vendor":"v","abi":65537,"positions":1,"capabilities":0,"pickerIcon":7}"#,
         "a malformed renderer description"),
        (#"{"id":"a.b","name":"n","version":"1","vendor":"v","abi":65537,"positions":1,"capabilities":0,"pickerIcon":""}"#,
         "renderer 'a.b': pickerIcon is empty; leave it NULL for the host's default icon"),
        (#"{"id":"a.b","name":"n\u0007","version":"1","vendor":"v","abi":65537,"positions":1,"capabilities":0}"#,
         "renderer 'a.b': name has a control character at byte 1; descriptor text must be printable"),
        (#"{"id":"a.b\u001b","name":"n","version":"1","vendor":"v","abi":65537,"positions":1,"capabilities":0}"#, "renderer 'a.b\\u{1b}': id "),
        (#"{"id":"a.b","name":"n","version":"1","vendor":"v","abi":65537,"positions":64,"capabilities":0}"#,
         "renderer 'a.b': supported_positions 0x40 is empty or has unknown bits"),
    ])
    func aBadRecordSaysWhatIsWrong(_ json: String, _ reason: String) throws {
        let result = RendererInfo.decodeRecord(try JSONParser.parse(json), path: "/p/lib.so")
        guard case .failure(let error) = result else {
            Issue.record("accepted: \(json)")
            return
        }
        #expect(error.description.hasPrefix(reason), "\(error.description)")
    }

    @Test func aDescriptionOverTheLimitIsRefused() throws {
        var info = Self.ring
        info.summary = String(repeating: "d", count: ABILimits.maxDescriptionBytes + 1)
        let error = RendererInfo.decodeRecord(try JSONParser.parse(info.recordJSON.serialized()), path: "/p").failure
        #expect(error?.description == "renderer 'com.example.ring': description is over \(ABILimits.maxDescriptionBytes) bytes")
    }

    /// Known WCAG 2.x figures: black on white is 21:1, a colour on itself
    /// 1:1, #767676 on white the lightest grey that reaches 4.5:1 and
    /// #777777 the first that does not.
    @Test func contrastRatiosAreWCAGs() {
        let white = HudColor(hex: 0xFFFFFF), black = HudColor(hex: 0x000000)
        #expect(abs(HudColor.contrast(black, white) - 21) < 1e-9)
        #expect(HudColor.contrast(white, black) == HudColor.contrast(black, white))
        #expect(HudColor.contrast(HudColor(hex: 0x3366CC), HudColor(hex: 0x3366CC)) == 1)
        #expect(HudColor.contrast(HudColor(hex: 0x767676), white) >= 4.5)
        #expect(HudColor.contrast(HudColor(hex: 0x777777), white) < 4.5)
        #expect(abs(HudColor.relativeLuminance(red: 255, green: 0, blue: 0) - 0.2126) < 1e-12)
    }

    /// Translucent text is judged as painted: composited over its backdrop.
    @Test func translucentTextIsJudgedAsPaintedAndMadeReadable() {
        let white = HudColor(hex: 0xFFFFFF)
        let halfBlack = HudColor(red: 0, green: 0, blue: 0, alpha: 128)
        #expect(halfBlack.composited(over: white) == HudColor(red: 127, green: 127, blue: 127))
        // Readable as it is: kept.
        #expect(HudColor(hex: 0x222222).readable(on: white) == HudColor(hex: 0x222222))
        // Unreadable only because it is translucent: made opaque.
        let faintNavy = HudColor(red: 0, green: 0, blue: 128, alpha: 40)
        #expect(faintNavy.readable(on: white) == HudColor(red: 0, green: 0, blue: 128))
        // Unreadable even opaque: black or white, whichever contrasts more.
        #expect(HudColor(hex: 0xEEEEEE).readable(on: white) == HudColor(hex: 0x000000))
        #expect(HudColor(hex: 0x111111).readable(on: HudColor(hex: 0x000000)) == white)
        #expect(HudColor(hex: 0x999999).readable(on: white, minimum: 2.5) == HudColor(hex: 0x999999))
    }

    /// The byte-wise helpers the sandbox helper uses instead of
    /// `_StringProcessing`: left to right, never overlapping, whole UTF-8.
    @Test func textHelpersWorkOnWholeUTF8LeftToRight() {
        #expect("aaaa".replacingEvery("aa", with: "b") == "bb")
        #expect("aaa".replacingEvery("aa", with: "b") == "ba")
        #expect("héllo wörld".replacingEvery("ö", with: "o") == "héllo world")
        #expect("abc".replacingEvery("", with: "x") == "abc")
        #expect("x".replacingEvery("xyz", with: "q") == "x")
        #expect("une clé 🎉".includes("é 🎉") && !"une clé".includes("e 🎉") && !"abc".includes(""))
        #expect("\u{2003}\t padded \n\u{A0}".trimmingWhitespace() == "padded")
        #expect(" \n\t ".trimmingWhitespace() == "")
        #expect(TextChecks.fromChild("abcdef", limit: 3) == "abc…")
        #expect(TextChecks.fromChild("a\u{1B}[31mred", limit: 100) == "a\\u{1b}[31mred")
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
