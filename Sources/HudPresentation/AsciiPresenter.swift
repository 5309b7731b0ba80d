// SPDX-License-Identifier: MIT
public import HudModel
/// Draws a layout to scale in the terminal, like the seed's diagram: the
/// screen outline, the navigation bar with its title, containers (the tray,
/// the mode picker) as boxes, slots as `(TL)`-style buttons, secondary chips
/// as `s`, mode items by label; the control deck's pivot `(P)`, close
/// button `(X)` and the edges of the lanes it reserves `┄`, its backdrop
/// (full-screen and clear) only in the legend. Reads the same nodes every
/// other presenter reads; lays out nothing itself.
public struct AsciiPresenter {
    public var columns: Int

    public init(columns: Int = 48) {
        self.columns = max(20, columns)
    }

    public func render(_ layout: HudLayout, environment: HudEnvironment) -> String {
        let width = environment.screenSize.width
        let height = environment.screenSize.height
        // A terminal cell is about twice as tall as it is wide.
        let pointsPerColumn = width / Double(columns - 2)
        let pointsPerRow = pointsPerColumn * 2
        let rows = max(8, Int((height / pointsPerRow).rounded()) + 2)
        var canvas = Canvas(columns: columns, rows: rows)

        func column(_ x: Double) -> Int { 1 + Int((x / pointsPerColumn).rounded(.down)) }
        func row(_ y: Double) -> Int { 1 + Int((y / pointsPerRow).rounded(.down)) }
        func cells(_ r: HudRect) -> (c0: Int, r0: Int, c1: Int, r1: Int) {
            let c0 = column(r.minX), r0 = row(r.minY)
            let c1 = max(c0, column(r.maxX) - (r.maxX.truncatingRemainder(dividingBy: pointsPerColumn) == 0 ? 1 : 0))
            let r1 = max(r0, row(r.maxY) - (r.maxY.truncatingRemainder(dividingBy: pointsPerRow) == 0 ? 1 : 0))
            return (c0, r0, c1, r1)
        }

        canvas.box(c0: 0, r0: 0, c1: columns - 1, r1: rows - 1, corners: ("+", "+", "+", "+"))
        // Safe-area bands and the navigation bar.
        let bar = environment.navigationBar
        if bar.height > 0 {
            let barRow = row(bar.maxY)
            canvas.horizontal(row: min(barRow, rows - 2), from: 1, to: columns - 2, char: "·")
            if let title = environment.navigationTitle {
                canvas.text(TextChecks.escapingControls(title), row: max(1, min(row(bar.midY), rows - 2)), centeredIn: 1...(columns - 2))
            }
        }
        if environment.safeArea.bottom > 0 {
            canvas.horizontal(row: min(rows - 2, row(height - environment.safeArea.bottom)), from: 1, to: columns - 2, char: "·")
        }
        // A container gets at least three rows, so a one-row picker card
        // keeps an interior row for its labels between its borders.
        func boxCells(_ r: HudRect) -> (c0: Int, r0: Int, c1: Int, r1: Int) {
            var box = cells(r)
            if box.r1 - box.r0 < 2 {
                box.r1 = min(box.r0 + 2, rows - 2)
                box.r0 = max(1, box.r1 - 2)
            }
            return box
        }
        if let deck = layout.deck {
            // The deck's lanes: the top lane's bottom edge, the bottom lane's top edge.
            let lanes = deck.reservedLanes
            if lanes.top > 0 {
                let top = bar.isEmpty ? environment.safeRect.minY : max(environment.safeRect.minY, bar.maxY)
                canvas.horizontal(row: min(rows - 2, row(top + lanes.top)), from: 1, to: columns - 2, char: "┄")
            }
            if lanes.bottom > 0 {
                canvas.horizontal(row: max(1, min(rows - 2, row(environment.safeRect.maxY - lanes.bottom) - 1)), from: 1, to: columns - 2, char: "┄")
            }
        }
        let labels = Self.modeLabels(layout, cells: cells, cardCells: boxCells)
        let painted = layout.nodes.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }
        for (index, node) in painted {
            let (c0, r0, c1, r1) = node.kind == .container ? boxCells(node.frame) : cells(node.frame)
            switch node.kind {
            case .container where node.deckControl == .backdrop:
                continue  // clear and full-screen: only the legend names it
            case .container:
                canvas.fill(c0: c0, r0: r0, c1: c1, r1: r1, char: " ")
                if node.shape == .capsule {
                    canvas.capsule(c0: c0, r0: r0, c1: c1, r1: r1)
                } else {
                    canvas.box(c0: c0, r0: r0, c1: c1, r1: r1, corners: ("╭", "╮", "╰", "╯"), horizontal: "─", vertical: "│")
                }
            case .slot:
                let code = node.deckControl.map(Self.code) ?? node.position.map(Self.code) ?? "?"
                let text = node.isPressed ? "(*\(code)*)" : "(\(code))"
                canvas.text(text, row: (r0 + r1) / 2, centeredIn: c0...c1)
            case .secondary:
                canvas.text(node.isInteractive ? "S" : "s", row: (r0 + r1) / 2, centeredIn: c0...c1)
            case .modeItem:
                guard let label = labels[index] else { continue }
                canvas.text(label.text, row: label.row, centeredIn: label.column...(label.column + label.text.count - 1))
            }
        }
        return canvas.lines.map { String($0) }.joined(separator: "\n") + "\n"
    }

    /// Where each mode item's label goes and what it says. Labels on one row
    /// share the row's columns — inside the picker's card, so its border
    /// stays — with a blank column between neighbours: each `[label]` is
    /// centred on its item when there is room, pushed aside when it would
    /// touch another, and when the row is too narrow for every label in
    /// full the columns are shared out (short labels keep theirs) and the
    /// rest cut with `…`. Two labels never merge; the legend below the
    /// picture always has every label in full.
    static func modeLabels(_ layout: HudLayout, cells: (HudRect) -> (c0: Int, r0: Int, c1: Int, r1: Int),
                           cardCells: (HudRect) -> (c0: Int, r0: Int, c1: Int, r1: Int))
        -> [Int: (row: Int, column: Int, text: String)] {
        let cards = layout.nodes.filter { $0.kind == .container && $0.part == .container }
        struct Item { var index: Int; var center: Int; var label: String }
        var rows: [Int: (items: [Item], low: Int, high: Int)] = [:]
        for (index, node) in layout.nodes.enumerated() where node.kind == .modeItem {
            let cell = cells(node.frame)
            var c0 = cell.c0, c1 = cell.c1
            let center = (c0 + c1) / 2
            var row = (cell.r0 + cell.r1) / 2
            // Inside the card that holds it, if any: its border stays visible.
            if let card = cards.first(where: { $0.position == node.position && $0.frame.contains(node.frame, tolerance: 0.5) }) {
                let box = cardCells(card.frame)
                c0 = box.c0 + 1
                c1 = box.c1 - 1
                if box.r1 - box.r0 >= 2 { row = min(max(row, box.r0 + 1), box.r1 - 1) }
            }
            // The current mode (ABI 1.2 selected item) is ticked.
            let text = TextChecks.escapingControls(node.label ?? node.icon ?? "?")
            let item = Item(index: index, center: center, label: node.isSelected ? "✓" + text : text)
            let existing = rows[row]
            rows[row] = ((existing?.items ?? []) + [item], min(existing?.low ?? c0, c0), max(existing?.high ?? c1, c1))
        }
        var placed: [Int: (row: Int, column: Int, text: String)] = [:]
        for (row, line) in rows {
            let items = line.items.sorted { ($0.center, $0.index) < ($1.center, $1.index) }
            let room = line.high - line.low + 1 - (items.count - 1)
            let widths = share(room, among: items.map { $0.label.count + 2 })
            var starts = zip(items, widths).map { item, width in item.center - (width - 1) / 2 }
            // Left to right: inside the row, a blank column after the previous label.
            for i in starts.indices {
                starts[i] = max(starts[i], line.low, i > 0 ? starts[i - 1] + widths[i - 1] + 1 : line.low)
            }
            // Right to left: back inside the row, still a blank column apart.
            for i in starts.indices.reversed() {
                let limit = i + 1 < starts.count ? starts[i + 1] - 1 : line.high + 1
                starts[i] = min(starts[i], limit - widths[i])
            }
            for (i, item) in items.enumerated() where widths[i] > 0 && starts[i] >= line.low {
                placed[item.index] = (row, starts[i], fit(item.label, width: widths[i]))
            }
        }
        return placed
    }

    /// `room` columns shared out among labels that want `wanted` columns
    /// each: every label gets what it wants if that fits; otherwise the
    /// shortest are served in full first and the rest split what is left.
    static func share(_ room: Int, among wanted: [Int]) -> [Int] {
        var given = Array(repeating: 0, count: wanted.count)
        var left = max(0, room)
        var waiting = wanted.indices.sorted { wanted[$0] < wanted[$1] }
        while !waiting.isEmpty {
            let fair = left / waiting.count
            let index = waiting.removeFirst()
            given[index] = min(wanted[index], fair)
            left -= given[index]
        }
        return given
    }

    /// `[label]` in at most `width` columns: cut with `…` when it does not fit.
    static func fit(_ label: String, width: Int) -> String {
        let full = "[" + label + "]"
        if full.count <= width { return full }
        switch width {
        case ..<1: return ""
        case 1, 2: return "…"
        default: return "[" + String(label.prefix(width - 3)) + "…]"
        }
    }

    /// The legend: one line per node, in emission order.
    public func legend(_ layout: HudLayout) -> String {
        var lines: [String] = []
        for node in layout.nodes {
            var parts = [node.deckControl.map(Self.code) ?? node.position.map(Self.code) ?? "--", node.kind.description]
            if let control = node.deckControl { parts.append("deck:\(control)") } else if node.isHostDrawn { parts.append("deck lane") }
            if node.deckControl != nil, let spoken = node.accessibilityLabel { parts.append("\"\(spoken)\"") }
            if let icon = node.icon { parts.append(TextChecks.escapingControls(icon)) }
            if let label = node.label { parts.append("\"\(Self.truncate(TextChecks.escapingControls(label), 24))\"") }
            parts.append("frame \(Self.rect(node.frame))")
            if node.isInteractive { parts.append("hit \(Self.rect(node.hit))") }
            parts.append(node.placement.description)
            if node.material != .none { parts.append(node.material.description) }
            parts.append("fill \(node.fill)")
            lines.append(parts.joined(separator: "  "))
        }
        let insets = layout.contentInsets
        lines.append("content insets: top \(Self.number(insets.top)), left \(Self.number(insets.left)), bottom \(Self.number(insets.bottom)), right \(Self.number(insets.right))")
        if !layout.hiddenPositions.isEmpty {
            lines.append("hidden: " + Position.allCases.filter(layout.hiddenPositions.contains).map(\.description).joined(separator: ", "))
        }
        if let deck = layout.deck { lines += Self.deckLines(deck) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The deck's state, timer and accessibility, for the legend.
    static func deckLines(_ deck: HudDeckStatus) -> [String] {
        let lanes = deck.reservedLanes
        var state = "deck: \(deck.isExpanded ? "expanded" : "resting"), lanes top \(number(lanes.top)), bottom \(number(lanes.bottom))"
        if let deadline = deck.collapseDeadline {
            state += "; collapses at \(number(deadline)) s (timeout \(number(deck.inactivityTimeout)) s)"
        } else if !deck.suspendedBy.isEmpty {
            state += "; timeout suspended (\(deck.suspendedBy.map(\.description).joined(separator: ", ")))"
        }
        var access = "accessibility: focus " + (deck.accessibilityFocus.map { "on \($0) \"\($0.accessibilityLabel)\"" } ?? "not moved")
        access += deck.contentHiddenFromAccessibility ? "; the content behind the backdrop is hidden from accessibility" : ""
        return [state, access]
    }

    static func code(_ control: HudDeckControl) -> String {
        switch control {
        case .pivot: "P"
        case .close: "X"
        case .backdrop: "BD"
        }
    }

    static func code(_ position: Position) -> String {
        switch position {
        case .topLeft: "TL"
        case .topRight: "TR"
        case .bottomLeft: "BL"
        case .bottomRight: "BR"
        case .center: "C"
        }
    }

    public static func number(_ value: Double) -> String { JSONValue.format((value * 100).rounded() / 100) }

    static func rect(_ r: HudRect) -> String { "\(number(r.x)),\(number(r.y)) \(number(r.width))×\(number(r.height))" }

    static func truncate(_ s: String, _ limit: Int) -> String {
        s.count <= limit ? s : String(s.prefix(limit - 1)) + "…"
    }

    /// A grid of characters with clipping drawing primitives.
    struct Canvas {
        var lines: [[Character]]
        let columns: Int
        let rows: Int

        init(columns: Int, rows: Int) {
            self.columns = columns
            self.rows = rows
            lines = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        }

        mutating func set(_ c: Int, _ r: Int, _ char: Character) {
            guard r >= 0, r < rows, c >= 0, c < columns else { return }
            lines[r][c] = char
        }

        mutating func horizontal(row: Int, from c0: Int, to c1: Int, char: Character) {
            guard c0 <= c1 else { return }
            for c in c0...c1 { set(c, row, char) }
        }

        mutating func fill(c0: Int, r0: Int, c1: Int, r1: Int, char: Character) {
            guard c0 <= c1, r0 <= r1 else { return }
            for r in r0...r1 { horizontal(row: r, from: c0, to: c1, char: char) }
        }

        mutating func box(c0: Int, r0: Int, c1: Int, r1: Int, corners: (Character, Character, Character, Character),
                          horizontal h: Character = "-", vertical v: Character = "|") {
            guard c1 > c0, r1 > r0 else {
                horizontal(row: r0, from: c0, to: c1, char: h)
                return
            }
            horizontal(row: r0, from: c0 + 1, to: c1 - 1, char: h)
            horizontal(row: r1, from: c0 + 1, to: c1 - 1, char: h)
            for r in (r0 + 1)..<r1 {
                set(c0, r, v)
                set(c1, r, v)
            }
            set(c0, r0, corners.0)
            set(c1, r0, corners.1)
            set(c0, r1, corners.2)
            set(c1, r1, corners.3)
        }

        /// A capsule: its ends are round, so the top and bottom edges stop a
        /// column short of them and the sides are `(` and `)`:
        ///
        ///      ╭──────╮
        ///     (        )
        ///      ╰──────╯
        ///
        /// Too small for that (fewer than 3 rows or 4 columns), a box.
        mutating func capsule(c0: Int, r0: Int, c1: Int, r1: Int) {
            guard c1 - c0 >= 3, r1 - r0 >= 2 else {
                box(c0: c0, r0: r0, c1: c1, r1: r1, corners: ("╭", "╮", "╰", "╯"), horizontal: "─", vertical: "│")
                return
            }
            for r in [r0, r1] { horizontal(row: r, from: c0 + 2, to: c1 - 2, char: "─") }
            set(c0 + 1, r0, "╭")
            set(c1 - 1, r0, "╮")
            set(c0 + 1, r1, "╰")
            set(c1 - 1, r1, "╯")
            for r in (r0 + 1)..<r1 {
                set(c0, r, "(")
                set(c1, r, ")")
            }
        }

        mutating func text(_ text: String, row: Int, centeredIn range: ClosedRange<Int>) {
            let chars = Array(text)
            let start = range.lowerBound + (range.count - chars.count) / 2
            for (offset, char) in chars.enumerated() { set(start + offset, row, char) }
        }
    }
}
