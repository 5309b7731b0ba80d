// SPDX-License-Identifier: MIT
package import HudModel

/// What a screen reader is given for one layout: every interactive node in
/// emission order (the order the renderer chose to present them), with its
/// spoken label and, on a slot, the named actions it offers (ABI 1.1
/// `accessibility_actions`: the slot's long-press modes, each named by its
/// label). The JSON output's `accessibility` array (Docs/JSON.md).
package struct AccessibilityModel: Sendable, Hashable {
    package struct Element: Sendable, Hashable {
        /// The target a tap on it (an activation) runs, e.g. `slot:center`.
        package var target: String
        /// The spoken label (the node's accessibility label; empty if it had none).
        package var label: String
        /// Named custom actions, in the order a screen reader lists them:
        /// the labels of the modes the slot offers.
        package var actions: [Action]
    }

    /// One named accessibility action: a long-press mode of the slot.
    package struct Action: Sendable, Hashable {
        package var modeIndex: Int
        package var modeID: String
        package var label: String
    }

    package var elements: [Element]

    /// The model of `layout` for the published `complications` (whose modes
    /// name the actions). A mode index the complications do not have is
    /// left out (the host has already refused such a layout).
    package init(layout: HudLayout, complications: HudPhoneComplications?) {
        elements = layout.nodes.compactMap { node -> Element? in
            guard node.isInteractive, let position = node.position, let target = Self.target(node, position) else { return nil }
            let modes = complications?[position]?.longPressModes ?? []
            let actions = node.kind == .slot ? node.accessibilityActions.compactMap { index -> Action? in
                guard modes.indices.contains(index) else { return nil }
                return Action(modeIndex: index, modeID: modes[index].id, label: modes[index].label)
            } : []
            return Element(target: target, label: node.accessibilityLabel ?? "", actions: actions)
        }
    }

    private static func target(_ node: HudNode, _ position: Position) -> String? {
        let target: HudInteraction.Target? = switch node.kind {
        case .slot: .slot(position)
        case .secondary: .secondary(position)
        case .modeItem: node.modeIndex.map { .mode(position, index: $0) }
        case .container: nil
        }
        return target?.name
    }

    /// The `accessibility` array of the JSON output.
    package var json: JSONValue {
        .array(elements.map { element in
            .object([
                ("target", .string(element.target)),
                ("label", .string(element.label)),
                ("actions", .array(element.actions.map { action in
                    .object([("modeIndex", .number(Double(action.modeIndex))), ("id", .string(action.modeID)),
                             ("label", .string(action.label))])
                })),
            ])
        })
    }
}
