// SPDX-License-Identifier: MIT
import Testing
@testable import HudModel

/// The bytes a renderer host child rebuilds its inputs from (HudWire.swift):
/// every field survives the trip, every action comes back bound to its own
/// target, and bytes that were cut short or hold an unknown value are an
/// error, never a crash or a guess.
struct WireTests {
    static var complications: HudPhoneComplications { HudPhoneComplications(
        topLeft: .init(icon: "list.bullet", role: .standard, action: {}),
        topRight: .init(icon: "bell", role: .accent, label: "Alerts",
                        secondary: .init(icon: "bell.badge", label: "3"), action: {}),
        bottomLeft: nil,
        bottomRight: .init(icon: "trash", role: .destructive, label: nil,
                           secondary: .init(icon: "arrow.uturn.backward", label: "Undo", action: {}), action: {}),
        center: .init(icon: "paintbrush", label: "Style", longPressModes: [
            .init(id: "tray", icon: "tray", label: "Tray", isCurrent: true, action: {}),
            .init(id: "minimal", icon: "circle", label: "Minimal", action: {}),
        ], action: {})) }

    @Test func complicationsRoundTripWithEveryActionBoundToItsTarget() throws {
        let bytes = Self.complications.wireEncoded()
        var called: [HudInteraction.Target] = []
        let decoded = try HudPhoneComplications(wire: bytes) { target in { called.append(target) } }
        #expect(decoded.wireEncoded() == bytes)
        #expect(decoded.bottomLeft == nil && decoded.topLeft?.label == nil && decoded.topRight?.label == "Alerts")
        #expect(decoded.topRight?.secondary?.action == nil, "a badge stays a badge")
        #expect(decoded.center?.longPressModes?.map(\.isCurrent) == [true, false])
        decoded.topLeft?.action()
        decoded.bottomRight?.secondary?.action?()
        decoded.center?.longPressModes?[1].action()
        #expect(called == [.slot(.topLeft), .secondary(.bottomRight), .mode(.center, index: 1)])
    }

    @Test func environmentAndInteractionRoundTripEveryField() throws {
        var environment = HudEnvironment(device: .iphone16Pro, orientation: .landscape, layoutDirection: .rightToLeft, colorScheme: .light,
                                         appearance: .system, textSize: .accessibility3, navigationTitle: "Inbox",
                                         accessibility: [.reduceMotion, .increaseContrast])
        environment.paletteOverride = .light
        environment.presentation = .deckExpanded
        environment.reservedLanes = HudInsets(top: 1, left: 2, bottom: 3, right: 4)
        let interactions = [HudInteraction(), HudInteraction(pressed: .slot(.center)), HudInteraction(pressed: .secondary(.topRight)),
                            HudInteraction(pressed: .mode(.center, index: 7), revealedPosition: .center)]
        for interaction in interactions {
            var w = WireWriter()
            environment.wireEncode(into: &w)
            interaction.wireEncode(into: &w)
            var r = WireReader(w.bytes)
            #expect(try HudEnvironment(wire: &r) == environment)
            #expect(try HudInteraction(wire: &r) == interaction)
            #expect(r.isAtEnd)
        }
    }

    /// Every cut of a valid encoding is refused (the child then answers
    /// `callFailed`, and the parent stops it): no prefix decodes.
    @Test func everyTruncationIsAnError() {
        let complications = Self.complications.wireEncoded()
        for length in 0..<complications.count {
            #expect(throws: WireError.self, "\(length) of \(complications.count) bytes") {
                try HudPhoneComplications(wire: Array(complications.prefix(length))) { _ in {} }
            }
        }
        var w = WireWriter()
        HudEnvironment(device: .iphoneSE).wireEncode(into: &w)
        for length in 0..<w.bytes.count {
            #expect(throws: WireError.self, "\(length) of \(w.bytes.count) bytes") {
                var r = WireReader(Array(w.bytes.prefix(length)))
                _ = try HudEnvironment(wire: &r)
            }
        }
    }

    @Test func unknownValuesAndExcessAreRefused() {
        // A role, a pressed kind and a position outside their enums.
        var slot = WireWriter()
        slot.bool(true); slot.string("x"); slot.u32(9)
        #expect(throws: WireError.self) { try HudPhoneComplications(wire: slot.bytes) { _ in {} } }
        #expect(throws: WireError.self) { var r = WireReader([4, 0xFF]); _ = try HudInteraction(wire: &r) }
        #expect(throws: WireError.self) { var r = WireReader([1, 5, 0xFF]); _ = try HudInteraction(wire: &r) }
        // More modes than the ABI allows, refused at the count.
        var modes = WireWriter()
        modes.bool(true); modes.string("x"); modes.u32(0); modes.optionalString(nil); modes.bool(false); modes.bool(true)
        modes.u32(UInt32(ABILimits.maxModes + 1))
        #expect(throws: WireError.self) { try HudPhoneComplications(wire: modes.bytes) { _ in {} } }
        // Bytes after the complications.
        #expect(throws: WireError.self) { try HudPhoneComplications(wire: Self.complications.wireEncoded() + [0]) { _ in {} } }
        // A string whose length runs past the end.
        #expect(throws: WireError.self) { var r = WireReader([0xFF, 0xFF, 0, 0, 65]); _ = try r.string() }
    }
}
