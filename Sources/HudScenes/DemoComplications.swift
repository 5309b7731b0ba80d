// SPDX-License-Identifier: MIT
public import HudRegistry
/// The seed's example complications: list, menu, settings, shell, and the
/// accent center whose long-press modes switch render styles. The modes
/// come from the registry: one per registered renderer, so a plugin style
/// shows up in the picker with no code change.
public enum DemoComplications {
    /// The icon of a renderer's mode: its picker icon (ABI 1.2 descriptor
    /// `picker_icon`; the built-ins name the seed's), else `defaultModeIcon`.
    public static func modeIcon(for renderer: RendererInfo) -> String {
        renderer.pickerIcon ?? defaultModeIcon
    }

    /// The mode icon of a renderer that names none (1.0 and 1.1 renderers).
    public static let defaultModeIcon = "paintbrush"

    /// The short mode id for a renderer: `tray` for `com.hudson.tray`, the
    /// full id for anything else.
    public static func modeID(for rendererID: String) -> String {
        HudPhoneComplicationsStyle(name: rendererID).description
    }

    /// The demo set. `renderers` supplies the modes (registration order;
    /// at most `HUD_MAX_MODES`, so with more renderers than that the first
    /// ones are shown, and `keeping`, when it is not among them, takes the
    /// last place); `chosen`'s mode is the current one. Every action
    /// reports what fired through `perform`.
    public static func make(renderers: [RendererInfo], keeping chosen: HudPhoneComplicationsStyle? = nil,
                            perform: @escaping (SceneAction) -> Void) -> HudPhoneComplications {
        let shown = modeRenderers(renderers, keeping: chosen)
        return HudPhoneComplications(
            topLeft: .init(icon: "list.bullet", label: "Logs") { perform(.log("showLogs")) },
            topRight: .init(icon: "ellipsis.circle", label: "Menu") { perform(.log("showMenu")) },
            bottomLeft: .init(icon: "gearshape", label: "Settings") { perform(.log("openSettings")) },
            bottomRight: .init(icon: "rectangle.3.group", label: "Shell") { perform(.log("openShell")) },
            center: .init(
                icon: "circle.grid.2x2",
                role: .accent,
                label: "Complications",
                longPressModes: shown.map { info in
                    let style = HudPhoneComplicationsStyle(name: info.id)
                    return .init(id: modeID(for: info.id), icon: modeIcon(for: info), label: info.name,
                                 isCurrent: info.id == chosen?.rendererID) { perform(.style(style)) }
                },
                action: { perform(.log("openComplications")) }
            )
        )
    }
}

extension DemoComplications {
    /// The renderers `make` gives a long-press mode: the first
    /// `HUD_MAX_MODES`, with `chosen` in the last place when it is not
    /// among them.
    public static func modeRenderers(_ renderers: [RendererInfo], keeping chosen: HudPhoneComplicationsStyle? = nil) -> [RendererInfo] {
        var shown = Array(renderers.prefix(ABILimits.maxModes))
        if let chosen, renderers.count > shown.count, !shown.contains(where: { $0.id == chosen.rendererID }),
           let info = renderers.first(where: { $0.id == chosen.rendererID }) {
            shown[shown.count - 1] = info
        }
        return shown
    }

    /// A shell showing the seed's demo: a "Home" page publishing the demo
    /// set, its actions wired to the shell (the center's modes switch style).
    public static func makeShell(style: HudPhoneComplicationsStyle = .tray, presentation: HudPhoneComplicationsPresentation = .alwaysVisible,
                                 registry: RendererRegistry, environment: HudEnvironment, appearance: HudPhoneAppShellAppearance = .hudson,
                                 background: HudColor = HudPalette.bg) -> HudPhoneAppShell {
        let shell = HudPhoneAppShell(complicationsStyle: style, complicationsPresentation: presentation, background: background,
                                     appearance: appearance, registry: registry, environment: environment) {
            HudPage(title: "Home")
        }
        let publisher = Publisher(shell: shell, renderers: registry.renderers)
        shell.setRoot(HudPage(title: "Home", complications: publisher.complications()))
        shell.styleDidChange = { _ in publisher.republish() }
        return shell
    }

    /// Carries the demo's actions out on its shell (held weakly: the
    /// shell's pages hold this through their actions) and, after any style
    /// change, publishes the set again with the new style's mode current.
    private final class Publisher {
        weak var shell: HudPhoneAppShell?
        let renderers: [RendererInfo]

        init(shell: HudPhoneAppShell, renderers: [RendererInfo]) {
            self.shell = shell
            self.renderers = renderers
        }

        func complications() -> HudPhoneComplications {
            make(renderers: renderers, keeping: shell?.complicationsStyle) { [self] action in perform(action) }
        }

        func perform(_ action: SceneAction) {
            shell?.perform(action)
        }

        func republish() {
            let fresh = complications()
            shell?.updatePages { page in
                if page.complications != nil { page.complications = fresh }
            }
        }
    }
}
