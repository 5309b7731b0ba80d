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
public struct SceneFile: Sendable {
    public static let schemaVersion = 1

    public var title: String?
    public var style: HudPhoneComplicationsStyle?
    public var slots: [Position: SlotSpec]

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

    public init(_ root: JSONValue) throws(Error) {
        let object = try Self.object(root, "", allowed: ["schemaVersion", "title", "style", "complications"])
        guard let version = object["schemaVersion"] else {
            throw Error(path: "schemaVersion", reason: "is missing; add \"schemaVersion\": \(Self.schemaVersion)")
        }
        guard version.numberValue == Double(Self.schemaVersion) else {
            throw Error(path: "schemaVersion", reason: "is \(version.serialized(pretty: false)); this host reads version \(Self.schemaVersion)")
        }
        title = try object["title"].map { value throws(Error) in try Self.string(value, "title", limit: 4096) }
        style = try object["style"].map { value throws(Error) in HudPhoneComplicationsStyle(name: try Self.string(value, "style", limit: 64, nonEmpty: true)) }
        slots = [:]
        if let complications = object["complications"] {
            let members = try Self.object(complications, "complications", allowed: Set(Position.allCases.map(\.description)))
            for (key, value) in members.objectValue ?? [] {
                guard let position = Position(name: key) else { continue }
                slots[position] = try Self.slot(value, "complications.\(key)", position: position)
            }
        }
    }

    /// The seed model for this scene; each fired action is passed to `perform`.
    public func complications(perform: @escaping (SceneAction) -> Void) -> HudPhoneComplications {
        var result = HudPhoneComplications()
        for (position, spec) in slots {
            let secondary = spec.secondary.map { chip in
                HudPhoneComplications.Secondary(icon: chip.icon, label: chip.label, action: chip.action.map { action in { perform(action) } })
            }
            let modes = spec.modes?.map { mode in
                HudPhoneComplications.Mode(id: mode.id, icon: mode.icon, label: mode.label) { perform(mode.action) }
            }
            result[position] = HudPhoneComplications.Slot(
                icon: spec.icon, role: spec.role, label: spec.label, secondary: secondary, longPressModes: modes
            ) { perform(spec.action) }
        }
        return result
    }

    // MARK: - Decoding helpers

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
