// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import HudUnsafe

/// `hudhost demo`: the seed's example end to end. The five demo slots are
/// published in the shell; the center's long-press modes are built from the
/// registry (one per renderer, plugins included). The demo long-presses the
/// center, picks each style in turn, shows every step in the terminal and
/// writes one SVG per step.
struct DemoCommand: Command {
    static let name = "demo"
    static let summary = "Walk the seed's demo through every registered style; write SVGs"
    static let options: [Arguments.Option] = RegistryOptions.options + EnvironmentOptions.options + [
        .value("--out", .directory), .flag("--no-svg"), .value("--columns"), .flag("--quiet"), .flag("--help"),
    ]
    static let help = """
        USAGE: hudhost demo [--out DIR] [--no-svg] [--device ID] [--rtl] [options]

        Rebuilds the seed's example: list.bullet, ellipsis.circle, gearshape,
        rectangle.3.group and the accent center circle.grid.2x2, whose long-press
        modes come from the registry — one per registered renderer, so a plugin
        style shows up with no code change. The demo shows the shell in the
        terminal, long-presses the center, picks each style in turn, and writes
        one SVG per step to DIR (default ./hudhost-demo), named at the end.
        A renderer that fails is reported and skipped; the demo goes on.

        OPTIONS
          --out DIR           where to write the SVGs (created if missing)
          --no-svg            terminal only
          --columns N         width of the ascii pictures (default 40)
          --quiet             only the summary lines
        \(EnvironmentOptions.help)
        \(RegistryOptions.help)

        EXAMPLES
          hudhost demo
          hudhost demo --device iphone-se --rtl --out /tmp/hud-rtl
          HUD_RENDERER_PATH=$PWD/.build/debug hudhost demo

        \(exitCodeHelp)
        """

    let registryOptions: RegistryOptions
    let environmentOptions: EnvironmentOptions
    let outDirectory: String?
    let columns: Int
    let quiet: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("demo takes no arguments; got '\(arguments.positionals[0])'") }
        registryOptions = try RegistryOptions(arguments)
        environmentOptions = try EnvironmentOptions(arguments, defaultTitle: nil)
        // Resolved now, before any plugin code runs: a renderer that changes
        // the working directory cannot move where the files land.
        outDirectory = arguments.flag("--no-svg") ? nil : Output.absolute(arguments.value("--out") ?? "hudhost-demo")
        columns = try arguments.value("--columns", accepted: "a whole number from 20 to 400") { Int($0).flatMap { (20...400).contains($0) ? $0 : nil } } ?? 40
        quiet = arguments.flag("--quiet")
    }

    func run() -> ExitCode {
        let (registry, explicit, _) = registryOptions.makeRegistry()
        if !explicit.isEmpty {
            explicit.forEach(report)
            return .loadFailure
        }
        if let outDirectory, let error = Output.makeDirectory(outDirectory) {
            Output.error("hudhost demo: \(error)")
            return .usage
        }
        let environment = environmentOptions.environment
        let shell = DemoComplications.makeShell(registry: registry, environment: environment, appearance: environment.appearance)
        let renderers = registry.renderers
        Output.line("Hudson HUD demo on \(environmentOptions.device.id) (\(environment.layoutDirection.rawValue)): \(renderers.count) renderers — \(renderers.map(\.id).joined(separator: ", "))")
        var written: [String] = []
        var failed: [String] = []
        var stepNumber = 0

        func show(_ caption: String) -> Bool {
            do throws(RegistryError) {
                let layout = try shell.layout()
                // Its renderer host failed and the shell drew a built-in: this
                // style failed; the demo goes on with the next.
                if let failure = shell.rendererFailure { throw failure }
                let effective = shell.environment
                if !quiet {
                    Output.line()
                    Output.line("— \(caption)")
                    Output.out(AsciiPresenter(columns: columns).render(layout, environment: effective))
                }
                if let outDirectory {
                    let name = String(format2(stepNumber)) + "-" + fileSafe(caption) + ".svg"
                    let svg = SvgPresenter().render(layout, environment: effective, device: environmentOptions.device,
                                                    background: shell.background, caption: caption)
                    if let error = Output.writeFile(outDirectory + "/" + name, svg) {
                        Output.error("hudhost demo: \(error)")
                        return false
                    }
                    written.append(name)
                }
                stepNumber += 1
                return true
            } catch {
                report(error)
                return false
            }
        }

        func play(_ script: String) -> Bool {
            do {
                let steps = try EventScriptRunner(shell: shell).run(EventScript(parsing: script))
                for step in steps {
                    Output.line("▸ \(step.step.text): " + step.events.map(\.description).joined(separator: ", "))
                }
                return true
            } catch {
                Output.error("hudhost demo: \(error)")
                return false
            }
        }

        _ = show("\(shell.complicationsStyle) — start")
        for info in renderers {
            let mode = DemoComplications.modeID(for: info.id)
            let from = shell.complicationsStyle
            guard play("longpress center"), show("\(from) — center modes revealed") else {
                failed.append(info.id)
                shell.complicationsStyle = .tray
                continue
            }
            if (try? shell.layout().nodes.contains { $0.kind == .modeItem }) != true {
                // A renderer is free not to draw a picker; switch the way an
                // accessibility action would, and say so.
                Output.line("▸ \(from) shows no mode picker; selecting '\(mode)' through the shell")
                shell.perform(.style(HudPhoneComplicationsStyle(name: info.id)))
                _ = shell.takePendingEvents()
            } else if !play("tap mode:\(mode)") {
                failed.append(info.id)
                shell.complicationsStyle = .tray
                continue
            }
            guard shell.complicationsStyle.rendererID == info.id, show(info.id) else {
                Output.error("hudhost demo: switching to '\(info.id)' failed; going on with the next style")
                failed.append(info.id)
                shell.complicationsStyle = .tray
                continue
            }
        }
        Output.line()
        Output.line("Shown \(renderers.count - failed.count) of \(renderers.count) styles\(failed.isEmpty ? "" : "; failed: " + failed.joined(separator: ", ")).")
        if let outDirectory {
            Output.line("Wrote \(written.count) SVG files to \(outDirectory)")
        }
        return failed.isEmpty ? .ok : .failure
    }

    private func format2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    private func fileSafe(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) || scalar == "." {
                out.unicodeScalars.append(scalar)
            } else if !out.hasSuffix("-") {
                out += "-"
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.lowercased()
    }
}
