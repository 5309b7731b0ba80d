// SPDX-License-Identifier: MIT
// The byte encoding of a layout call's inputs, for a renderer that runs in
// another process (the out-of-process renderer host, Docs/ISOLATION.md):
// the complications (without their closures), the environment and the
// interaction. Little-endian fixed-width numbers, strings as a 32-bit
// length and UTF-8 bytes, optionals as a presence byte. The parent writes
// it into shared memory; the child decodes it with every length checked
// against the bytes there, so a short or corrupt buffer is an error, never
// an out-of-bounds read.

/// Appends values to a byte buffer. Reuse one writer (`reset()`) to encode
/// per call without allocating once its buffer is large enough.
package struct WireWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    package mutating func u8(_ value: UInt8) { bytes.append(value) }

    package mutating func u32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    package mutating func u64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    package mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }

    package mutating func f64(_ value: Double) { u64(value.bitPattern) }

    package mutating func bool(_ value: Bool) { u8(value ? 1 : 0) }

    /// Bytes another encoder made, as they are.
    package mutating func raw(_ value: [UInt8]) { bytes.append(contentsOf: value) }

    package mutating func string(_ value: String) {
        u32(UInt32(truncatingIfNeeded: value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    package mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }
}

/// Why bytes could not be decoded.
package struct WireError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Reads values back, every read bounds-checked.
package struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// True when every byte was read.
    package var isAtEnd: Bool { offset == bytes.count }

    private mutating func take(_ count: Int) throws(WireError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else {
            throw WireError("needs \(count) bytes at offset \(offset) of \(bytes.count)")
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    package mutating func u8() throws(WireError) -> UInt8 { try take(1).first! }

    /// The next `count` bytes as they are (what `WireWriter.raw` wrote).
    package mutating func raw(_ count: Int) throws(WireError) -> [UInt8] { Array(try take(count)) }

    package mutating func u32() throws(WireError) -> UInt32 {
        try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    package mutating func u64() throws(WireError) -> UInt64 {
        try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    package mutating func i32() throws(WireError) -> Int32 { Int32(bitPattern: try u32()) }

    package mutating func f64() throws(WireError) -> Double { Double(bitPattern: try u64()) }

    package mutating func bool() throws(WireError) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        case let other: throw WireError("a boolean byte is \(other)")
        }
    }

    package mutating func string() throws(WireError) -> String {
        let count = Int(try u32())
        let slice = try take(count)
        guard let text = String(validating: slice, as: UTF8.self) else { throw WireError("a string at offset \(offset - count) is not UTF-8") }
        return text
    }

    package mutating func optionalString() throws(WireError) -> String? {
        try bool() ? try string() : nil
    }

    /// A `String`-backed enum value.
    package mutating func rawEnum<T: RawRepresentable>(_ type: T.Type) throws(WireError) -> T where T.RawValue == String {
        let raw = try string()
        guard let value = T(rawValue: raw) else { throw WireError("'\(raw)' is not a \(T.self)") }
        return value
    }
}

extension HudPhoneComplications {
    /// The content (not the closures) as bytes; `init(wire:action:)` reads it back.
    package func wireEncoded() -> [UInt8] {
        var w = WireWriter()
        for position in Position.allCases {
            guard let slot = self[position] else {
                w.bool(false)
                continue
            }
            w.bool(true)
            w.string(slot.icon)
            w.u32(UInt32(slot.role.rawValue))
            w.optionalString(slot.label)
            w.bool(slot.secondary != nil)
            if let secondary = slot.secondary {
                w.string(secondary.icon)
                w.optionalString(secondary.label)
                w.bool(secondary.action != nil)
            }
            let modes = slot.longPressModes
            w.bool(modes != nil)
            w.u32(UInt32(modes?.count ?? 0))
            for mode in modes ?? [] {
                w.string(mode.id)
                w.string(mode.icon)
                w.string(mode.label)
                w.bool(mode.isCurrent)
            }
        }
        return w.bytes
    }

    /// Decodes `wireEncoded()` bytes; every action becomes `action(target)`.
    package init(wire bytes: [UInt8], action: (HudInteraction.Target) -> () -> Void) throws(WireError) {
        var r = WireReader(bytes)
        self.init()
        for position in Position.allCases where try r.bool() {
            let icon = try r.string()
            let roleValue = try r.u32()
            guard let role = Role(rawValue: Int(roleValue)) else { throw WireError("role \(roleValue) is not a Role") }
            let label = try r.optionalString()
            var secondary: Secondary?
            if try r.bool() {
                let chipIcon = try r.string()
                let chipLabel = try r.optionalString()
                secondary = Secondary(icon: chipIcon, label: chipLabel, action: try r.bool() ? action(.secondary(position)) : nil)
            }
            let hasModes = try r.bool()
            let count = Int(try r.u32())
            guard count <= ABILimits.maxModes else { throw WireError("\(count) modes; at most \(ABILimits.maxModes)") }
            var modes: [Mode] = []
            for index in 0..<count {
                modes.append(Mode(id: try r.string(), icon: try r.string(), label: try r.string(), isCurrent: try r.bool(),
                                  action: action(.mode(position, index: index))))
            }
            self[position] = Slot(icon: icon, role: role, label: label, secondary: secondary,
                                  longPressModes: hasModes ? modes : nil, action: action(.slot(position)))
        }
        guard r.isAtEnd else { throw WireError("bytes left over after the complications") }
    }
}

extension HudEnvironment {
    /// Every field as bytes (appended to `w`).
    package func wireEncode(into w: inout WireWriter) {
        w.f64(screenSize.width)
        w.f64(screenSize.height)
        for value in [safeArea.top, safeArea.left, safeArea.bottom, safeArea.right, scale, textScale,
                      navigationBar.x, navigationBar.y, navigationBar.width, navigationBar.height] {
            w.f64(value)
        }
        w.string(layoutDirection.rawValue)
        w.string(colorScheme.rawValue)
        w.string(appearance.rawValue)
        w.optionalString(navigationTitle)
        w.u32(accessibility.rawValue)
        w.bool(paletteOverride != nil)
        if let palette = paletteOverride {
            for color in palette.allColors { w.u32(color.rgba) }
        }
        w.i32(presentation.rawValue)
        for value in [reservedLanes.top, reservedLanes.left, reservedLanes.bottom, reservedLanes.right] { w.f64(value) }
    }

    package init(wire r: inout WireReader) throws(WireError) {
        let size = HudSize(width: try r.f64(), height: try r.f64())
        let safeArea = HudInsets(top: try r.f64(), left: try r.f64(), bottom: try r.f64(), right: try r.f64())
        let scale = try r.f64(), textScale = try r.f64()
        let bar = HudRect(x: try r.f64(), y: try r.f64(), width: try r.f64(), height: try r.f64())
        let direction = try r.rawEnum(HudLayoutDirection.self)
        let scheme = try r.rawEnum(HudColorScheme.self)
        let appearance = try r.rawEnum(HudPhoneAppShellAppearance.self)
        let title = try r.optionalString()
        let accessibility = AccessibilityOptions(rawValue: try r.u32())
        var palette: HudPalette?
        if try r.bool() {
            var colors: [HudColor] = []
            for _ in 0..<HudPalette.colorCount { colors.append(HudColor(rgba: try r.u32())) }
            palette = HudPalette(allColors: colors)
        }
        let presentationValue = try r.i32()
        guard let presentation = HudPresentationState(rawValue: presentationValue) else {
            throw WireError("presentation \(presentationValue) is not a HudPresentationState")
        }
        let lanes = HudInsets(top: try r.f64(), left: try r.f64(), bottom: try r.f64(), right: try r.f64())
        self.init(screenSize: size, safeArea: safeArea, scale: scale, layoutDirection: direction, colorScheme: scheme,
                  appearance: appearance, textScale: textScale, navigationBar: bar, navigationTitle: title,
                  accessibility: accessibility, paletteOverride: palette)
        self.presentation = presentation
        self.reservedLanes = lanes
    }
}

extension HudInteraction {
    package func wireEncode(into w: inout WireWriter) {
        switch pressed {
        case nil: w.u8(0)
        case .slot(let position)?: w.u8(1); w.u8(UInt8(position.rawValue))
        case .secondary(let position)?: w.u8(2); w.u8(UInt8(position.rawValue))
        case .mode(let position, let index)?: w.u8(3); w.u8(UInt8(position.rawValue)); w.u32(UInt32(clamping: index))
        }
        w.u8(revealedPosition.map { UInt8($0.rawValue) } ?? 0xFF)
    }

    package init(wire r: inout WireReader) throws(WireError) {
        func position(_ raw: UInt8) throws(WireError) -> Position {
            guard let position = Position(rawValue: Int(raw)) else { throw WireError("position \(raw) is not a Position") }
            return position
        }
        self.init()
        switch try r.u8() {
        case 0: break
        case 1: pressed = .slot(try position(try r.u8()))
        case 2: pressed = .secondary(try position(try r.u8()))
        case 3:
            let at = try position(try r.u8())
            pressed = .mode(at, index: Int(try r.u32()))
        case let other: throw WireError("pressed kind \(other)")
        }
        let revealed = try r.u8()
        revealedPosition = revealed == 0xFF ? nil : try position(revealed)
    }
}
