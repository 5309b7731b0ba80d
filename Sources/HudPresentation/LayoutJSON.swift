// SPDX-License-Identifier: MIT
package import HudModel
/// The JSON form of layouts and renderer descriptions. The schema is
/// documented in Docs/JSON.md and Docs/schemas/; every document carries
/// `schemaVersion` first.
package enum LayoutJSON {
    package static let schemaVersion = 1

    package static func rect(_ r: HudRect) -> JSONValue {
        .object([("x", .number(r.x)), ("y", .number(r.y)), ("width", .number(r.width)), ("height", .number(r.height))])
    }

    package static func insets(_ i: HudInsets) -> JSONValue {
        .object([("top", .number(i.top)), ("left", .number(i.left)), ("bottom", .number(i.bottom)), ("right", .number(i.right))])
    }

    static func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }

    package static func node(_ n: HudNode) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("kind", .string(n.kind.description)),
            ("position", optional(n.position?.description)),
            ("part", optional(n.part?.description)),
            ("modeIndex", n.modeIndex.map { .number(Double($0)) } ?? .null),
            ("frame", rect(n.frame)),
            ("hit", rect(n.hit)),
            ("shape", .string(n.shape.description)),
            ("material", .string(n.material.description)),
            ("cornerRadius", .number(n.cornerRadius)),
            ("strokeWidth", .number(n.strokeWidth)),
            ("fontSize", .number(n.fontSize)),
            ("fill", .string(n.fill.description)),
            ("stroke", .string(n.stroke.description)),
            ("iconColor", .string(n.iconColor.description)),
            ("textColor", .string(n.textColor.description)),
            ("placement", .string(n.placement.description)),
            ("z", .number(Double(n.z))),
            ("pressed", .bool(n.isPressed)),
            ("interactive", .bool(n.isInteractive)),
            ("icon", optional(n.icon)),
            ("label", optional(n.label)),
            ("accessibilityLabel", optional(n.accessibilityLabel)),
            ("glyphSize", .number(n.glyphSize)),
            ("accessibilityActions", .array(n.accessibilityActions.map { .number(Double($0)) })),
        ]
        // Only a mode item drawn as current (ABI 1.2) carries `selected`.
        if n.isSelected { members.append(("selected", .bool(true))) }
        // Only the shell's own (control deck) nodes carry these two, so a
        // renderer's node reads exactly as before.
        if n.isHostDrawn {
            members.append(("hostDrawn", .bool(true)))
            members.append(("deckControl", optional(n.deckControl?.rawValue)))
        }
        return .object(members)
    }

    /// The control deck's state (`HudLayout.deck`).
    package static func deck(_ deck: HudDeckStatus) -> JSONValue {
        .object([
            ("presentation", .string(deck.presentation.description)),
            ("accessibilityFocus", optional(deck.accessibilityFocus?.rawValue)),
            ("contentHiddenFromAccessibility", .bool(deck.contentHiddenFromAccessibility)),
            ("inactivityTimeout", .number(deck.inactivityTimeout)),
            ("lastInteraction", deck.lastInteraction.map(JSONValue.number) ?? .null),
            ("collapseDeadline", deck.collapseDeadline.map(JSONValue.number) ?? .null),
            ("suspendedBy", .array(deck.suspendedBy.map { .string($0.rawValue) })),
            ("reservedLanes", insets(deck.reservedLanes)),
        ])
    }

    package static func layout(_ layout: HudLayout) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("contentInsets", insets(layout.contentInsets)),
            ("hiddenPositions", .array(Position.allCases.filter(layout.hiddenPositions.contains).map { .string($0.description) })),
        ]
        if let status = layout.deck { members.append(("deck", deck(status))) }
        members.append(("nodes", .array(layout.nodes.map(node))))
        return .object(members)
    }

    package static func environment(_ e: HudEnvironment) -> JSONValue {
        .object([
            ("screen", .object([("width", .number(e.screenSize.width)), ("height", .number(e.screenSize.height))])),
            ("safeArea", insets(e.safeArea)),
            ("scale", .number(e.scale)),
            ("layoutDirection", .string(e.layoutDirection.rawValue)),
            ("colorScheme", .string(e.colorScheme.rawValue)),
            ("chromeScheme", .string(e.chromeScheme.rawValue)),
            ("appearance", .string(e.appearance.rawValue)),
            ("textScale", .number(e.textScale)),
            ("navigationBar", rect(e.navigationBar)),
            ("navigationTitle", optional(e.navigationTitle)),
            ("presentation", .string(e.presentation.description)),
            ("reservedLanes", insets(e.reservedLanes)),
        ])
    }

    package static func renderer(_ info: RendererInfo) -> JSONValue {
        .object([
            ("id", .string(info.id)),
            ("name", .string(info.name)),
            ("version", .string(info.version)),
            ("vendor", .string(info.vendor)),
            ("description", .string(info.summary)),
            ("abiVersion", .string(info.abiVersion.description)),
            ("origin", .string(info.origin.description)),
            ("builtin", .bool(info.origin == .builtin)),
            ("supportedPositions", .array(Position.allCases.filter(info.supportedPositions.contains).map { .string($0.description) })),
            ("capabilities", .array(info.capabilities.names.map(JSONValue.string))),
        ])
    }

    package static func interaction(_ interaction: HudInteraction) -> JSONValue {
        .object([
            ("pressed", interaction.pressed.map { .string($0.name) } ?? .null),
            ("revealedPosition", interaction.revealedPosition.map { .string($0.description) } ?? .null),
        ])
    }

    package static func error(_ error: RegistryError) -> JSONValue {
        .object([
            ("code", .string(error.code.rawValue)),
            ("path", optional(error.path)),
            ("rendererId", optional(error.rendererID)),
            ("message", .string(error.description)),
        ])
    }
}
