// SPDX-License-Identifier: MIT
import HudRegistry
import HudScenes

/// What the page's controls choose besides the style: the screen and the
/// user. Turned into the shell's `HudEnvironment`.
struct PreviewSettings: Sendable, Hashable {
    var device: DevicePreset
    var orientation: DevicePreset.Orientation
    var direction: HudLayoutDirection
    var textSize: TextSizeCategory
    var appearance: HudPhoneAppShellAppearance
    var scheme: HudColorScheme
    var accessibility: HudEnvironment.AccessibilityOptions

    /// The environment these settings describe. The shell fills in what it
    /// owns (the title, the deck's presentation and lanes) on assignment.
    var environment: HudEnvironment {
        HudEnvironment(device: device, orientation: orientation, layoutDirection: direction, colorScheme: scheme,
                       appearance: appearance, textSize: textSize, accessibility: accessibility)
    }

    /// The settings' JSON in `/api/state` (`settings`), with the names the
    /// page and `POST /api/settings` use.
    var json: JSONValue {
        .object([
            ("device", .string(device.id)), ("orientation", .string(orientation.rawValue)), ("direction", .string(direction.rawValue)),
            ("textSize", .string(textSize.rawValue)), ("appearance", .string(appearance.rawValue)), ("scheme", .string(scheme.rawValue)),
        ])
    }

    /// The choices for each setting (`/api/state` `choices`).
    static var choicesJSON: JSONValue {
        .object([
            ("device", .array(DevicePreset.all.map { .string($0.id) })),
            ("orientation", .array(DevicePreset.Orientation.allCases.map { .string($0.rawValue) })),
            ("direction", .array(HudLayoutDirection.allCases.map { .string($0.rawValue) })),
            ("textSize", .array(TextSizeCategory.allCases.map { .string($0.rawValue) })),
            ("appearance", .array(HudPhoneAppShellAppearance.allCases.map { .string($0.rawValue) })),
            ("scheme", .array(HudColorScheme.allCases.map { .string($0.rawValue) })),
            ("presentation", .array(presentationChoices.map(JSONValue.string))),
        ])
    }

    /// One change asked for by `POST /api/settings`, checked before any is applied.
    enum Change: Sendable, Hashable {
        case settings(PreviewSettings)
        case style(HudPhoneComplicationsStyle)
        case push(String)
        case pop
        /// The control deck on (`on-demand`, the default 6 s policy) or off (`always`).
        case presentation(HudPhoneComplicationsPresentation)
    }

    /// The `presentation` setting's names, as `hudhost render --presentation` spells them.
    static let presentationChoices = ["always", "on-demand"]

    static func presentationName(_ presentation: HudPhoneComplicationsPresentation) -> String {
        presentation.deckPolicy == nil ? "always" : "on-demand"
    }

    /// Applies a `POST /api/settings` document to a copy of `self`: every
    /// member is checked first; the first problem is the error text.
    func applying(_ document: JSONValue, renderers: [RendererInfo], pages: [String]) -> Result<[Change], SettingsError> {
        guard let members = document.objectValue else { return .failure(SettingsError("the body is \(document.typeName); send a JSON object, e.g. {\"style\":\"scattered\"}")) }
        var next = self
        var changes: [Change] = []
        func choose<T>(_ key: String, _ value: JSONValue, _ all: [T], _ name: (T) -> String) -> Result<T, SettingsError> {
            guard let text = value.stringValue else { return .failure(SettingsError("\(key) is \(value.typeName); send a string")) }
            guard let found = all.first(where: { name($0) == text }) else {
                return .failure(SettingsError("\(key) '\(text)' is not one of \(all.map(name).joined(separator: ", "))"))
            }
            return .success(found)
        }
        for (key, value) in members {
            switch key {
            case "device":
                switch choose(key, value, DevicePreset.all, \.id) { case .success(let v): next.device = v; case .failure(let e): return .failure(e) }
            case "orientation":
                switch choose(key, value, DevicePreset.Orientation.allCases, \.rawValue) { case .success(let v): next.orientation = v; case .failure(let e): return .failure(e) }
            case "direction":
                switch choose(key, value, HudLayoutDirection.allCases, \.rawValue) { case .success(let v): next.direction = v; case .failure(let e): return .failure(e) }
            case "textSize":
                switch choose(key, value, TextSizeCategory.allCases, \.rawValue) { case .success(let v): next.textSize = v; case .failure(let e): return .failure(e) }
            case "appearance":
                switch choose(key, value, HudPhoneAppShellAppearance.allCases, \.rawValue) { case .success(let v): next.appearance = v; case .failure(let e): return .failure(e) }
            case "scheme":
                switch choose(key, value, HudColorScheme.allCases, \.rawValue) { case .success(let v): next.scheme = v; case .failure(let e): return .failure(e) }
            case "style":
                guard let text = value.stringValue else { return .failure(SettingsError("style is \(value.typeName); send a renderer id")) }
                let style = HudPhoneComplicationsStyle(name: text)
                guard renderers.contains(where: { $0.id == style.rendererID }) else {
                    return .failure(SettingsError("style '\(text)' is not a registered renderer; renderers: \(renderers.map(\.id).joined(separator: ", "))"))
                }
                changes.append(.style(style))
            case "push":
                guard let title = value.stringValue else { return .failure(SettingsError("push is \(value.typeName); send a page title")) }
                guard pages.contains(title) else {
                    return .failure(SettingsError("push: the scene has no page '\(title)'; its pages: \(pages.isEmpty ? "none (no --scene)" : pages.joined(separator: ", "))"))
                }
                changes.append(.push(title))
            case "pop":
                guard value.boolValue == true else { return .failure(SettingsError("pop takes true")) }
                changes.append(.pop)
            case "presentation":
                switch choose(key, value, Self.presentationChoices, { $0 }) {
                case .success(let name): changes.append(.presentation(name == "always" ? .alwaysVisible : .summonOnDemand()))
                case .failure(let e): return .failure(e)
                }
            default:
                return .failure(SettingsError("unknown setting '\(key)'; use device, orientation, direction, textSize, appearance, scheme, presentation, style, push or pop"))
            }
        }
        if next != self { changes.insert(.settings(next), at: 0) }
        return .success(changes)
    }
}

struct SettingsError: Error, Sendable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
