// SPDX-License-Identifier: MIT
public import HudModel
/// Draws a layout as a standalone SVG 1.1 picture of the screen at 1× points:
/// the device outline with its display corner radius, the background (the
/// whole screen, safe areas included), the status-bar band, the navigation
/// bar with the page title (centered, truncated with "…" before it meets a
/// bar item), the content area the chrome leaves, the
/// home-indicator band, then every node of the layout in paint order with
/// its material, shape, colors, stroke, its icon (a simple vector drawing
/// standing in for the SF Symbol, see `Glyph`; a neutral dashed placeholder
/// for a symbol without one), optionally the symbol's name under a slot,
/// and its label.
///
/// Reads the same `HudLayout` nodes the ASCII and JSON presenters read and
/// lays out nothing of the chrome itself; the only geometry it derives is
/// where text goes inside a node and how far the title may run before it
/// meets a bar item.
///
/// Output is deterministic (same input, same bytes): attributes in a fixed
/// order, numbers with at most two decimals and no trailing zeros. All text
/// (titles, labels, icon names come from plugins and users) is stripped of
/// characters XML 1.0 does not allow (and of C0/C1 control characters) and
/// escaped, so the document stays well-formed whatever the strings hold.
///
/// Elements tests and tools can find:
/// - every node is one `<g class="node" id="node-N">` (N: the node's index in
///   `layout.nodes`) with `data-kind`, `data-position` (`none` when the node
///   has none), `data-part`, `data-mode-index`, `data-z`, `data-shape`,
///   `data-material`, `data-placement`, `data-interactive`, `data-pressed`,
///   and `data-icon` when it has an icon;
/// - a node's icon is a `<g class="icon">` with `data-icon` (the symbol name)
///   and `data-glyph` (the drawing it got: the symbol name, or `placeholder`
///   for a symbol the presenter cannot draw), and `data-size` (pt: the
///   node's glyph size, or 45 % of its smaller side when it states none);
/// - with `showSymbolNames`, a slot's `<text class="symbol-name">`;
/// - the chrome has `id`s and `data-chrome`: `background`, `status-bar`,
///   `navigation-bar`, `navigation-title` (`data-full-title` keeps the
///   untruncated title), `content`, `home-indicator`, `device`, `caption`;
/// - with `showHitRegions`, `<g id="hit-regions">` holds one dashed rect per
///   interactive node, `data-hit-for="node-N"`;
/// - under the control deck (`layout.deck`): `<g id="deck" data-chrome="deck">`
///   with `data-presentation` (`deckResting`/`deckExpanded`),
///   `data-accessibility-focus` and `data-content-hidden` (`true` while the
///   content behind the backdrop is hidden from accessibility), holding a
///   dashed `<rect class="lane">` per reserved lane (`data-lane` `top` or
///   `bottom`); the content group then carries `aria-hidden="true"` while
///   hidden; the shell's own nodes carry `data-host-drawn="true"` and,
///   for the pivot, close button and backdrop, `data-deck-control`.
public struct SvgPresenter {
    /// Outline every interactive node's hit region (dashed, `statusInfo`).
    public var showHitRegions: Bool
    /// Print each slot's SF Symbol name in tiny text under it
    /// (`<text class="symbol-name">`; off by default, `--symbol-names` on the
    /// CLI). The name is always in the glyph's `<title>` and `data-icon`.
    public var showSymbolNames: Bool

    public init(showHitRegions: Bool = false, showSymbolNames: Bool = false) {
        self.showHitRegions = showHitRegions
        self.showSymbolNames = showSymbolNames
    }

    // MARK: - Metrics

    /// The navigation title's size (bars do not scale with text size; the
    /// title truncates instead).
    public static let titleFontSize = 17.0
    /// Text width estimate: characters × font size × this.
    public static let advanceFactor = 0.55
    /// The same for the semibold title: at 0.55 a truncated title still ran
    /// into the bar items when rasterized with common sans fonts.
    public static let titleAdvanceFactor = 0.6
    /// The title stops this far short of a bar item.
    public static let titleGap = 8.0
    /// The height of the caption strip under the screen.
    public static let captionHeight = 28.0
    static let captionFontSize = 11.0
    static let symbolNameFontSize = 5.5
    static let contentLabelFontSize = 13.0
    static let fontFamily = "-apple-system, SF Pro Text, Helvetica Neue, Helvetica, Arial, sans-serif"

    // MARK: - Rendering

    /// The SVG document for `layout` on the environment's screen.
    ///
    /// - Parameters:
    ///   - device: supplies the display corner radius and the device id
    ///     (`data-device`); nil draws square corners.
    ///   - background: fills the whole screen, safe areas included, drawn
    ///     opaque (the shell's default is `HudPalette.bg`).
    ///   - title: the document's `<title>`; nil makes one from the page title.
    ///   - caption: a strip under the screen (see `caption(style:device:environment:)`);
    ///     it makes the picture `captionHeight` taller. nil: no strip.
    /// The size in points of a picture `render` draws with a caption: the
    /// screen and the strip under it (what a rasterizer is given).
    public static func captionedSize(_ environment: HudEnvironment) -> (width: Double, height: Double) {
        (environment.screen.width, environment.screen.height + captionHeight)
    }

    public func render(_ layout: HudLayout, environment: HudEnvironment, device: DevicePreset? = nil,
                       background: HudColor = HudPalette.bg, title: String? = nil, caption: String? = nil) -> String {
        let screen = environment.screen
        let width = screen.width
        let height = screen.height
        let totalHeight = height + (caption == nil ? 0 : Self.captionHeight)
        let radius = min(max(0, device?.displayCornerRadius ?? 0), width / 2, height / 2)
        // The system chrome follows the scheme under `.system`; the nodes
        // (complications) keep the stable dark palette either way.
        let palette = environment.chromePalette
        let nodePalette = environment.complicationPalette
        let rtl = environment.layoutDirection == .rightToLeft
        var svg = Writer()

        svg.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        svg.open("svg", [
            ("xmlns", "http://www.w3.org/2000/svg"), ("version", "1.1"),
            ("width", n(width)), ("height", n(totalHeight)), ("viewBox", "0 0 \(n(width)) \(n(totalHeight))"),
            ("data-device", device?.id ?? "custom"), ("data-direction", environment.layoutDirection.rawValue),
            ("data-scheme", environment.chromeScheme.rawValue),
            ("data-screen-width", n(width)), ("data-screen-height", n(height)),
        ])
        let pageTitle = environment.navigationTitle.map(Self.sanitize) ?? ""
        svg.element("title", [], text: title ?? (pageTitle.isEmpty ? "Hudson HUD" : "Hudson HUD — " + pageTitle))

        // Shared definitions: the screen's clip, the materials' sheen.
        svg.open("defs", [])
        svg.open("clipPath", [("id", "screen-clip")])
        svg.element("rect", [("x", "0"), ("y", "0"), ("width", n(width)), ("height", n(height)), ("rx", n(radius)), ("ry", n(radius))])
        svg.close("clipPath")
        for (id, top, bottom) in [("glass-sheen", 0.14, 0.03), ("regular-sheen", 0.07, 0.01)] {
            svg.open("linearGradient", [("id", id), ("x1", "0"), ("y1", "0"), ("x2", "0"), ("y2", "1")])
            svg.element("stop", [("offset", "0"), ("stop-color", "#FFFFFF"), ("stop-opacity", n(top))])
            svg.element("stop", [("offset", "1"), ("stop-color", "#FFFFFF"), ("stop-opacity", n(bottom))])
            svg.close("linearGradient")
        }
        svg.close("defs")

        svg.open("g", [("id", "screen"), ("clip-path", "url(#screen-clip)"), ("font-family", Self.fontFamily)])
        svg.element("rect", [("id", "background"), ("data-chrome", "background"), ("x", "0"), ("y", "0"),
                             ("width", n(width)), ("height", n(height))] + paint("fill", background, opaque: true))
        drawStatusBar(&svg, environment: environment, palette: palette, background: background)
        drawNavigationBar(&svg, layout: layout, environment: environment, palette: palette, background: background, rtl: rtl)
        drawContent(&svg, layout: layout, environment: environment, palette: palette)
        drawHomeIndicator(&svg, environment: environment, palette: palette)
        if let deck = layout.deck { drawDeck(&svg, deck, environment: environment, palette: palette) }

        svg.open("g", [("id", "nodes")])
        let ordered = layout.nodes.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }
        for (index, node) in ordered {
            drawNode(&svg, node, index: index, palette: nodePalette, rtl: rtl)
        }
        svg.close("g")

        if showHitRegions {
            svg.open("g", [("id", "hit-regions"), ("fill", "none")] + paint("stroke", nodePalette.statusInfo.opacity(0.85), opaque: false)
                     + [("stroke-width", "1"), ("stroke-dasharray", "3 2")])
            for (index, node) in ordered where node.isInteractive && !node.hit.isEmpty {
                svg.element("rect", [("data-hit-for", "node-\(index)")] + rectAttributes(node.hit.insetBy(0.5)))
            }
            svg.close("g")
        }
        svg.close("g")

        // The device outline, over the screen's edge.
        let outline = screen.insetBy(0.5)
        svg.element("rect", [("id", "device"), ("data-chrome", "device"), ("data-corner-radius", n(radius))]
                    + rectAttributes(outline) + [("rx", n(max(0, radius - 0.5))), ("ry", n(max(0, radius - 0.5))),
                                                 ("fill", "none"), ("stroke", "#52525B"), ("stroke-width", "1")])

        if let caption {
            svg.open("g", [("id", "caption"), ("data-chrome", "caption"), ("font-family", Self.fontFamily)])
            svg.element("rect", [("x", "0"), ("y", n(height)), ("width", n(width)), ("height", n(Self.captionHeight)), ("fill", "#141414")])
            let text = Self.truncate(Self.sanitize(caption), width: width - 24, fontSize: Self.captionFontSize)
            svg.element("text", [("x", "12"), ("y", n(height + Self.captionHeight / 2 + Self.captionFontSize * 0.35)),
                                 ("font-size", n(Self.captionFontSize)), ("fill", "#A3A3A3")], text: text)
            svg.close("g")
        }
        svg.close("svg")
        return svg.out
    }

    /// `tray · iphone-16-pro · ltr` (plus `landscape` for a landscape screen).
    public static func caption(style: HudPhoneComplicationsStyle, device: DevicePreset?, environment: HudEnvironment) -> String {
        let size = environment.screenSize
        var parts = [style.description, device?.id ?? "\(AsciiPresenter.number(size.width))×\(AsciiPresenter.number(size.height))",
                     environment.layoutDirection.rawValue]
        if size.width > size.height { parts.append("landscape") }
        return parts.joined(separator: " · ")
    }

    // MARK: - Chrome

    /// The status bar: a faint band, the sensor housing, the time. The time
    /// is the chrome's ink at 70 % when that reads on the band over the
    /// actual background (WCAG 4.5:1: 15 pt semibold is not large text),
    /// else a color that does (`HudColor.readable`), so a light scheme's
    /// dark ink never vanishes on a dark background or the reverse.
    private func drawStatusBar(_ svg: inout Writer, environment: HudEnvironment, palette: HudPalette, background: HudColor) {
        let top = environment.safeArea.top
        guard top > 0 else { return }
        let width = environment.screenSize.width
        let band = palette.ink.opacity(0.04)
        let time = palette.ink.opacity(0.7).readable(on: band.composited(over: background))
        svg.open("g", [("id", "status-bar"), ("data-chrome", "status-bar")])
        svg.element("rect", [("x", "0"), ("y", "0"), ("width", n(width)), ("height", n(top))] + paint("fill", band, opaque: false))
        // A sensor housing on notched screens, and the time beside it.
        let housing = top >= 44 ? HudRect(x: width / 2 - 60, y: 11, width: 120, height: min(37, top - 22)) : nil
        if let housing {
            svg.element("rect", rectAttributes(housing) + [("rx", n(housing.height / 2)), ("ry", n(housing.height / 2)), ("fill", "#000000")])
        }
        let fontSize = min(15, top * 0.6)
        let timeX: Double
        if housing != nil {
            let center = (width / 2 - 60) / 2 + 8
            timeX = environment.layoutDirection == .rightToLeft ? width - center : center
        } else {
            timeX = width / 2
        }
        let baseline = (housing?.midY ?? top / 2) + fontSize * 0.35
        svg.element("text", [("x", n(timeX)), ("y", n(baseline)), ("text-anchor", "middle"), ("font-size", n(fontSize)),
                             ("font-weight", "600")] + paint("fill", time, opaque: false), text: "9:41")
        svg.close("g")
    }

    private func drawNavigationBar(_ svg: inout Writer, layout: HudLayout, environment: HudEnvironment, palette: HudPalette,
                                   background: HudColor, rtl: Bool) {
        let bar = environment.navigationBar
        guard !bar.isEmpty else { return }
        let fill = palette.chrome.opacity(0.55)
        // The title in the chrome's ink, or whatever reads on the bar over the actual background.
        let ink = palette.ink.readable(on: fill.composited(over: background))
        svg.open("g", [("id", "navigation-bar"), ("data-chrome", "navigation-bar")])
        svg.element("rect", rectAttributes(bar) + paint("fill", fill, opaque: false))
        svg.element("line", [("x1", n(bar.minX)), ("y1", n(bar.maxY - 0.25)), ("x2", n(bar.maxX)), ("y2", n(bar.maxY - 0.25)),
                             ("stroke-width", "0.5")] + paint("stroke", palette.border, opaque: false))
        let fullTitle = environment.navigationTitle.map(Self.sanitize) ?? ""
        if !fullTitle.isEmpty {
            let room = Self.titleRoom(layout: layout, bar: bar, screenWidth: environment.screenSize.width)
            let text = Self.truncate(fullTitle, width: room, fontSize: Self.titleFontSize, advance: Self.titleAdvanceFactor)
            var attributes: [(String, String)] = [
                ("id", "navigation-title"), ("data-chrome", "navigation-title"), ("data-full-title", fullTitle),
                ("data-max-width", n(room)),
                ("x", n(bar.midX)), ("y", n(bar.midY + Self.titleFontSize * 0.35)), ("text-anchor", "middle"),
                ("font-size", n(Self.titleFontSize)), ("font-weight", "600"),
            ]
            if rtl { attributes.append(("direction", "rtl")) }
            svg.element("text", attributes + paint("fill", ink, opaque: false), text: text)
        }
        svg.close("g")
    }

    /// The width the centered title may take: it stops `titleGap` short of
    /// the nearest node on either side that shares the bar's height (toolbar
    /// items, or overlays that float into the bar), or the side margin.
    static func titleRoom(layout: HudLayout, bar: HudRect, screenWidth: Double) -> Double {
        let margin = screenWidth >= 600 ? 20.0 : 16.0
        var leading = bar.minX + margin - titleGap
        var trailing = bar.maxX - margin + titleGap
        for node in layout.nodes where node.frame.minY < bar.maxY && node.frame.maxY > bar.minY && !node.frame.isEmpty {
            if node.frame.maxX <= bar.midX {
                leading = max(leading, node.frame.maxX)
            } else if node.frame.minX >= bar.midX {
                trailing = min(trailing, node.frame.minX)
            }
            // A node across the middle covers the title anyway; it does not narrow it.
        }
        return max(0, 2 * (min(bar.midX - leading, trailing - bar.midX) - titleGap))
    }

    /// The safe rectangle minus the navigation bar minus the layout's
    /// content insets (the top one from the bar's bottom edge, as
    /// hud_renderer.h says): what the chrome leaves to the page.
    public static func contentRect(_ layout: HudLayout, environment: HudEnvironment) -> HudRect {
        let safe = environment.safeRect
        let bar = environment.navigationBar
        let insets = layout.contentInsets
        let top = (bar.isEmpty ? safe.minY : max(safe.minY, bar.maxY)) + insets.top
        let left = safe.minX + insets.left
        let right = safe.maxX - insets.right
        let bottom = safe.maxY - insets.bottom
        return HudRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    private func drawContent(_ svg: inout Writer, layout: HudLayout, environment: HudEnvironment, palette: HudPalette) {
        let content = Self.contentRect(layout, environment: environment)
        var attributes = [("id", "content"), ("data-chrome", "content"), ("data-x", n(content.x)), ("data-y", n(content.y)),
                          ("data-width", n(content.width)), ("data-height", n(content.height))]
        if layout.deck?.contentHiddenFromAccessibility == true { attributes.append(("aria-hidden", "true")) }
        svg.open("g", attributes)
        if !content.isEmpty {
            // Drawn 1.5 pt inside the rectangle so no edge hides under the bar's hairline or the device outline.
            svg.element("rect", rectAttributes(content.insetBy(min(1.5, content.width / 2, content.height / 2)))
                        + [("fill", "none"), ("stroke-width", "1"), ("stroke-dasharray", "6 4")] + paint("stroke", palette.dim.opacity(0.7), opaque: false))
            if content.height >= Self.contentLabelFontSize + 4 {
                svg.element("text", [("x", n(content.midX)), ("y", n(content.midY + Self.contentLabelFontSize * 0.35)), ("text-anchor", "middle"),
                                     ("font-size", n(Self.contentLabelFontSize))] + paint("fill", palette.dim, opaque: false), text: "content")
            }
        }
        svg.close("g")
    }

    /// The control deck's state and the lanes it reserves (dashed, dim).
    private func drawDeck(_ svg: inout Writer, _ deck: HudDeckStatus, environment: HudEnvironment, palette: HudPalette) {
        svg.open("g", [("id", "deck"), ("data-chrome", "deck"), ("data-presentation", deck.presentation.description),
                       ("data-accessibility-focus", deck.accessibilityFocus?.rawValue ?? "none"),
                       ("data-content-hidden", deck.contentHiddenFromAccessibility ? "true" : "false")])
        let safe = environment.safeRect
        let bar = environment.navigationBar
        let top = bar.isEmpty ? safe.minY : max(safe.minY, bar.maxY)
        var lanes: [(String, HudRect)] = []
        if deck.reservedLanes.top > 0 { lanes.append(("top", HudRect(x: safe.minX, y: top, width: safe.width, height: deck.reservedLanes.top))) }
        if deck.reservedLanes.bottom > 0 {
            lanes.append(("bottom", HudRect(x: safe.minX, y: safe.maxY - deck.reservedLanes.bottom, width: safe.width, height: deck.reservedLanes.bottom)))
        }
        for (edge, lane) in lanes where !lane.isEmpty {
            svg.element("rect", [("class", "lane"), ("data-lane", edge)] + rectAttributes(lane.insetBy(min(0.5, lane.height / 2)))
                        + [("fill", "none"), ("stroke-width", "0.5"), ("stroke-dasharray", "2 3")] + paint("stroke", palette.dim.opacity(0.6), opaque: false))
        }
        svg.close("g")
    }

    private func drawHomeIndicator(_ svg: inout Writer, environment: HudEnvironment, palette: HudPalette) {
        let bottom = environment.safeArea.bottom
        guard bottom > 0 else { return }
        let width = environment.screenSize.width
        let height = environment.screenSize.height
        svg.open("g", [("id", "home-indicator"), ("data-chrome", "home-indicator")])
        svg.element("rect", [("x", "0"), ("y", n(height - bottom)), ("width", n(width)), ("height", n(bottom))]
                    + paint("fill", palette.ink.opacity(0.04), opaque: false))
        let barWidth = min(134, width * 0.36)
        let barHeight = 5.0
        let y = height - min(8, bottom / 2) - barHeight
        svg.element("rect", [("x", n((width - barWidth) / 2)), ("y", n(y)), ("width", n(barWidth)), ("height", n(barHeight)),
                             ("rx", n(barHeight / 2)), ("ry", n(barHeight / 2))] + paint("fill", palette.ink.opacity(0.7), opaque: false))
        svg.close("g")
    }

    // MARK: - Nodes

    private func drawNode(_ svg: inout Writer, _ node: HudNode, index: Int, palette: HudPalette, rtl: Bool) {
        var attributes: [(String, String)] = [
            ("id", "node-\(index)"), ("class", "node"),
            ("data-kind", node.kind.description),
            ("data-position", node.position?.description ?? "none"),
            ("data-part", node.part?.description ?? "none"),
        ]
        if let mode = node.modeIndex { attributes.append(("data-mode-index", String(mode))) }
        attributes += [
            ("data-z", String(node.z)), ("data-shape", node.shape.description), ("data-material", node.material.description),
            ("data-placement", node.placement.description),
            ("data-interactive", node.isInteractive ? "true" : "false"), ("data-pressed", node.isPressed ? "true" : "false"),
        ]
        if node.isSelected { attributes += [("data-selected", "true"), ("aria-selected", "true")] }
        let icon = node.icon.map(Self.sanitize) ?? ""
        if !icon.isEmpty { attributes.append(("data-icon", icon)) }
        if node.isHostDrawn { attributes.append(("data-host-drawn", "true")) }
        if let control = node.deckControl { attributes.append(("data-deck-control", control.rawValue)) }
        svg.open("g", attributes)
        let name = [node.accessibilityLabel, node.label, node.icon].compactMap { $0.map(Self.sanitize) }.first { !$0.isEmpty }
        svg.element("title", [], text: name ?? "\(node.kind)")

        let frame = node.frame
        // The body: material, fill, stroke.
        var body = paint("fill", node.fill, opaque: node.material == .solid)
        var strokeWidth = node.strokeWidth
        var stroke = node.stroke
        if node.material == .glass || node.material == .regular, strokeWidth == 0 || stroke.alpha == 0 {
            // A translucent material always shows its hairline edge.
            strokeWidth = 0.5
            if stroke.alpha == 0 { stroke = HudColor(hex: 0xFFFFFF).opacity(0.12) }
        }
        if strokeWidth > 0, stroke.alpha > 0 {
            body += paint("stroke", stroke, opaque: false) + [("stroke-width", n(strokeWidth))]
        }
        if !frame.isEmpty {
            svg.element(shapeElement(node, frame: frame, outset: 0, attributes: [("class", "body")] + body))
            switch node.material {
            case .glass: svg.element(shapeElement(node, frame: frame, outset: 0, attributes: [("class", "sheen"), ("fill", "url(#glass-sheen)")]))
            case .regular: svg.element(shapeElement(node, frame: frame, outset: 0, attributes: [("class", "sheen"), ("fill", "url(#regular-sheen)")]))
            case .none, .solid: break
            }
            if node.isSelected {
                // The current mode: a tint of the accent and its outline.
                svg.element(shapeElement(node, frame: frame, outset: 0, attributes: [("class", "selected"), ("stroke-width", "1.5")]
                                         + paint("fill", palette.accent.opacity(0.16), opaque: false)
                                         + paint("stroke", palette.accent.opacity(0.9), opaque: false)))
            }
            if node.isPressed {
                svg.element(shapeElement(node, frame: frame, outset: 0, attributes: [("class", "pressed"), ("fill", "#000000"), ("fill-opacity", "0.3")]))
                svg.element(shapeElement(node, frame: frame, outset: 3, attributes: [("class", "pressed-ring"), ("fill", "none"), ("stroke-width", "2")]
                                         + paint("stroke", palette.statusInfo.opacity(0.85), opaque: false)))
            }
        }

        // Content: the glyph, the label, or both stacked.
        let label = node.fontSize > 0 ? (node.label.map(Self.sanitize) ?? "") : ""
        if !label.isEmpty {
            var fontSize = node.fontSize
            if !icon.isEmpty {
                // The built-ins' mode item: 6 pt padding, a 14 pt icon (or the stated glyph size), 2 pt, the label.
                var pad = 6.0, glyph = node.glyphSize > 0 ? node.glyphSize : 14.0, gap = 2.0
                var line = (fontSize * 1.2).rounded(.up)
                let needed = 2 * pad + glyph + gap + line
                if frame.height < needed, needed > 0 {
                    let scale = frame.height / needed
                    pad *= scale; glyph *= scale; gap *= scale; line *= scale; fontSize *= scale
                }
                let top = frame.minY + max(0, (frame.height - (2 * pad + glyph + gap + line)) / 2) + pad
                drawGlyph(&svg, icon: icon, center: (frame.midX, top + glyph / 2), size: glyph, color: node.iconColor, rtl: rtl)
                drawLabel(&svg, label, node: node, fontSize: fontSize, baseline: top + glyph + gap + line / 2 + fontSize * 0.35, rtl: rtl)
            } else {
                drawLabel(&svg, label, node: node, fontSize: fontSize, baseline: frame.midY + fontSize * 0.35, rtl: rtl)
            }
        } else if !icon.isEmpty {
            // The renderer's glyph size (ABI 1.1); a 1.0 renderer's nodes say
            // 0, and get 45 % of the node's smaller side.
            let size = node.glyphSize > 0 ? node.glyphSize : min(frame.width, frame.height) * 0.45
            drawGlyph(&svg, icon: icon, center: (frame.midX, frame.midY), size: size, color: node.iconColor, rtl: rtl)
        }
        if showSymbolNames, node.kind == .slot, !icon.isEmpty {
            let text = Self.truncate(icon, width: frame.width + 24, fontSize: Self.symbolNameFontSize)
            svg.element("text", [("class", "symbol-name"), ("x", n(frame.midX)), ("y", n(frame.maxY + 0.5 + Self.symbolNameFontSize * 0.8)),
                                 ("text-anchor", "middle"), ("font-size", n(Self.symbolNameFontSize))]
                        + paint("fill", palette.dim, opaque: false), text: text)
        }
        svg.close("g")
    }

    private func drawLabel(_ svg: inout Writer, _ label: String, node: HudNode, fontSize: Double, baseline: Double, rtl: Bool) {
        let text = Self.truncate(label, width: max(0, node.frame.width - 8), fontSize: fontSize)
        var attributes: [(String, String)] = [("class", "label"), ("x", n(node.frame.midX)), ("y", n(baseline)), ("text-anchor", "middle"),
                                              ("font-size", n(fontSize))]
        if rtl { attributes.append(("direction", "rtl")) }
        svg.element("text", attributes + paint("fill", node.textColor, opaque: false), text: text)
    }

    /// The node's shape around `frame` grown by `outset` on every side.
    private func shapeElement(_ node: HudNode, frame: HudRect, outset: Double, attributes: [(String, String)]) -> Element {
        switch node.shape {
        case .circle:
            let r = min(frame.width, frame.height) / 2 + outset
            return Element(name: "circle", attributes: [("cx", n(frame.midX)), ("cy", n(frame.midY)), ("r", n(r))] + attributes)
        case .rectangle, .roundedRectangle, .capsule:
            let grown = frame.insetBy(-outset)
            let radius: Double
            switch node.shape {
            case .capsule: radius = min(grown.width, grown.height) / 2
            case .roundedRectangle: radius = min(node.cornerRadius + (node.cornerRadius > 0 ? outset : 0), grown.width / 2, grown.height / 2)
            default: radius = 0
            }
            var all = rectAttributes(grown)
            if radius > 0 { all += [("rx", n(radius)), ("ry", n(radius))] }
            return Element(name: "rect", attributes: all + attributes)
        }
    }

    // MARK: - Glyphs

    /// The drawings standing in for SF Symbols (we have none): one simple
    /// outline per symbol the project's demo, docs and examples use, in the
    /// icon color. The raw value is the symbol's name.
    enum Glyph: String, CaseIterable {
        case listBullet = "list.bullet"
        case line3Horizontal = "line.3.horizontal"
        case ellipsisCircle = "ellipsis.circle"
        case gearshape, gear
        case circleGrid2x2 = "circle.grid.2x2"
        case squareGrid2x2 = "square.grid.2x2"
        case circleGridCrossFill = "circle.grid.cross.fill"
        case rectangle3Group = "rectangle.3.group"
        case rectangleBottomthirdInsetFilled = "rectangle.bottomthird.inset.filled"
        case circle
        case circleFill = "circle.fill"
        case paintbrush
        case bell
        case bellBadge = "bell.badge"
        case exclamationmarkCircle = "exclamationmark.circle"
        case infoCircle = "info.circle"
        case trash, plus, minus, xmark, checkmark, star, bolt, house, tray
        case chevronBackward = "chevron.backward"
        case chevronLeft = "chevron.left"

        /// The drawing for `icon`: its own, else that of the name without a
        /// trailing `.fill` (`bell.fill` draws `bell`); nil for a symbol we
        /// cannot draw (it gets the neutral placeholder).
        static func named(_ icon: String) -> Glyph? {
            if let glyph = Glyph(rawValue: icon) { return glyph }
            if icon.hasSuffix(".fill") { return Glyph(rawValue: String(icon.dropLast(5))) }
            return nil
        }
    }

    /// The glyph for `icon` (its name is the glyph's `<title>`, and
    /// `data-glyph` says which drawing it got: a symbol name, or
    /// `placeholder`). `rtl` mirrors the directional ones.
    private func drawGlyph(_ svg: inout Writer, icon: String, center: (x: Double, y: Double), size: Double, color: HudColor, rtl: Bool) {
        guard size > 0 else { return }
        let s = size
        let (cx, cy) = center
        let h = s / 2
        let w = max(0.75, s * 0.09)
        let glyph = Glyph.named(icon)
        svg.open("g", [("class", "icon"), ("data-icon", icon), ("data-glyph", glyph?.rawValue ?? "placeholder"), ("data-size", n(s)),
                       ("fill", "none"),
                       ("stroke-width", n(w)), ("stroke-linecap", "round"), ("stroke-linejoin", "round")]
                 + paint("stroke", color, opaque: false))
        svg.element("title", [], text: icon)
        func fill(_ extra: [(String, String)]) -> [(String, String)] { extra + [("stroke", "none")] + paint("fill", color, opaque: false) }
        func dot(_ x: Double, _ y: Double, _ r: Double) { svg.element("circle", fill([("cx", n(x)), ("cy", n(y)), ("r", n(r))])) }
        func ring(_ x: Double, _ y: Double, _ r: Double) { svg.element("circle", [("cx", n(x)), ("cy", n(y)), ("r", n(r))]) }
        func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
            svg.element("line", [("x1", n(x1)), ("y1", n(y1)), ("x2", n(x2)), ("y2", n(y2))])
        }
        func box(_ x: Double, _ y: Double, _ bw: Double, _ bh: Double, _ r: Double, filled: Bool = false) {
            let attributes = [("x", n(x)), ("y", n(y)), ("width", n(bw)), ("height", n(bh)), ("rx", n(r)), ("ry", n(r))]
            svg.element("rect", filled ? fill(attributes) : attributes)
        }
        /// A path given in unit coordinates (-1…1 across the glyph, y down;
        /// absolute commands whose arguments are all x y pairs: M L Q C Z).
        func path(_ unit: String, filled: Bool = false, mirrored: Bool = false) {
            var out: [String] = []
            var isX = true
            for token in unit.split(separator: " ") {
                guard let value = Double(token) else {
                    out.append(String(token))
                    continue
                }
                out.append(isX ? n(cx + (mirrored ? -value : value) * h) : n(cy + value * h))
                isX.toggle()
            }
            let d = [("d", out.joined(separator: " "))]
            svg.element("path", filled ? fill(d) : d)
        }
        func bell() {
            path("M -0.7 0.45 C -0.5 0.3 -0.48 0.1 -0.48 -0.15 C -0.48 -0.5 -0.25 -0.7 0 -0.7 C 0.25 -0.7 0.48 -0.5 0.48 -0.15 "
                 + "C 0.48 0.1 0.5 0.3 0.7 0.45 Z")
            path("M -0.2 0.65 Q 0 0.85 0.2 0.65")
            dot(cx, cy - h * 0.8, w * 0.8)
        }
        switch glyph {
        case .listBullet:
            for row in [-0.3, 0.0, 0.3] {
                dot(cx - h * 0.75, cy + s * row, w * 0.9)
                line(cx - h * 0.4, cy + s * row, cx + h * 0.85, cy + s * row)
            }
        case .line3Horizontal:
            for row in [-0.3, 0.0, 0.3] { line(cx - h * 0.8, cy + s * row, cx + h * 0.8, cy + s * row) }
        case .ellipsisCircle:
            ring(cx, cy, h * 0.92)
            for dx in [-0.42, 0.0, 0.42] { dot(cx + h * dx, cy, w * 0.9) }
        case .gearshape, .gear:
            ring(cx, cy, h * 0.6)
            ring(cx, cy, h * 0.22)
            // Eight teeth, at exact unit-circle directions (no trigonometry needed).
            let d = 0.70710678
            for (ux, uy) in [(1.0, 0.0), (d, d), (0.0, 1.0), (-d, d), (-1.0, 0.0), (-d, -d), (0.0, -1.0), (d, -d)] {
                line(cx + ux * h * 0.62, cy + uy * h * 0.62, cx + ux * h * 0.92, cy + uy * h * 0.92)
            }
        case .circleGrid2x2:
            for (dx, dy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
                ring(cx + dx * h * 0.48, cy + dy * h * 0.48, h * 0.34)
            }
        case .squareGrid2x2:
            for (dx, dy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
                box(cx + dx * h * 0.48 - h * 0.34, cy + dy * h * 0.48 - h * 0.34, h * 0.68, h * 0.68, h * 0.12)
            }
        case .circleGridCrossFill:
            for (dx, dy) in [(0.0, -1.0), (-1.0, 0.0), (0.0, 0.0), (1.0, 0.0), (0.0, 1.0)] {
                dot(cx + dx * h * 0.62, cy + dy * h * 0.62, h * 0.26)
            }
        case .rectangle3Group:
            for column in 0..<3 {
                box(cx - h * 0.95 + Double(column) * s * 0.95 / 3, cy - h * 0.6, s * 0.95 * 0.3, h * 1.2, w)
            }
        case .rectangleBottomthirdInsetFilled:
            box(cx - h * 0.9, cy - h * 0.7, s * 0.9, h * 1.4, w * 1.5)
            box(cx - h * 0.9 + w, cy + h * 0.2, s * 0.9 - 2 * w, h * 0.5 - w, w, filled: true)
        case .circle:
            ring(cx, cy, h * 0.8)
        case .circleFill:
            dot(cx, cy, h * 0.8)
        case .paintbrush:
            // The handle, then the bristles, down to the lower left.
            line(cx + h * 0.85, cy - h * 0.85, cx + h * 0.1, cy - h * 0.1)
            path("M 0.15 -0.05 C 0.1 0.25 -0.05 0.3 -0.25 0.3 C -0.55 0.3 -0.55 0.75 -0.85 0.85 "
                 + "C -0.45 0.95 0.05 0.85 0.2 0.5 C 0.28 0.3 0.3 0.1 0.15 -0.05 Z", filled: true)
        case .bell:
            bell()
        case .bellBadge:
            bell()
            dot(cx + h * 0.62, cy - h * 0.62, h * 0.24)
        case .exclamationmarkCircle:
            ring(cx, cy, h * 0.88)
            line(cx, cy - h * 0.48, cx, cy + h * 0.12)
            dot(cx, cy + h * 0.45, w * 0.8)
        case .infoCircle:
            ring(cx, cy, h * 0.88)
            dot(cx, cy - h * 0.45, w * 0.8)
            line(cx, cy - h * 0.12, cx, cy + h * 0.48)
        case .trash:
            line(cx - h * 0.75, cy - h * 0.55, cx + h * 0.75, cy - h * 0.55)
            path("M -0.25 -0.55 L -0.25 -0.8 L 0.25 -0.8 L 0.25 -0.55")
            path("M -0.55 -0.55 L -0.45 0.85 L 0.45 0.85 L 0.55 -0.55")
            line(cx - h * 0.17, cy - h * 0.25, cx - h * 0.14, cy + h * 0.55)
            line(cx + h * 0.17, cy - h * 0.25, cx + h * 0.14, cy + h * 0.55)
        case .plus:
            line(cx - h * 0.75, cy, cx + h * 0.75, cy)
            line(cx, cy - h * 0.75, cx, cy + h * 0.75)
        case .minus:
            line(cx - h * 0.75, cy, cx + h * 0.75, cy)
        case .xmark:
            line(cx - h * 0.6, cy - h * 0.6, cx + h * 0.6, cy + h * 0.6)
            line(cx - h * 0.6, cy + h * 0.6, cx + h * 0.6, cy - h * 0.6)
        case .checkmark:
            path("M -0.7 0.05 L -0.2 0.6 L 0.75 -0.6")
        case .star:
            // Outer radius 0.9, inner 0.38, from the top.
            path("M 0 -0.9 L 0.22 -0.31 L 0.86 -0.28 L 0.36 0.12 L 0.53 0.73 L 0 0.38 L -0.53 0.73 L -0.36 0.12 "
                 + "L -0.86 -0.28 L -0.22 -0.31 Z")
        case .bolt:
            path("M 0.15 -0.9 L -0.5 0.12 L -0.02 0.12 L -0.15 0.9 L 0.5 -0.12 L 0.02 -0.12 Z")
        case .house:
            path("M -0.85 0.02 L 0 -0.78 L 0.85 0.02")
            path("M -0.6 -0.2 L -0.6 0.8 L 0.6 0.8 L 0.6 -0.2")
            path("M -0.18 0.8 L -0.18 0.32 L 0.18 0.32 L 0.18 0.8")
        case .tray:
            path("M -0.85 0.1 L -0.6 -0.6 L 0.6 -0.6 L 0.85 0.1 L 0.85 0.7 L -0.85 0.7 Z")
            path("M -0.85 0.1 L -0.32 0.1 Q -0.3 0.38 0 0.38 Q 0.3 0.38 0.32 0.1 L 0.85 0.1")
        case .chevronBackward:
            path("M 0.25 -0.7 L -0.35 0 L 0.25 0.7", mirrored: rtl)
        case .chevronLeft:
            path("M 0.25 -0.7 L -0.35 0 L 0.25 0.7")
        case nil:
            // A symbol we cannot draw: a faint dashed rounded square, a
            // neutral "something goes here" (no slash, nothing that reads
            // as prohibited or as an error).
            svg.element("rect", [("class", "placeholder"), ("x", n(cx - h * 0.7)), ("y", n(cy - h * 0.7)), ("width", n(h * 1.4)),
                                 ("height", n(h * 1.4)), ("rx", n(h * 0.28)), ("ry", n(h * 0.28)), ("stroke-opacity", "0.6"),
                                 ("stroke-dasharray", "\(n(max(0.5, h * 0.22))) \(n(max(0.5, h * 0.16)))")])
        }
        svg.close("g")
    }

    // MARK: - Text

    /// `text` without what XML 1.0 cannot carry or should not show: C0
    /// controls (tab, newline and return become spaces), DEL and C1
    /// controls, U+FFFE and U+FFFF. (A Swift string holds no lone surrogates.)
    public static func sanitize(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: out.append(" ")
            case 0x00..<0x20, 0x7F...0x9F, 0xFFFE, 0xFFFF: continue
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// `text` sanitized and escaped for XML character data and
    /// attribute values (either quote).
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in sanitize(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }

    /// The estimated width of `text`: characters × font size ×
    /// `advanceFactor`, a wide character (emoji, CJK, Hangul, fullwidth
    /// forms) counting as two.
    public static func estimatedWidth(_ text: String, fontSize: Double, advance: Double = advanceFactor) -> Double {
        Double(text.reduce(0) { $0 + units($1) }) * fontSize * advance
    }

    /// `text` cut with "…" so its estimated width (at `advance`) fits
    /// `width`; empty when not even "…" fits.
    public static func truncate(_ text: String, width: Double, fontSize: Double, advance: Double = advanceFactor) -> String {
        guard fontSize > 0, advance > 0 else { return text }
        // A renderer may return any finite font size: a subnormal one makes
        // the quotient infinite (or NaN for a zero width), a tiny one larger
        // than Int.max; either way everything fits (found by Fuzz/ layout).
        let quotient = (width / (fontSize * advance) + 1e-9).rounded(.down)
        guard quotient < Double(Int32.max) else { return text }
        let available = quotient < 1 ? 0 : Int(quotient)
        guard text.reduce(0, { $0 + units($1) }) > available else { return text }
        guard available >= 1 else { return "" }
        var kept = ""
        var used = 1 // the ellipsis
        for character in text {
            let width = units(character)
            guard used + width <= available else { break }
            kept.append(character)
            used += width
        }
        while kept.last?.isWhitespace == true { kept.removeLast() }
        return kept + "…"
    }

    /// Advance units of one character: 2 for a wide one, and 2 for each
    /// emoji in a sequence (a renderer without the sequence's glyph draws
    /// its parts side by side), else 1.
    static func units(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 1 }
        let emoji = character.unicodeScalars.filter { $0.properties.isEmojiPresentation }.count
        if emoji > 0 { return 2 * emoji }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    // MARK: - Writing

    private func n(_ value: Double) -> String { AsciiPresenter.number(value) }

    private func rectAttributes(_ r: HudRect) -> [(String, String)] {
        [("x", n(r.x)), ("y", n(r.y)), ("width", n(max(0, r.width))), ("height", n(max(0, r.height)))]
    }

    /// `fill="#RRGGBB" fill-opacity="…"` (or `fill="none"` for a fully
    /// transparent color); `opaque` ignores the alpha.
    private func paint(_ property: String, _ color: HudColor, opaque: Bool) -> [(String, String)] {
        if color.alpha == 0, !opaque { return [(property, "none")] }
        var opaqueColor = color
        opaqueColor.alpha = 255
        var attributes = [(property, opaqueColor.description)]
        if color.alpha < 255, !opaque { attributes.append((property + "-opacity", n(Double(color.alpha) / 255))) }
        return attributes
    }

    struct Element {
        var name: String
        var attributes: [(String, String)]
    }

    /// Appends markup with one element per line, indented by depth.
    struct Writer {
        var out = ""
        private var depth = 0

        mutating func raw(_ text: String) { out += text }

        mutating func open(_ name: String, _ attributes: [(String, String)]) {
            out += indent + "<" + name + Self.attributes(attributes) + ">\n"
            depth += 1
        }

        mutating func close(_ name: String) {
            depth -= 1
            out += indent + "</" + name + ">\n"
        }

        mutating func element(_ name: String, _ attributes: [(String, String)], text: String? = nil) {
            if let text {
                out += indent + "<" + name + Self.attributes(attributes) + ">" + SvgPresenter.escape(text) + "</" + name + ">\n"
            } else {
                out += indent + "<" + name + Self.attributes(attributes) + "/>\n"
            }
        }

        mutating func element(_ element: Element) { self.element(element.name, element.attributes) }

        private var indent: String { String(repeating: "  ", count: depth) }

        private static func attributes(_ attributes: [(String, String)]) -> String {
            attributes.map { " " + $0.0 + "=\"" + SvgPresenter.escape($0.1) + "\"" }.joined()
        }
    }
}

extension HudRect {
    /// The rectangle shrunk by `amount` on every side (grown when negative).
    func insetBy(_ amount: Double) -> HudRect {
        HudRect(x: x + amount, y: y + amount, width: max(0, width - 2 * amount), height: max(0, height - 2 * amount))
    }
}
