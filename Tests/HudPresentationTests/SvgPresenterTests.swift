// SPDX-License-Identifier: MIT
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif
import Foundation
import Testing

/// The SVG picture: well-formed XML for every built-in style × device preset
/// × direction × revealed picker, one element per layout node, the chrome in
/// place, hostile text escaped, deterministic bytes.
struct SvgPresenterTests {
    struct Case: Sendable, CustomStringConvertible {
        var style: HudPhoneComplicationsStyle
        var device: DevicePreset
        var direction: HudLayoutDirection
        var reveal: Position?
        var description: String { "\(style) \(device.id) \(direction.rawValue) \(reveal.map { "reveal \($0)" } ?? "idle")" }

        var environment: HudEnvironment {
            HudEnvironment(device: device, layoutDirection: direction, navigationTitle: "Home")
        }
    }

    /// Every built-in style, as the registry lists them.
    static let styles: [HudPhoneComplicationsStyle] = RendererRegistry.withBuiltins().renderers.map { HudPhoneComplicationsStyle(name: $0.id) }

    static let cases: [Case] = styles.flatMap { style in
        DevicePreset.all.flatMap { device in
            HudLayoutDirection.allCases.flatMap { direction in
                [nil, Position.center].map { Case(style: style, device: device, direction: direction, reveal: $0) }
            }
        }
    }

    static func layout(_ c: Case, complications: HudPhoneComplications? = nil, environment: HudEnvironment? = nil,
                       interaction: HudInteraction? = nil) throws -> HudLayout {
        let registry = RendererRegistry.withBuiltins()
        let snapshot = try ComplicationsSnapshot(complications ?? DemoComplications.make(renderers: registry.renderers) { _ in })
        return try registry.layout(style: c.style, snapshot: snapshot, environment: environment ?? c.environment,
                                   interaction: interaction ?? HudInteraction(revealedPosition: c.reveal))
    }

    // MARK: - Every style × device × direction × reveal

    @Test(arguments: cases)
    func everyPictureIsWellFormedAndDrawsEveryNode(_ c: Case) throws {
        let environment = c.environment
        let layout = try Self.layout(c)
        let svg = SvgPresenter().render(layout, environment: environment, device: c.device)
        let document = try #require(ParsedXML.parse(svg), "not well-formed XML")

        // The root: an SVG 1.1 element in the SVG namespace, 1× points.
        let root = try #require(document.elements.first)
        #expect(root.name == "svg")
        #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(root.attributes["version"] == "1.1")
        let width = AsciiPresenter.number(c.device.portraitSize.width)
        let height = AsciiPresenter.number(c.device.portraitSize.height)
        #expect(root.attributes["viewBox"] == "0 0 \(width) \(height)")
        #expect(root.attributes["width"] == width && root.attributes["height"] == height)
        #expect(root.attributes["data-direction"] == c.direction.rawValue)
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "))

        // One group per node, in paint order, with the node's kind and position.
        let groups = document.elements.filter { $0.attributes["class"] == "node" }
        #expect(groups.count == layout.nodes.count)
        let expectedOrder = layout.nodes.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }.map { "node-\($0.offset)" }
        #expect(groups.map { $0.attributes["id"] ?? "" } == expectedOrder)
        #expect(groups.compactMap { $0.attributes["id"].flatMap { Int($0.dropFirst("node-".count)) } }.map { layout.nodes[$0] } == layout.paintOrder)
        for group in groups {
            let index = try #require(group.attributes["id"].flatMap { Int($0.dropFirst("node-".count)) })
            let node = try #require(layout.nodes.indices.contains(index) ? layout.nodes[index] : nil)
            #expect(group.attributes["data-kind"] == node.kind.description)
            #expect(group.attributes["data-position"] == node.position?.description ?? "none")
            #expect(group.attributes["data-interactive"] == (node.isInteractive ? "true" : "false"))
            #expect(group.attributes["data-icon"] == node.icon)
        }
        func counts(_ pairs: [(String, String)]) -> [String: Int] {
            pairs.reduce(into: [:]) { $0[$1.0 + "@" + $1.1, default: 0] += 1 }
        }
        #expect(counts(groups.map { ($0.attributes["data-kind"] ?? "?", $0.attributes["data-position"] ?? "?") })
                == counts(layout.nodes.map { ($0.kind.description, $0.position?.description ?? "none") }))
        // The revealed picker is drawn: its card and one item per mode.
        if c.reveal != nil {
            let items = groups.filter { $0.attributes["data-kind"] == "modeItem" }
            #expect(items.count == Self.styles.count)
            #expect(Set(items.compactMap { $0.child("text", class: "label")?.text }) == ["Tray", "Scattered", "Minimal"])
        } else {
            #expect(!groups.contains { $0.attributes["data-kind"] == "modeItem" })
        }

        // The chrome.
        let title = try #require(document.element(id: "navigation-title"))
        #expect(title.text == "Home")
        #expect(document.elements.first { $0.name == "title" }?.text == "Hudson HUD — Home")
        let background = try #require(document.element(id: "background"))
        #expect(background.attributes["fill"] == HudPalette.bg.description)
        #expect(background.attributes["width"] == width && background.attributes["height"] == height)
        let device = try #require(document.element(id: "device"))
        #expect(device.attributes["data-corner-radius"] == AsciiPresenter.number(c.device.displayCornerRadius))
        #expect(document.element(id: "navigation-bar") != nil)
        #expect(document.element(id: "status-bar") != nil)
        #expect((document.element(id: "home-indicator") != nil) == (c.device.portraitSafeArea.bottom > 0))
        let content = try #require(document.element(id: "content"))
        let expected = SvgPresenter.contentRect(layout, environment: environment)
        #expect(content.attributes["data-y"] == AsciiPresenter.number(environment.navigationBar.maxY))
        #expect(content.attributes["data-height"] == AsciiPresenter.number(expected.height))
        #expect(expected.maxY == environment.safeRect.maxY - layout.contentInsets.bottom)
        #expect(content.child("text")?.text == "content")
        #expect(document.element(id: "hit-regions") == nil)
        #expect(document.element(id: "caption") == nil)
    }

    // MARK: - Hostile text

    static let hostile = "<script>&\"'\u{1} 🚀👩🏽‍💻 مرحبا </script>"

    static func hostileComplications() -> HudPhoneComplications {
        HudPhoneComplications(
            topLeft: .init(icon: "list.bullet", label: hostile, secondary: .init(icon: "a<b>&c", label: hostile) {}) {},
            topRight: .init(icon: "ellipsis.circle\"'", label: "مرحبا بالعالم") {},
            bottomLeft: .init(icon: "gear&shape", role: .destructive, label: hostile, secondary: .init(icon: "bell", label: hostile)) {},
            bottomRight: .init(icon: "rectangle.3.group", label: "\u{7}\u{1B}[31mred\u{85}") {},
            center: .init(
                icon: "circle.grid.2x2", role: .accent, label: hostile,
                longPressModes: [
                    .init(id: "a", icon: "<icon>", label: hostile) {},
                    .init(id: "b", icon: "circle.fill", label: "عربي 😀") {},
                    .init(id: "c", icon: "x", label: "\u{1}\u{2}\u{3}\u{FFFE}\u{FFFF}") {},
                ],
                action: {}
            )
        )
    }

    @Test(arguments: styles)
    func hostileTextStaysWellFormed(_ style: HudPhoneComplicationsStyle) throws {
        for direction in HudLayoutDirection.allCases {
            for reveal in [nil, Position.center] {
                let c = Case(style: style, device: .iphone16Pro, direction: direction, reveal: reveal)
                var environment = c.environment
                environment.navigationTitle = "T" + Self.hostile
                let layout = try Self.layout(c, complications: Self.hostileComplications(), environment: environment)
                let svg = SvgPresenter(showHitRegions: true).render(layout, environment: environment, device: .iphone16Pro,
                                                                    title: Self.hostile, caption: Self.hostile)
                let document = try #require(ParsedXML.parse(svg), "not well-formed XML: \(c)")
                #expect(!svg.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
                #expect(!svg.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0.value == 0xFFFE || $0.value == 0xFFFF })
                #expect(!svg.contains("<script>") && !svg.contains("</script>"))
                // The text survives escaping (minus the control character).
                let clean = SvgPresenter.sanitize(Self.hostile)
                #expect(document.elements.first { $0.name == "title" }?.text == clean)
                #expect(document.element(id: "navigation-title")?.attributes["data-full-title"] == "T" + clean)
                #expect(document.element(id: "caption")?.child("text")?.text.hasPrefix("<script>&\"'") == true)
                #expect(document.elements.filter { $0.attributes["class"] == "node" }.count == layout.nodes.count)
                if reveal != nil {
                    let labels = document.elements.filter { $0.attributes["data-kind"] == "modeItem" }.compactMap { $0.child("text", class: "label")?.text }
                    // The third label is nothing but control characters: no text is drawn for it.
                    #expect(labels.count == 2)
                    #expect(labels.contains { $0.hasPrefix("<script>") })
                    #expect(labels.contains("عربي 😀"))
                }
            }
        }
    }

    @Test func sanitizeAndEscape() {
        // The parser the other tests rely on does reject what escaping prevents.
        #expect(ParsedXML.parse("<a>x</a>") != nil)
        #expect(ParsedXML.parse("<a>\u{1}</a>") == nil)
        #expect(ParsedXML.parse("<a>&</a>") == nil)
        #expect(ParsedXML.parse("<a b=\"<\"/>") == nil)
        #expect(ParsedXML.parse("<a><script></a>") == nil)
        #expect(ParsedXML.parse("<a>" + SvgPresenter.escape("<script>&\"'\u{1}") + "</a>")?.elements.first?.text == "<script>&\"'")
        #expect(SvgPresenter.escape("<a href=\"x\">&'</a>") == "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;")
        #expect(SvgPresenter.sanitize("a\u{0}b\u{1}c\td\ne\rf\u{7F}g\u{9F}h\u{FFFE}i\u{FFFF}j") == "abc d e fghij")
        #expect(SvgPresenter.sanitize("é 😀 مرحبا \u{10FFFD}") == "é 😀 مرحبا \u{10FFFD}")
        #expect(SvgPresenter.truncate("Home", width: 100, fontSize: 17) == "Home")
        #expect(SvgPresenter.truncate("A long page title", width: 17 * 0.55 * 6, fontSize: 17) == "A lon…")
        #expect(SvgPresenter.truncate("A long page title", width: 17 * 0.55 * 3, fontSize: 17) == "A…")
        #expect(SvgPresenter.truncate("Home", width: 5, fontSize: 17) == "")
        // Wide characters (emoji, CJK) count twice.
        #expect(SvgPresenter.estimatedWidth("a😀漢", fontSize: 10) == 5 * 10 * SvgPresenter.advanceFactor)
        #expect(SvgPresenter.truncate("😀😀😀😀", width: 10 * 0.55 * 5, fontSize: 10) == "😀😀…")
    }

    // MARK: - The title, pressing, hit regions, caption

    @Test(arguments: DevicePreset.all)
    func aLongTitleTruncatesBeforeTheBarItems(_ device: DevicePreset) throws {
        let titles = ["Settings and Privacy ", "🚀 مرحبا بالعالم 漢字 "].map { String(repeating: $0, count: 4) }
        for style in Self.styles {
            for direction in HudLayoutDirection.allCases {
                for long in titles {
                    let environment = HudEnvironment(device: device, layoutDirection: direction, navigationTitle: long)
                    let layout = try Self.layout(Case(style: style, device: device, direction: direction), environment: environment)
                    let document = try #require(ParsedXML.parse(SvgPresenter().render(layout, environment: environment, device: device)))
                    let title = try #require(document.element(id: "navigation-title"))
                    #expect(title.text.hasSuffix("…"))
                    let half = SvgPresenter.estimatedWidth(title.text, fontSize: SvgPresenter.titleFontSize,
                                                           advance: SvgPresenter.titleAdvanceFactor) / 2
                    let bar = environment.navigationBar
                    let span = (bar.midX - half)...(bar.midX + half)
                    for node in layout.nodes where node.frame.minY < bar.maxY && node.frame.maxY > bar.minY {
                        #expect(span.upperBound + SvgPresenter.titleGap <= node.frame.minX
                                    || span.lowerBound - SvgPresenter.titleGap >= node.frame.maxX,
                                "\(style) \(direction): title \(span) meets \(node.kind) at \(node.frame)")
                    }
                }
            }
        }
    }

    @Test func pressedNodesAndHitRegionsAreVisible() throws {
        let c = Case(style: .tray, device: .iphone16Pro, direction: .leftToRight, reveal: .center)
        let layout = try Self.layout(c, interaction: HudInteraction(pressed: .mode(.center, index: 1), revealedPosition: .center))
        let svg = SvgPresenter(showHitRegions: true).render(layout, environment: c.environment, device: c.device)
        let document = try #require(ParsedXML.parse(svg))
        let pressed = document.elements.filter { $0.attributes["data-pressed"] == "true" }
        #expect(pressed.count == 1)
        #expect(pressed.first?.attributes["data-kind"] == "modeItem" && pressed.first?.attributes["data-mode-index"] == "1")
        #expect(pressed.first?.child("rect", class: "pressed-ring") != nil)
        let hits = document.elements.filter { $0.attributes["data-hit-for"] != nil }
        #expect(hits.count == layout.nodes.filter(\.isInteractive).count)
        #expect(document.element(id: "hit-regions")?.attributes["stroke-dasharray"] != nil)
    }

    @Test func materialsAndColorsComeFromTheNodes() throws {
        let c = Case(style: .tray, device: .iphone16Pro, direction: .leftToRight, reveal: .center)
        let layout = try Self.layout(c)
        let document = try #require(ParsedXML.parse(SvgPresenter().render(layout, environment: c.environment, device: c.device)))
        for (index, node) in layout.nodes.enumerated() {
            let group = try #require(document.element(id: "node-\(index)"))
            let body = try #require(group.children.first { $0.attributes["class"] == "body" })
            #expect(body.name == (node.shape == .circle ? "circle" : "rect"))
            var opaque = node.fill
            opaque.alpha = 255
            if node.fill.alpha == 0 {
                #expect(body.attributes["fill"] == "none")
            } else {
                #expect(body.attributes["fill"] == opaque.description)
                #expect(body.attributes["fill-opacity"] == (node.fill.alpha == 255 ? nil : AsciiPresenter.number(Double(node.fill.alpha) / 255)))
            }
            #expect(group.children.contains { $0.attributes["class"] == "sheen" } == (node.material == .glass || node.material == .regular))
            if node.icon != nil {
                #expect(group.children.first { $0.attributes["class"] == "icon" }?.child("title")?.text == node.icon)
            }
        }
    }

    @Test func captionCornersAndDeterminism() throws {
        let c = Case(style: .scattered, device: .iphoneSE, direction: .rightToLeft, reveal: .center)
        let layout = try Self.layout(c)
        let caption = SvgPresenter.caption(style: c.style, device: c.device, environment: c.environment)
        #expect(caption == "scattered · iphone-se · rtl")
        let svg = SvgPresenter().render(layout, environment: c.environment, device: c.device, caption: caption)
        #expect(svg == SvgPresenter().render(layout, environment: c.environment, device: c.device, caption: caption))
        let document = try #require(ParsedXML.parse(svg))
        #expect(document.elements.first?.attributes["viewBox"] == "0 0 375 \(AsciiPresenter.number(667 + SvgPresenter.captionHeight))")
        #expect(document.element(id: "caption")?.child("text")?.text == caption)
        #expect(document.element(id: "device")?.attributes["data-corner-radius"] == "0")
        #expect(document.element(id: "home-indicator") == nil)
        // Numbers: at most two decimals, never exponents.
        #expect(svg.firstMatch(of: /[0-9]\.[0-9]{3,}/) == nil)
        #expect(svg.firstMatch(of: /="-?[0-9.]+e[-+]?[0-9]/) == nil)
        #expect(!svg.contains("nan") && !svg.contains("=\"inf") && !svg.contains(" inf"))
        // A landscape caption says so.
        let landscape = HudEnvironment(device: .iphone16Pro, orientation: .landscape)
        #expect(SvgPresenter.caption(style: .tray, device: .iphone16Pro, environment: landscape) == "tray · iphone-16-pro · ltr · landscape")
    }

    /// Writes a gallery for looking at when `HUD_SVG_DIR` names a
    /// directory (reported as skipped otherwise); every picture it wrote
    /// must be a well-formed SVG document.
    @Test(.enabled(if: !(ProcessInfo.processInfo.environment["HUD_SVG_DIR"] ?? "").isEmpty, "HUD_SVG_DIR names no directory to write the gallery to"))
    func writeGalleryWhenAsked() throws {
        let directory = try #require(ProcessInfo.processInfo.environment["HUD_SVG_DIR"])
        defer {
            let written = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".svg") }
            #expect(written.contains("hostile.svg"))
            for name in written.sorted() {
                let text = (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
                #expect(ParsedXML.parse(text)?.elements.first?.name == "svg", "\(name) is not a well-formed SVG document")
            }
        }
        for c in Self.cases where [DevicePreset.iphoneSE, .iphone16Pro, .iphoneAir].contains(c.device) {
            let layout = try Self.layout(c)
            let svg = SvgPresenter(showHitRegions: c.reveal != nil).render(
                layout, environment: c.environment, device: c.device,
                caption: SvgPresenter.caption(style: c.style, device: c.device, environment: c.environment))
            let name = "\(c.style)-\(c.device.id)-\(c.direction.rawValue)\(c.reveal == nil ? "" : "-reveal").svg"
            try svg.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
        for (name, title, direction) in [("long-title", "Settings and Privacy for Everyone Here", HudLayoutDirection.leftToRight),
                                         ("arabic-title", "الإعدادات والخصوصية للجميع هنا الآن", .rightToLeft),
                                         ("arabic-short", "الرئيسية!", .rightToLeft)] {
            let environment = HudEnvironment(device: .iphone16Pro, layoutDirection: direction, navigationTitle: title)
            let c = Case(style: .tray, device: .iphone16Pro, direction: direction)
            try SvgPresenter().render(Self.layout(c, environment: environment), environment: environment, device: .iphone16Pro)
                .write(toFile: directory + "/\(name).svg", atomically: true, encoding: .utf8)
        }
        for style in Self.styles {
            let environment = HudEnvironment(device: .iphone17Pro, orientation: .landscape, navigationTitle: "Home")
            let c = Case(style: style, device: .iphone17Pro, direction: .leftToRight, reveal: .center)
            try SvgPresenter(showHitRegions: true).render(Self.layout(c, environment: environment), environment: environment, device: c.device,
                                                          caption: SvgPresenter.caption(style: style, device: c.device, environment: environment))
                .write(toFile: directory + "/\(style)-landscape.svg", atomically: true, encoding: .utf8)
        }
        var environment = HudEnvironment(device: .iphone16Pro, layoutDirection: .rightToLeft)
        environment.navigationTitle = "T" + Self.hostile + String(repeating: " long", count: 8)
        let c = Case(style: .tray, device: .iphone16Pro, direction: .rightToLeft, reveal: .center)
        let layout = try Self.layout(c, complications: Self.hostileComplications(), environment: environment,
                                     interaction: HudInteraction(pressed: .slot(.center), revealedPosition: .center))
        try SvgPresenter(showHitRegions: true).render(layout, environment: environment, device: .iphone16Pro, caption: Self.hostile)
            .write(toFile: directory + "/hostile.svg", atomically: true, encoding: .utf8)
    }
}

/// The parsed document: every element in document order with its
/// attributes and the text it contains (its descendants' included).
final class ParsedXML: NSObject, XMLParserDelegate {
    final class Element {
        let name: String
        let attributes: [String: String]
        var text = ""
        var children: [Element] = []

        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }

        /// The first direct child named `name` (with `class`, if given).
        func child(_ name: String, class className: String? = nil) -> Element? {
            children.first { $0.name == name && (className == nil || $0.attributes["class"] == className) }
        }
    }

    private(set) var elements: [Element] = []
    private var open: [Element] = []
    private var failed = false

    func element(id: String) -> Element? { elements.first { $0.attributes["id"] == id } }

    /// nil when the text is not well-formed XML.
    static func parse(_ text: String) -> ParsedXML? {
        let document = ParsedXML()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = document
        let ok = parser.parse()
        return ok && !document.failed && document.open.isEmpty && !document.elements.isEmpty ? document : nil
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        let element = Element(name: elementName, attributes: attributeDict)
        open.last?.children.append(element)
        elements.append(element)
        open.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        open.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        for element in open { element.text += string }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        failed = true
    }
}
