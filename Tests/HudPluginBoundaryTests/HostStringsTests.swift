// SPDX-License-Identifier: MIT
@testable import HudPluginBoundary
import HudRendererAPI
import Testing
@testable import HudRegistry

/// The validator's fast path for node strings that point into host-made
/// input bytes (`HostStrings`), at its boundaries: only bytes inside a
/// trusted range, starting on a character boundary, in a range whose
/// longest string fits the field's limit, skip the full check; everything
/// else, one byte outside included, is read and judged as before.
struct HostStringsTests {
    /// Validates one all-zero (valid) 1.1 node whose `label` (or `icon`)
    /// is `pointer`, trusting `strings`.
    private static func validate(label pointer: UnsafeRawPointer, icon: Bool = false,
                                 trusting strings: HostStrings) throws(LayoutValidator.Violation) {
        let stride = MemoryLayout<hud_node_t>.stride
        let node = UnsafeMutablePointer<hud_node_t>.allocate(capacity: 1)
        defer { node.deallocate() }
        node.initialize(to: hud_node_t())
        let string = pointer.assumingMemoryBound(to: CChar.self)
        if icon { node.pointee.icon = string } else { node.pointee.label = string }
        var output = hud_layout_t()
        output.count = 1
        try LayoutValidator.validate(output, nodes: UnsafeRawPointer(node), stride: stride,
                                     contract: NodeContract(abi: .host, stride: stride, modes: .none), trusting: strings)
    }

    /// `bytes` in a block of their own; `body` gets its start.
    private static func withBytes<R>(_ bytes: [UInt8], _ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        let block = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 8)
        defer { block.deallocate() }
        block.copyMemory(from: bytes, byteCount: bytes.count)
        return try body(block)
    }

    private static func isInvalidUTF8(_ violation: LayoutValidator.Violation) -> Bool {
        if case .string(.invalidUTF8) = violation.problem { return true }
        return false
    }

    /// Byte sequences around every boundary of UTF-8's well-formedness table.
    static let utf8Cases: [[UInt8]] = [
        [], [0x41], Array("plain ascii, longer than eight bytes".utf8), Array("é".utf8), Array("€".utf8), Array("𝄞".utf8),
        [0xC2, 0x80], [0xDF, 0xBF], [0xC0, 0x80], [0xC1, 0xBF],          // overlong 2-byte
        [0xE0, 0xA0, 0x80], [0xE0, 0x9F, 0xBF],                           // overlong 3-byte
        [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80],                           // surrogates
        [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
        [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], // above U+10FFFF
        [0x80], [0xBF], [0xFE], [0xFF],                                   // stray bytes
        [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98],                         // truncated
        [0xE2, 0x28, 0xA1], [0xC3, 0x41],                                 // bad continuation
        Array("12345678é".utf8), Array("1234567é".utf8), Array("é1234567".utf8), Array("abcdefghijklmnop\u{80}".utf8),
    ]

    /// A node string the host did not make is read and judged: accepted
    /// exactly when it is well-formed UTF-8 (the standard library's rule),
    /// with a non-ASCII byte at every offset of ASCII runs too, refused as
    /// `invalidUTF8` otherwise.
    @Test func aStringTheHostDidNotMakeIsAcceptedExactlyWhenItIsWellFormedUTF8() {
        var cases = Self.utf8Cases
        for length in 0...24 {
            for offset in 0...length {
                for byte: UInt8 in [0x80, 0xC3, 0xFF] {
                    var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                    bytes.insert(byte, at: offset)
                    cases.append(bytes)
                }
            }
        }
        for bytes in cases {
            let wellFormed = String(validating: bytes, as: UTF8.self) != nil
            let verdict: Result<Void, LayoutValidator.Violation> = Self.withBytes(bytes + [0]) { block in
                Result { () throws(LayoutValidator.Violation) in try Self.validate(label: block, trusting: .none) }
            }
            switch verdict {
            case .success: #expect(wellFormed, "accepted \(bytes.map { String($0, radix: 16) })")
            case .failure(let violation):
                #expect(!wellFormed && Self.isInvalidUTF8(violation), "refused \(bytes.map { String($0, radix: 16) }): \(violation.problem)")
            }
        }
    }

    /// At every boundary, in every double field, a node is accepted
    /// exactly when the documented rule says so
    /// (coordinates finite within ±1e7, lengths finite in 0...1e7).
    @Test(arguments: [0.0, -0.0, 1, -1, 1e7, 1e7.nextUp, 1e7.nextDown, -1e7, (-1e7).nextDown, 9_999_999.5,
                      .nan, -.nan, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 4096.25, -4096.25])
    func theScalarChecksAgreeWithTheRuleAtTheBoundaries(_ value: Double) {
        let coordinates: [WritableKeyPath<hud_node_t, Double>] = [\.frame.x, \.frame.y, \.hit.x, \.hit.y]
        let lengths: [WritableKeyPath<hud_node_t, Double>] = [\.frame.width, \.frame.height, \.hit.width, \.hit.height,
                                                              \.corner_radius, \.stroke_width, \.font_size, \.glyph_size]
        let coordinateOK = value.isFinite && abs(value) <= 1e7
        let lengthOK = value.isFinite && value >= 0 && value <= 1e7
        for (field, expected) in coordinates.map({ ($0, coordinateOK) }) + lengths.map({ ($0, lengthOK) }) {
            let stride = MemoryLayout<hud_node_t>.stride
            let node = UnsafeMutablePointer<hud_node_t>.allocate(capacity: 1)
            defer { node.deallocate() }
            node.initialize(to: hud_node_t())
            node.pointee[keyPath: field] = value
            var output = hud_layout_t()
            output.count = 1
            let accepted = (try? LayoutValidator.validate(output, nodes: UnsafeRawPointer(node), stride: stride,
                                                          contract: NodeContract(abi: .host, stride: stride, modes: .none))) != nil
            #expect(accepted == expected, "\(field) = \(value)")
        }
    }

    @Test func aRangeContainsExactlyItsBytes() {
        Self.withBytes([0, 0, 0, 0, 0, 0]) { block in
            let range = HostStrings.Range(start: block + 1, count: 4, longest: 3)
            let base = UInt(bitPattern: block)
            #expect(!range.contains(base))
            #expect(range.contains(base + 1))
            #expect(range.contains(base + 4))
            #expect(!range.contains(base + 5))
            #expect(!HostStrings.Range.empty.contains(0))
        }
    }

    @Test func aStringJustOutsideTheArenaStillGetsTheFullCheck() throws {
        // 0xFF "ab" NUL 0xFF NUL: the arena is the middle "ab\0".
        try Self.withBytes([0xFF, 0x61, 0x62, 0x00, 0xFF, 0x00]) { block in
            let strings = HostStrings(arena: .init(start: block + 1, count: 3, longest: 2), title: .empty)
            try Self.validate(label: block + 1, trusting: strings)  // inside: accepted
            try Self.validate(label: block + 3, trusting: strings)  // its last byte (the NUL): an empty string
            for outside in [block, block + 4] {  // one byte before, one byte past
                let error = #expect(throws: LayoutValidator.Violation.self) {
                    try Self.validate(label: outside, trusting: strings)
                }
                #expect(error.map(Self.isInvalidUTF8) == true)
            }
            // The title's range is judged the same way.
            let title = HostStrings(arena: .empty, title: .init(start: block + 1, count: 3, longest: 2))
            try Self.validate(label: block + 2, trusting: title)
            #expect(throws: LayoutValidator.Violation.self) { try Self.validate(label: block + 4, trusting: title) }
        }
    }

    @Test func aPointerIntoTheMiddleOfACharacterGetsTheFullCheck() throws {
        // "é" (C3 A9) NUL: the arena's bytes are valid UTF-8, the suffix
        // from the continuation byte is not.
        try Self.withBytes([0xC3, 0xA9, 0x00]) { block in
            let strings = HostStrings(arena: .init(start: block, count: 3, longest: 2), title: .empty)
            try Self.validate(label: block, trusting: strings)
            let error = #expect(throws: LayoutValidator.Violation.self) {
                try Self.validate(label: block + 1, trusting: strings)
            }
            #expect(error.map(Self.isInvalidUTF8) == true)
        }
    }

    @Test func anArenaWithAStringLongerThanTheFieldsLimitIsNotTrustedForThatField() throws {
        let limit = Int(HUD_MAX_ICON_BYTES)
        try Self.withBytes([UInt8](repeating: 0x61, count: limit + 1) + [0]) { block in
            let strings = HostStrings(arena: .init(start: block, count: limit + 2, longest: limit + 1), title: .empty)
            try Self.validate(label: block, trusting: strings)  // within the label limit
            let error = #expect(throws: LayoutValidator.Violation.self) {
                try Self.validate(label: block, icon: true, trusting: strings)
            }
            if case .string(.tooLong)? = error?.problem {} else { Issue.record("expected tooLong, got \(String(describing: error))") }
        }
    }

    @Test func theSnapshotsArenaHoldsEveryStringOfItsView() throws {
        let complications = HudPhoneComplications(
            topLeft: .init(icon: "person", label: "Ünïcödé", secondary: .init(icon: "bell", label: "3")) {},
            center: .init(icon: "plus", longPressModes: [.init(id: "a", icon: "camera", label: "Photo") {}]) {}
        )
        let snapshot = try CComplications(complications)
        let arena = snapshot.stringArena
        #expect(arena.longest == "Ünïcödé".utf8.count)
        func inArena(_ pointer: UnsafePointer<CChar>?) -> Bool { pointer.map { arena.contains(UInt(bitPattern: $0)) } ?? false }
        let slots = withUnsafeBytes(of: snapshot.view.pointee.slots) { Array($0.bindMemory(to: UnsafePointer<hud_slot_t>?.self)) }
        let leading = try #require(slots[Position.topLeft.rawValue]).pointee
        #expect(inArena(leading.icon) && inArena(leading.label))
        #expect(inArena(leading.secondary?.pointee.icon) && inArena(leading.secondary?.pointee.label))
        let center = try #require(slots[Position.center.rawValue]).pointee
        let mode = try #require(center.modes?[0]).pointee
        #expect(inArena(center.icon) && inArena(mode.id) && inArena(mode.icon) && inArena(mode.label))
    }
}
