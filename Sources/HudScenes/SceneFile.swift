// SPDX-License-Identifier: MIT
public import HudRegistry
/// A JSON scene: the complications a page publishes (with named actions),
/// its title and the style to render it with. Schema: Docs/SCENES.md.
///
///     {
///       "schemaVersion": 1,
///       "title": "Home",
///       "style": "tray",
///       "complications": {
///         "topLeft": { "icon": "list.bullet", "action": "log:showLogs" },
///         "center": { "icon": "circle.grid.2x2", "role": "accent",
///                     "longPressModes": [ { "id": "tray", "icon": "rectangle.bottomthird.inset.filled",
///                                           "label": "Tray", "action": "style:tray" } ] }
///       }
///     }
///
/// A scene may instead hold a page table and a navigation stack:
///
///     { "schemaVersion": 1,
///       "pages": [ { "title": "Home", "complications": { … },
///                    "children": [ { "title": "Feed", "complications": { … } } ] },
///                  { "title": "Settings", "complications": { … } } ],
///       "stack": ["Home"] }
///
/// `push:<title>` actions push the page with that title from the table.
///
/// `"presentation": "summonOnDemand"` (optionally with `"deckTimeout":
/// seconds`) puts the complications behind the control deck;
/// `"alwaysVisible"` is the default.
public struct SceneFile: Sendable {
    public static let schemaVersion = 1

    /// The first page's title (the single-page form's `title`).
    public var title: String? { pages.first?.title }
    public var style: HudPhoneComplicationsStyle?
    /// How the shell presents the complications (nil: not given, so
    /// `.alwaysVisible` unless the host chooses).
    public var presentation: HudPhoneComplicationsPresentation?
    /// The page table; the single-page form has one page.
    public var pages: [PageSpec]
    /// Titles of the pages on the initial navigation stack, root first.
    public var stack: [String]
    /// The first page's own slots.
    public var slots: [Position: SlotSpec] { pages.first?.slots ?? [:] }

    public struct PageSpec: Sendable, Hashable {
        public var title: String
        /// nil: the page publishes nothing (its container's set stays in force).
        public var slots: [Position: SlotSpec]?
        public var children: [PageSpec]
    }

    public struct SlotSpec: Sendable, Hashable {
        public var icon: String
        public var role: HudPhoneComplications.Role
        public var label: String?
        public var secondary: SecondarySpec?
        public var modes: [ModeSpec]?
        public var action: SceneAction
    }

    public struct SecondarySpec: Sendable, Hashable {
        public var icon: String
        public var label: String?
        public var action: SceneAction?
    }

    public struct ModeSpec: Sendable, Hashable {
        public var id: String
        public var icon: String
        public var label: String
        public var action: SceneAction
    }

    /// A scene error: where in the document (a JSON path like
    /// `complications.center.longPressModes[1].id`) and why.
    public struct Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
    }

    /// Parses and checks a scene document. Unknown keys are errors, so a
    /// typo never silently drops a slot.
    public init(json text: String) throws(Error) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(text)
        } catch {
            throw Error(path: "", reason: "not valid JSON: \(error)")
        }
        try self.init(root)
    }

    package init(_ root: JSONValue) throws(Error) {
        let object = try Self.object(root, "", allowed: ["schemaVersion", "title", "style", "presentation", "deckTimeout", "complications", "pages", "stack"])
        guard let version = object["schemaVersion"] else {
            throw Error(path: "schemaVersion", reason: "is missing; add \"schemaVersion\": \(Self.schemaVersion)")
        }
        guard version.numberValue == Double(Self.schemaVersion) else {
            throw Error(path: "schemaVersion", reason: "is \(version.serialized(pretty: false)); this host reads version \(Self.schemaVersion)")
        }
        style = try object["style"].map { value throws(Error) in HudPhoneComplicationsStyle(name: try Self.string(value, "style", limit: 64, nonEmpty: true)) }
        presentation = try Self.presentation(object["presentation"], timeout: object["deckTimeout"])
        if let pagesValue = object["pages"] {
            for key in ["title", "complications"] where object[key] != nil {
                throw Error(path: key, reason: "cannot be combined with \"pages\"; give each page its own title and complications")
            }
            guard let items = pagesValue.arrayValue, !items.isEmpty else {
                throw Error(path: "pages", reason: "must be a non-empty array of pages")
            }
            pages = []
            var titles: Set<String> = []
            for (index, item) in items.enumerated() {
                let page = try Self.page(item, "pages[\(index)]", depth: 0)
                guard titles.insert(page.title).inserted else {
                    throw Error(path: "pages[\(index)].title", reason: "'\(page.title)' is already the title of another page; titles name pages for push:")
                }
                pages.append(page)
            }
        } else {
            let title = try object["title"].map { value throws(Error) in try Self.string(value, "title", limit: 4096) } ?? "Home"
            pages = [PageSpec(title: title, slots: try Self.slots(object["complications"], "complications") ?? [:], children: [])]
        }
        if let stackValue = object["stack"] {
            guard let items = stackValue.arrayValue, !items.isEmpty else { throw Error(path: "stack", reason: "must be a non-empty array of page titles") }
            stack = []
            let titles = Set(pages.map(\.title))
            for (index, item) in items.enumerated() {
                let title = try Self.string(item, "stack[\(index)]", limit: 4096)
                guard titles.contains(title) else {
                    throw Error(path: "stack[\(index)]", reason: "'\(title)' is not the title of a page in \"pages\"")
                }
                stack.append(title)
            }
        } else {
            stack = [pages[0].title]
        }
    }

    /// The page with `title` from the table.
    public func page(titled title: String) -> PageSpec? { pages.first { $0.title == title } }

    /// Builds a shell for this scene: its stack, its style (unless
    /// `style` overrides it), and its named actions wired to the shell.
    /// `presentation` overrides the scene's `presentation` likewise.
    public func makeShell(style override: HudPhoneComplicationsStyle? = nil, presentation presentationOverride: HudPhoneComplicationsPresentation? = nil,
                          registry: RendererRegistry, environment: HudEnvironment, appearance: HudPhoneAppShellAppearance = .hudson,
                          background: HudColor = HudPalette.bg) -> HudPhoneAppShell {
        let shell = HudPhoneAppShell(complicationsStyle: override ?? style ?? .tray,
                                     complicationsPresentation: presentationOverride ?? presentation ?? .alwaysVisible,
                                     background: background, appearance: appearance,
                                     registry: registry, environment: environment) { HudPage(title: "") }
        let sink = ActionSink(shell: shell, pages: pages)
        // A style mode is current while its style is in use: after any
        // style change the pages are built again from the table.
        shell.styleDidChange = { _ in sink.republish() }
        let built = stack.compactMap(sink.page(titled:))
        shell.setRoot(built[0])
        for page in built.dropFirst() { shell.push(page) }
        _ = shell.takePendingEvents()
        return shell
    }

    /// Forwards scene actions to the shell without a retain cycle.
    /// Carries a scene's named actions out on its shell; `push:<title>`
    /// builds the page from the scene's table. Holds the shell weakly (the
    /// shell's pages hold the sink through their actions).
    private final class ActionSink {
        weak var shell: HudPhoneAppShell?
        /// The page table by title (titles are unique).
        let pages: [String: PageSpec]

        init(shell: HudPhoneAppShell, pages: [PageSpec]) {
            self.shell = shell
            self.pages = Dictionary(pages.map { ($0.title, $0) }) { first, _ in first }
        }

        func page(titled title: String) -> HudPage? {
            pages[title]?.page(currentStyle: shell?.complicationsStyle) { [self] action in perform(action) }
        }

        func perform(_ action: SceneAction) {
            shell?.perform(action, pages: page(titled:))
        }

        func republish() {
            shell?.updatePages { page in
                if let fresh = self.page(titled: page.title) { page = fresh }
            }
        }
    }

    /// The seed model for the first page's slots; each fired action is
    /// passed to `perform`. A mode whose action is `style:<currentStyle>`
    /// is the slot's current mode.
    public func complications(currentStyle: HudPhoneComplicationsStyle? = nil,
                              perform: @escaping (SceneAction) -> Void) -> HudPhoneComplications {
        Self.complications(slots, currentStyle: currentStyle, perform: perform)
    }

    static func complications(_ slots: [Position: SlotSpec], currentStyle: HudPhoneComplicationsStyle?,
                              perform: @escaping (SceneAction) -> Void) -> HudPhoneComplications {
        var result = HudPhoneComplications()
        for (position, spec) in slots {
            let secondary = spec.secondary.map { chip in
                HudPhoneComplications.Secondary(icon: chip.icon, label: chip.label, action: chip.action.map { action in { perform(action) } })
            }
            let modes = spec.modes?.map { mode in
                HudPhoneComplications.Mode(id: mode.id, icon: mode.icon, label: mode.label,
                                           isCurrent: currentStyle.map { mode.action == .style($0) } ?? false) { perform(mode.action) }
            }
            result[position] = HudPhoneComplications.Slot(
                icon: spec.icon, role: spec.role, label: spec.label, secondary: secondary, longPressModes: modes
            ) { perform(spec.action) }
        }
        return result
    }

    // MARK: - Decoding helpers

    private static func slots(_ value: JSONValue?, _ path: String) throws(Error) -> [Position: SlotSpec]? {
        guard let value else { return nil }
        if value == .null { return nil }
        let members = try object(value, path, allowed: Set(Position.allCases.map(\.description)))
        var slots: [Position: SlotSpec] = [:]
        for (key, member) in members.objectValue ?? [] {
            guard let position = Position(name: key) else { continue }
            slots[position] = try slot(member, "\(path).\(key)", position: position)
        }
        return slots
    }

    static let maxPageDepth = 16

    /// `presentation` ("alwaysVisible" or "summonOnDemand") and its
    /// optional `deckTimeout` (seconds, only with "summonOnDemand").
    private static func presentation(_ value: JSONValue?, timeout: JSONValue?) throws(Error) -> HudPhoneComplicationsPresentation? {
        let name = try value.map { value throws(Error) in try string(value, "presentation", limit: 64) }
        var policy = HudPhoneControlDeckPolicy()
        if let timeout {
            guard name == "summonOnDemand" else {
                throw Error(path: "deckTimeout", reason: "only applies with \"presentation\": \"summonOnDemand\"; add it or remove deckTimeout")
            }
            let limit = HudPhoneControlDeckPolicy.maximumInactivityTimeout
            guard let seconds = timeout.numberValue else { throw Error(path: "deckTimeout", reason: "is \(timeout.typeName); expected a number of seconds") }
            guard seconds > 0, seconds <= limit else {
                throw Error(path: "deckTimeout", reason: "is \(timeout.serialized(pretty: false)); a timeout is more than 0 and at most \(JSONValue.format(limit)) seconds")
            }
            policy.inactivityTimeout = seconds
        }
        switch name {
        case nil: return nil
        case "alwaysVisible": return .alwaysVisible
        case "summonOnDemand": return .summonOnDemand(policy)
        case let other?: throw Error(path: "presentation", reason: "'\(other)' is not a presentation; use alwaysVisible or summonOnDemand")
        }
    }

    private static func page(_ value: JSONValue, _ path: String, depth: Int) throws(Error) -> PageSpec {
        guard depth <= maxPageDepth else { throw Error(path: path, reason: "pages nest deeper than \(maxPageDepth) levels") }
        let object = try object(value, path, allowed: ["title", "complications", "children"])
        guard let titleValue = object["title"] else { throw Error(path: "\(path).title", reason: "is missing; every page needs a title") }
        let title = try string(titleValue, "\(path).title", limit: 4096)
        var children: [PageSpec] = []
        if let childrenValue = object["children"] {
            guard let items = childrenValue.arrayValue else { throw Error(path: "\(path).children", reason: "is \(childrenValue.typeName); expected an array of pages") }
            for (index, item) in items.enumerated() {
                children.append(try page(item, "\(path).children[\(index)]", depth: depth + 1))
            }
        }
        return PageSpec(title: title, slots: try slots(object["complications"], "\(path).complications"), children: children)
    }

    private static func object(_ value: JSONValue, _ path: String, allowed: Set<String>) throws(Error) -> JSONValue {
        guard let members = value.objectValue else { throw Error(path: path, reason: "is \(value.typeName); expected an object") }
        for (key, _) in members where !allowed.contains(key) {
            throw Error(path: path.isEmpty ? key : "\(path).\(key)", reason: "is not a known key; expected one of \(allowed.sorted().joined(separator: ", "))")
        }
        return value
    }

    private static func string(_ value: JSONValue, _ path: String, limit: Int, nonEmpty: Bool = false) throws(Error) -> String {
        guard let string = value.stringValue else { throw Error(path: path, reason: "is \(value.typeName); expected a string") }
        guard string.utf8.count <= limit else { throw Error(path: path, reason: "is \(string.utf8.count) bytes; at most \(limit) are allowed") }
        guard !nonEmpty || !string.isEmpty else { throw Error(path: path, reason: "is empty") }
        guard !string.utf8.contains(0) else { throw Error(path: path, reason: "contains a NUL character") }
        return string
    }

    private static func action(_ value: JSONValue, _ path: String) throws(Error) -> SceneAction {
        let text = try string(value, path, limit: 4096)
        guard let action = SceneAction(parsing: text) else {
            throw Error(path: path, reason: "'\(text)' is not an action; use log:<text>, style:<id>, push:<title> or pop")
        }
        return action
    }

    private static func slot(_ value: JSONValue, _ path: String, position: Position) throws(Error) -> SlotSpec {
        let object = try object(value, path, allowed: ["icon", "role", "label", "secondary", "longPressModes", "action"])
        guard let iconValue = object["icon"] else { throw Error(path: "\(path).icon", reason: "is missing; every slot needs an icon") }
        let icon = try string(iconValue, "\(path).icon", limit: 128, nonEmpty: true)
        var role = HudPhoneComplications.Role.standard
        if let roleValue = object["role"] {
            let name = try string(roleValue, "\(path).role", limit: 32)
            guard let parsed = HudPhoneComplications.Role(name: name) else {
                throw Error(path: "\(path).role", reason: "'\(name)' is not a role; use standard, accent or destructive")
            }
            role = parsed
        }
        let label = try object["label"].map { value throws(Error) in try string(value, "\(path).label", limit: 4096) }
        let secondary = try object["secondary"].map { value throws(Error) -> SecondarySpec in
            let chip = try self.object(value, "\(path).secondary", allowed: ["icon", "label", "action"])
            guard let chipIcon = chip["icon"] else { throw Error(path: "\(path).secondary.icon", reason: "is missing") }
            return SecondarySpec(
                icon: try string(chipIcon, "\(path).secondary.icon", limit: 128, nonEmpty: true),
                label: try chip["label"].map { value throws(Error) in try string(value, "\(path).secondary.label", limit: 4096) },
                action: try chip["action"].map { value throws(Error) in try action(value, "\(path).secondary.action") })
        }
        var modes: [ModeSpec]?
        if let modesValue = object["longPressModes"] {
            guard let items = modesValue.arrayValue else { throw Error(path: "\(path).longPressModes", reason: "is \(modesValue.typeName); expected an array") }
            guard items.count <= 64 else { throw Error(path: "\(path).longPressModes", reason: "has \(items.count) modes; at most 64 are allowed") }
            var parsed: [ModeSpec] = []
            for (index, item) in items.enumerated() {
                let itemPath = "\(path).longPressModes[\(index)]"
                let mode = try self.object(item, itemPath, allowed: ["id", "icon", "label", "action"])
                func required(_ key: String, _ limit: Int) throws(Error) -> String {
                    guard let value = mode[key] else { throw Error(path: "\(itemPath).\(key)", reason: "is missing") }
                    return try string(value, "\(itemPath).\(key)", limit: limit, nonEmpty: key != "label")
                }
                let id = try required("id", 64)
                if parsed.contains(where: { $0.id == id }) { throw Error(path: "\(itemPath).id", reason: "'\(id)' repeats an earlier mode id") }
                parsed.append(ModeSpec(
                    id: id, icon: try required("icon", 128), label: try required("label", 4096),
                    action: try mode["action"].map { value throws(Error) in try action(value, "\(itemPath).action") } ?? .log("\(position).\(id)")))
            }
            modes = parsed
        }
        let tap = try object["action"].map { value throws(Error) in try action(value, "\(path).action") } ?? .log("\(position)")
        return SlotSpec(icon: icon, role: role, label: label, secondary: secondary, modes: modes, action: tap)
    }
}

extension SceneFile.PageSpec {
    /// The page tree with closures that hand each named action to
    /// `perform`; modes that switch to `currentStyle` are current.
    public func page(currentStyle: HudPhoneComplicationsStyle? = nil, perform: @escaping (SceneAction) -> Void) -> HudPage {
        HudPage(title: title, complications: slots.map { SceneFile.complications($0, currentStyle: currentStyle, perform: perform) },
                children: children.map { $0.page(currentStyle: currentStyle, perform: perform) })
    }
}
