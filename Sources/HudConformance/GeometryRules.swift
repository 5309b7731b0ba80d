// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
/// The per-layout rules, as pure functions of one decoded `HudLayout` (the
/// same node list the presenters draw and hit testing reads) and the inputs
/// that produced it. Each returns the problems it found, one sentence each.
/// The geometry checks run them over the device matrix; the fuzz check runs
/// them over random inputs.
enum GeometryRules {
    static let tolerance = 0.01
    static let minimumHit = 44.0

    static func describe(_ node: HudNode, _ index: Int) -> String {
        var name = "node \(index) (\(node.kind)"
        if let position = node.position { name += " \(position)" }
        if let mode = node.modeIndex, node.kind == .modeItem { name += " #\(mode)" }
        return name + ")"
    }

    /// Frames (and interactive hit regions) inside the screen.
    static func onScreen(_ layout: HudLayout, _ environment: HudEnvironment) -> [String] {
        let screen = environment.screen
        var problems: [String] = []
        for (index, node) in layout.nodes.enumerated() {
            if !screen.contains(node.frame, tolerance: 0.5) {
                problems.append("\(describe(node, index)) frame \(Format.rect(node.frame)) is not inside the \(JSONValue.format(screen.width))×\(JSONValue.format(screen.height)) screen")
            }
            if node.isInteractive, !node.hit.isEmpty, !screen.contains(node.hit, tolerance: 0.5) {
                problems.append("\(describe(node, index)) hit region \(Format.rect(node.hit)) is not inside the screen")
            }
        }
        return problems
    }

    /// Interactive: hit ≥ 44×44 containing the frame. Others: zero hit.
    static func hitSize(_ layout: HudLayout) -> [String] {
        var problems: [String] = []
        for (index, node) in layout.nodes.enumerated() {
            if node.isInteractive {
                if node.hit.width < minimumHit - 1e-9 || node.hit.height < minimumHit - 1e-9 {
                    problems.append("\(describe(node, index)) hit region is \(JSONValue.format(node.hit.width))×\(JSONValue.format(node.hit.height)) pt; interactive nodes need at least 44×44")
                } else if !node.hit.contains(node.frame, tolerance: tolerance) {
                    problems.append("\(describe(node, index)) hit region \(Format.rect(node.hit)) does not contain its frame \(Format.rect(node.frame))")
                }
            } else if node.hit != .zero {
                problems.append("\(describe(node, index)) is not interactive but has hit region \(Format.rect(node.hit)); it must be all zero")
            }
        }
        return problems
    }

    struct ControlKey: Hashable {
        var position: Position?
        var part: HudNode.Part?
        var mode: Int?
    }

    /// No two hit regions of different controls overlap. A revealed mode
    /// picker painted above other controls may cover them (hit testing takes
    /// the topmost first).
    static func overlap(_ layout: HudLayout) -> [String] {
        let interactive = layout.nodes.enumerated().filter { $0.element.isInteractive }
        var problems: [String] = []
        for (a, (i, first)) in interactive.enumerated() {
            for (j, second) in interactive[(a + 1)...] {
                let key1 = ControlKey(position: first.position, part: first.part, mode: first.modeIndex)
                let key2 = ControlKey(position: second.position, part: second.part, mode: second.modeIndex)
                guard key1 != key2, first.hit.intersects(second.hit, tolerance: tolerance) else { continue }
                let firstIsPicker = first.kind == .modeItem, secondIsPicker = second.kind == .modeItem
                if firstIsPicker != secondIsPicker {
                    let picker = firstIsPicker ? first : second, other = firstIsPicker ? second : first
                    if picker.z > other.z { continue }
                }
                problems.append("hit regions of \(describe(first, i)) \(Format.rect(first.hit)) and \(describe(second, j)) \(Format.rect(second.hit)) overlap")
            }
        }
        return problems
    }

    /// Nothing interactive in the top or bottom safe-area band.
    static func safeBands(_ layout: HudLayout, _ environment: HudEnvironment) -> [String] {
        let top = environment.safeArea.top
        let bottom = environment.screenSize.height - environment.safeArea.bottom
        var problems: [String] = []
        for (index, node) in layout.nodes.enumerated() where node.isInteractive {
            for (name, rect) in [("frame", node.frame), ("hit region", node.hit)] {
                if top > 0, rect.minY < top - tolerance {
                    problems.append("\(describe(node, index)) \(name) \(Format.rect(rect)) reaches into the top safe-area band (y < \(JSONValue.format(top)))")
                    break
                }
                if environment.safeArea.bottom > 0, rect.maxY > bottom + tolerance {
                    problems.append("\(describe(node, index)) \(name) \(Format.rect(rect)) reaches into the bottom safe-area band (y > \(JSONValue.format(bottom)))")
                    break
                }
            }
        }
        return problems
    }

    /// Each published position shown once or reported hidden; nothing for
    /// empty positions; at most one chip per shown slot with a secondary.
    static func positionsOnce(_ layout: HudLayout, _ spec: ComplicationsSpec, interaction: HudInteraction) -> [String] {
        var problems: [String] = []
        for position in Position.allCases {
            let slots = layout.nodes.filter { $0.kind == .slot && $0.position == position }.count
            let hidden = layout.hiddenPositions.contains(position)
            if let slot = spec.slots[position] {
                if slots > 1 { problems.append("\(position) is drawn \(slots) times; each position appears once") }
                if slots == 0, !hidden { problems.append("\(position) is published but neither drawn nor reported in hidden_positions") }
                if slots > 0, hidden { problems.append("\(position) is drawn and also reported in hidden_positions") }
                let chips = layout.nodes.filter { $0.kind == .secondary && $0.position == position }.count
                if chips > 1 { problems.append("\(position) has \(chips) secondary chips; at most one") }
                if chips > 0, slot.secondary == nil { problems.append("\(position) has a secondary chip but no secondary was published") }
                if chips > 0, slots == 0 { problems.append("\(position)'s chip is drawn without its slot") }
            } else {
                if hidden { problems.append("\(position) is reported hidden but nothing was published there") }
                let stray = layout.nodes.filter { $0.position == position }.count
                if stray > 0 { problems.append("\(stray) node\(stray == 1 ? "" : "s") drawn for \(position), where nothing was published") }
            }
        }
        return problems
    }

    /// Corner chips on the slot's inner side, defined by its position (not
    /// by where it is drawn): right of a leading slot (topLeft, bottomLeft)
    /// and left of a trailing one in LTR, mirrored in RTL (compared by
    /// centres). The center's chip, if a renderer draws one, may go either side.
    static func chipSide(_ layout: HudLayout, _ environment: HudEnvironment) -> [String] {
        var problems: [String] = []
        for (index, chip) in layout.nodes.enumerated() where chip.kind == .secondary {
            guard let position = chip.position, position != .center,
                  let slot = layout.nodes.first(where: { $0.kind == .slot && $0.position == position }) else { continue }
            let leading = position == .topLeft || position == .bottomLeft
            let innerIsRight = leading == (environment.layoutDirection == .leftToRight)
            let isLeft = chip.frame.midX < slot.frame.midX - tolerance
            let isRight = chip.frame.midX > slot.frame.midX + tolerance
            if innerIsRight ? !isRight : !isLeft {
                problems.append("\(describe(chip, index)) at \(Format.rect(chip.frame)) is not on the inner side of its slot \(Format.rect(slot.frame)); the inner side of a \(leading ? "leading" : "trailing") slot is its \(leading ? "trailing" : "leading") side, the \(innerIsRight ? "right" : "left") in \(environment.layoutDirection.rawValue.uppercased())")
            }
        }
        return problems
    }

    /// Mode items exactly when a shown slot's modes are revealed, one per mode.
    static func modePicker(_ layout: HudLayout, _ spec: ComplicationsSpec, _ interaction: HudInteraction) -> [String] {
        let items = layout.nodes.enumerated().filter { $0.element.kind == .modeItem || $0.element.part == .mode }
        var problems: [String] = []
        if let revealed = interaction.revealedPosition, let slot = spec.slots[revealed], !slot.modes.isEmpty,
           layout.nodes.contains(where: { $0.kind == .slot && $0.position == revealed }) {
            let count = slot.modes.count
            var seen = [Int](repeating: 0, count: count)
            for (index, item) in items {
                guard item.kind == .modeItem, item.part == .mode, item.position == revealed, let mode = item.modeIndex, mode < count else {
                    problems.append("\(describe(item, index)) is not a mode item of \(revealed) with a mode_index below \(count)")
                    continue
                }
                seen[mode] += 1
                if !item.isInteractive { problems.append("\(describe(item, index)) is not interactive; mode items are controls") }
            }
            let missing = seen.indices.filter { seen[$0] == 0 }
            let repeated = seen.indices.filter { seen[$0] > 1 }
            if !missing.isEmpty { problems.append("\(revealed)'s modes are revealed but mode item\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of \(count) \(missing.count == 1 ? "is" : "are") missing") }
            if !repeated.isEmpty { problems.append("mode items \(repeated.map(String.init).joined(separator: ", ")) appear more than once") }
        } else if let (index, item) = items.first {
            problems.append("\(describe(item, index)) is drawn but no shown slot's modes are revealed; the picker appears only when the host reveals it")
        }
        return problems
    }

    /// ABI 1.2: in a revealed picker, the item of the mode flagged current
    /// is marked selected and no other item is (a renderer built for 1.0 or
    /// 1.1 never sees the flag, and its selected bit is never read).
    static func currentMode(_ layout: HudLayout, _ spec: ComplicationsSpec, _ interaction: HudInteraction, abi: ABIVersion) -> [String] {
        guard abi.minor >= 2 else { return [] }
        var problems: [String] = []
        for (index, item) in layout.nodes.enumerated() where item.kind == .modeItem && item.isSelected && !item.isHostDrawn {
            let modes = item.position.flatMap { spec.slots[$0]?.modes } ?? []
            guard let mode = item.modeIndex, mode < modes.count, modes[mode].isCurrent else {
                problems.append("\(describe(item, index)) is marked selected (HUD_NODE_FLAG_SELECTED) but its mode is not flagged HUD_MODE_FLAG_CURRENT")
                continue
            }
        }
        if let revealed = interaction.revealedPosition, let current = spec.slots[revealed]?.modes.firstIndex(where: \.isCurrent) {
            let items = layout.nodes.filter { $0.kind == .modeItem && $0.position == revealed && $0.modeIndex == current && !$0.isHostDrawn }
            if let item = items.first, !item.isSelected {
                problems.append("\(revealed)'s mode \(current) is flagged HUD_MODE_FLAG_CURRENT but its item is not marked HUD_NODE_FLAG_SELECTED")
            }
        }
        return problems
    }

    /// Content insets mean what the header says: pt taken from the content
    /// area, which lies below the navigation bar — the top inset measured
    /// from the bar's bottom edge (the safe area's top when there is no
    /// bar), the others from the safe-area edges. Each is finite and ≥ 0;
    /// together they fit the content area (so within the screen); the
    /// bottom-inset chrome lies in the band the bottom inset claims, and a
    /// non-zero bottom or top inset has chrome in its band. A top inset
    /// that counts the bar itself (measured from the safe area's top)
    /// claims a band below the bar with nothing in it.
    static func contentInsets(_ layout: HudLayout, _ environment: HudEnvironment) -> [String] {
        let insets = layout.contentInsets
        let safe = environment.safeRect
        var problems: [String] = []
        for (edge, value) in [("top", insets.top), ("left", insets.left), ("bottom", insets.bottom), ("right", insets.right)]
        where !value.isFinite || value < 0 {
            problems.append("content_insets.\(edge) is \(JSONValue.format(value)); an inset is finite and ≥ 0 pt")
        }
        guard problems.isEmpty else { return problems }
        let contentTop = Self.contentTop(environment)
        let contentHeight = max(0, safe.maxY - contentTop)
        if insets.top + insets.bottom > contentHeight + 0.5 {
            problems.append("content insets top \(JSONValue.format(insets.top)) + bottom \(JSONValue.format(insets.bottom)) exceed the content area's height \(JSONValue.format(contentHeight)) (from the navigation bar's bottom edge, y = \(JSONValue.format(contentTop)), to the bottom safe edge); the top inset is measured from the navigation bar, not from the safe area's top")
        }
        if insets.left + insets.right > safe.width + 0.5 {
            problems.append("content insets left \(JSONValue.format(insets.left)) + right \(JSONValue.format(insets.right)) exceed the safe area's width \(JSONValue.format(safe.width))")
        }
        let line = environment.screenSize.height - environment.safeArea.bottom - insets.bottom
        let chrome = layout.nodes.enumerated().filter { $0.element.placement == .bottomInset }
        for (index, node) in chrome where node.frame.minY < line - 0.5 {
            problems.append("\(describe(node, index)) sits in the bottom inset from y = \(JSONValue.format(node.frame.minY)) but content_insets.bottom (\(JSONValue.format(insets.bottom))) only covers from y = \(JSONValue.format(line))")
        }
        if insets.bottom > 0.5, chrome.isEmpty {
            problems.append("content_insets.bottom is \(JSONValue.format(insets.bottom)) but no node is placed in the bottom inset")
        }
        if insets.top > 0.5 {
            let bandBottom = contentTop + insets.top
            let inBand = layout.nodes.contains { node in
                node.placement != .navigationBar && !node.frame.isEmpty
                    && node.frame.minY >= contentTop - 0.5 && node.frame.minY < bandBottom - 0.5
            }
            if !inBand {
                problems.append("content_insets.top is \(JSONValue.format(insets.top)) but nothing is drawn in that band below the navigation bar (y = \(JSONValue.format(contentTop)) to \(JSONValue.format(bandBottom))); the top inset is measured from the navigation bar's bottom edge and must not count the bar itself")
            }
        }
        return problems
    }

    /// The content area's top edge: the navigation bar's bottom, or the
    /// safe area's top when there is no bar (clamped to the safe area).
    static func contentTop(_ environment: HudEnvironment) -> Double {
        let safe = environment.safeRect
        let bar = environment.navigationBar
        return bar.isEmpty ? safe.minY : min(max(safe.minY, bar.maxY), safe.maxY)
    }

    /// Navigation-bar items inside the bar.
    static func navigationBar(_ layout: HudLayout, _ environment: HudEnvironment) -> [String] {
        let bar = environment.navigationBar
        var problems: [String] = []
        for (index, node) in layout.nodes.enumerated() where node.placement == .navigationBar {
            if !bar.contains(node.frame, tolerance: 0.5) {
                problems.append("\(describe(node, index)) frame \(Format.rect(node.frame)) is placed in the navigation bar but is not inside it \(Format.rect(bar))")
            }
        }
        return problems
    }

    /// The RTL layout against the mirror of the LTR one.
    static func mirror(ltr: HudLayout, rtl: HudLayout, screenWidth: Double) -> [String] {
        guard ltr.nodes.count == rtl.nodes.count else {
            return ["LTR has \(ltr.nodes.count) nodes, RTL has \(rtl.nodes.count)"]
        }
        var problems: [String] = []
        func close(_ a: HudRect, _ b: HudRect) -> Bool {
            abs(a.x - b.x) < 1e-6 && abs(a.y - b.y) < 1e-6 && abs(a.width - b.width) < 1e-6 && abs(a.height - b.height) < 1e-6
        }
        for (index, (left, right)) in zip(ltr.nodes, rtl.nodes).enumerated() {
            var expected = left
            expected.frame = left.frame.mirrored(screenWidth: screenWidth)
            if left.hit != .zero { expected.hit = left.hit.mirrored(screenWidth: screenWidth) }
            if !close(expected.frame, right.frame) {
                problems.append("\(describe(right, index)) frame \(Format.rect(right.frame)) is not the mirror \(Format.rect(expected.frame)) of the LTR frame")
                continue
            }
            if !close(expected.hit, right.hit) {
                problems.append("\(describe(right, index)) hit region \(Format.rect(right.hit)) is not the mirror \(Format.rect(expected.hit))")
                continue
            }
            var rest = right
            rest.frame = expected.frame
            rest.hit = expected.hit
            if rest != expected { problems.append("\(describe(right, index)) differs from its LTR counterpart in a field other than its frame") }
        }
        let a = ltr.contentInsets, b = rtl.contentInsets
        if a.top != b.top || a.bottom != b.bottom || a.left != b.right || a.right != b.left {
            problems.append("content insets are not mirrored (left and right swap in RTL)")
        }
        if ltr.hiddenPositions != rtl.hiddenPositions { problems.append("hidden positions differ between LTR and RTL") }
        return problems
    }

    /// Interactive nodes carry a real accessibility label.
    static func labels(_ layout: HudLayout, _ spec: ComplicationsSpec) -> [String] {
        var problems: [String] = []
        for (index, node) in layout.nodes.enumerated() where node.isInteractive {
            let label = node.accessibilityLabel ?? ""
            if label.allSatisfy(\.isWhitespace) {
                problems.append("\(describe(node, index)) is interactive but its accessibility label is \(node.accessibilityLabel == nil ? "NULL" : "empty")")
                continue
            }
            guard let position = node.position, let slot = spec.slots[position] else { continue }
            var given: String?, icon: String?
            switch node.part {
            case .slot?: (given, icon) = (slot.label, slot.icon)
            case .secondary?: (given, icon) = (slot.secondary?.label, slot.secondary?.icon)
            case .mode?:
                if let mode = node.modeIndex, mode < slot.modes.count { (given, icon) = (slot.modes[mode].label, slot.modes[mode].icon) }
            default: break
            }
            if let given, !given.isEmpty, let icon, label == icon, given != icon {
                problems.append("\(describe(node, index))'s accessibility label is the icon name '\(icon)' although the label '\(ComplicationsSpec.abbreviate(given))' was given")
            }
        }
        return problems
    }

    /// A raw symbol name: dotted, no spaces (`list.bullet`), as no one says it.
    static func isRawSymbolName(_ text: String) -> Bool {
        text.contains(".") && !text.contains(where: \.isWhitespace)
    }

    /// Unlabeled controls are announced by their icon's spoken name ("List"),
    /// not the raw symbol name ('list.bullet'): an interactive node whose
    /// accessibility label is exactly its dotted icon name.
    static func rawSymbolLabels(_ layout: HudLayout) -> [String] {
        layout.nodes.enumerated().compactMap { index, node in
            guard node.isInteractive, let label = node.accessibilityLabel, let icon = node.icon,
                  label == icon, isRawSymbolName(label) else { return nil }
            return "\(describe(node, index)) is announced by the raw symbol name '\(ComplicationsSpec.abbreviate(icon))'; use the label, else the icon's spoken name"
        }
    }

    /// Only supported positions drawn; all of them when all five are published.
    static func supportedPositions(_ layout: HudLayout, _ spec: ComplicationsSpec, supported: Set<Position>) -> [String] {
        let shown = Set(layout.nodes.filter { $0.kind == .slot }.compactMap(\.position))
        var problems: [String] = []
        let extra = shown.subtracting(supported)
        if !extra.isEmpty {
            problems.append("draws \(extra.sorted { $0.rawValue < $1.rawValue }.map(\.description).joined(separator: ", ")), which the descriptor does not list in supported_positions")
        }
        if spec.publishedPositions.count == Position.allCases.count {
            let missing = supported.subtracting(shown)
            if !missing.isEmpty {
                problems.append("declares \(missing.sorted { $0.rawValue < $1.rawValue }.map(\.description).joined(separator: ", ")) as supported but does not draw \(missing.count == 1 ? "it" : "them") when all five are published")
            }
        }
        return problems
    }
}
