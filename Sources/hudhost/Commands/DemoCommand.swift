// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import HudRaster
import HudScenes
import HudConformance

/// `hudhost demo`: the seed's example end to end. The five demo slots are
/// published in the shell; the center's long-press modes are built from the
/// registry (one per renderer, plugins included). The demo long-presses the
/// center, picks each style in turn, shows every step in the terminal and
/// writes one SVG per step.
struct DemoCommand: Command {
    static let name = "demo"
    static let summary = "Walk the seed's demo through every registered style; write SVGs"
    static let out = Option.value("--out", "DIR", .directory, "where to write the SVGs (created if missing)")
    static let noSVG = Option.flag("--no-svg", "terminal only")
    static let symbolNames = Option.flag("--symbol-names", "print each slot's SF Symbol name under it in the SVGs")
    static let png = Option.flag("--png", "also write each step as PNG (the SVG drawn by librsvg, 2 pixels per point)")
    static let columns = Option.value("--columns", "N", "width of the ascii pictures (default 40)")
    static let quiet = Option.flag("--quiet", "only the summary lines")
    static let options = [out, noSVG, symbolNames, png, columns, quiet] + EnvironmentOptions.options + RegistryOptions.options
    static let help = HelpPage(
        usage: "hudhost demo [--out DIR] [--no-svg] [--png] [--symbol-names] [--device ID] [--rtl] [options]",
        description: """
            Rebuilds the seed's example: list.bullet, ellipsis.circle, gearshape,
            rectangle.3.group and the accent center circle.grid.2x2, whose long-press
            modes come from the registry — one per registered renderer, so a plugin
            style shows up with no code change. The demo shows the shell in the
            terminal, long-presses the center, picks each style in turn, then shows
            the control deck (summon on demand) on the tray, resting and expanded
            ("tap pivot"), and writes one SVG per step to DIR (default
            ./hudhost-demo), named at the end.
            A style that cannot be shown (its renderer fails, or its mode does not
            switch to it) is named on stderr with the reason, the demo goes on,
            and it exits 1; styles filtered out or plugins that failed to load are
            noted on stderr.
            """,
        sections: [
            .options(options),
            RegistryOptions.environment,
            .examples("""
                hudhost demo
                hudhost demo --device iphone-se --rtl --out /tmp/hud-rtl
                HUD_RENDERER_PATH=$PWD/.build/debug hudhost demo
                """),
            .exitCodes(),
        ])

    let registryOptions: RegistryOptions
    let environmentOptions: EnvironmentOptions
    let outDirectory: String?
    let columns: Int
    let quiet: Bool
    let symbolNames: Bool
    let writesPNG: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("demo takes no arguments; got '\(arguments.positionals[0])'") }
        registryOptions = try RegistryOptions(arguments)
        environmentOptions = try EnvironmentOptions(arguments, defaultTitle: nil)
        // Resolved now, before any plugin code runs: a renderer that changes
        // the working directory cannot move where the files land.
        outDirectory = arguments.flag(Self.noSVG) ? nil : Output.absolute(arguments.value(Self.out) ?? "hudhost-demo")
        columns = try arguments.value(Self.columns, accepted: "a whole number from 20 to 400") { Int($0).flatMap { (20...400).contains($0) ? $0 : nil } } ?? 40
        quiet = arguments.flag(Self.quiet)
        symbolNames = arguments.flag(Self.symbolNames)
        writesPNG = arguments.flag(Self.png)
        if writesPNG, outDirectory == nil { throw UsageError("--png writes pictures; it does not go with --no-svg") }
    }

    func run() -> ExitCode {
        // The output directory first, before any plugin code runs (exit 3).
        if let outDirectory, let error = Output.prepareDirectory(outDirectory) {
            CommandFailure.unwritableOutput(error).report()
            return .unusableTarget
        }
        let (registry, explicit, _) = registryOptions.makeRegistry()
        if !explicit.isEmpty {
            explicit.forEach(report)
            return .unusableTarget
        }
        // Styles that are not registered are not in the picker: say so, so
        // none goes missing without a word.
        for (id, reason) in registry.filtered {
            Output.error("hudhost demo: note: style '\(id)' is not shown: \(reason)")
        }
        let unloaded = registry.failures.count
        if unloaded > 0 {
            Output.error("hudhost demo: note: \(unloaded) plugin load failure\(unloaded == 1 ? "" : "s") on the search path; the styles involved are not shown (`hudhost list --failed`)")
        }
        let environment = environmentOptions.environment
        let start = HudPhoneComplicationsStyle.tray
        let shell = DemoComplications.makeShell(style: start, registry: registry, environment: environment, appearance: environment.appearance,
                                                background: environment.chromePalette.bg)
        let renderers = registry.renderers
        let stepCount = 1 + 2 * renderers.count + 2
        Output.line("Hudson HUD demo · \(environmentOptions.device.id) \(environmentOptions.orientation.rawValue), \(environment.layoutDirection.rawValue), \(environment.appearance.rawValue) appearance")
        Output.line("\(renderers.count) style\(renderers.count == 1 ? "" : "s"), one long-press mode each: "
            + renderers.map { "\(DemoComplications.modeID(for: $0.id)) (\($0.name))" }.joined(separator: ", "))
        var written: [String] = []
        var pictures: [String] = []
        var failed: [(id: String, reason: String)] = []
        var stepNumber = 0
        var writeFailure: CommandFailure?

        /// Draws the current layout as the next step; the error if the
        /// style in use failed (the shell's fallback frame is not shown).
        func show(_ caption: String) -> RegistryError? {
            let layout: HudLayout
            do throws(RegistryError) {
                layout = try shell.layout()
                if let failure = shell.rendererFailure { throw failure }
            } catch {
                return error
            }
            let effective = shell.environment
            let name = format2(stepNumber) + "-" + fileSafe(caption) + ".svg"
            stepNumber += 1
            if !quiet {
                Output.line()
                Output.line(heading("\(stepNumber)/\(stepCount)  \(caption)"))
                Output.out(AsciiPresenter(columns: columns).render(layout, environment: effective))
            }
            guard let outDirectory, writeFailure == nil else { return nil }
            let svg = SvgPresenter(showSymbolNames: symbolNames).render(layout, environment: effective, device: environmentOptions.device,
                                            background: shell.background, caption: caption)
            if let error = Output.writeFile(outDirectory + "/" + name, svg) {
                writeFailure = .unwritableOutput(error)
                return nil
            }
            written.append(name)
            if !quiet { Output.line("  → \(name)") }
            if writesPNG {
                let pictureName = String(name.dropLast(".svg".count)) + ".png"
                let size = SvgPresenter.captionedSize(effective)
                switch PNGRaster.png(svg: svg, width: size.width, height: size.height, scale: 2) {
                case .success(let bytes):
                    if let error = Output.writeFile(outDirectory + "/" + pictureName, bytes: bytes) {
                        writeFailure = .unwritableOutput(error)
                    } else {
                        pictures.append(pictureName)
                        if !quiet { Output.line("  → \(pictureName)") }
                    }
                case .failure(let failure): writeFailure = .unrenderablePicture(failure.description)
                }
            }
            return nil
        }

        /// Plays `script`; the reason when it could not.
        func play(_ script: String) -> String? {
            do {
                let steps = try EventScriptRunner(shell: shell).run(EventScript(parsing: script))
                for step in steps {
                    Output.line(TextChecks.escapingControls("▸ \(step.step.text): " + step.events.map(\.description).joined(separator: ", ")))
                }
                return nil
            } catch {
                return "\(error)"
            }
        }

        /// The style `id` could not be shown: said on stderr with why, and
        /// the demo goes on from the tray.
        func skip(_ id: String, _ reason: String) {
            Output.error("hudhost demo: style '\(id)' cannot be shown: \(reason); going on with the next style")
            failed.append((id, reason))
            shell.complicationsStyle = .tray
        }

        if let error = show("\(shell.complicationsStyle) — start") {
            skip(shell.complicationsStyle.rendererID, error.description)
        }
        // The styles the picker offers (the starting one always among them).
        let offered = Set(DemoComplications.modeRenderers(renderers, keeping: start).map(\.id))
        for info in renderers {
            guard writeFailure == nil else { break }
            let mode = DemoComplications.modeID(for: info.id)
            let from = shell.complicationsStyle
            if let reason = play("longpress center") {
                skip(info.id, "long-pressing the center in \(from) failed: \(reason)")
                continue
            }
            if let error = show("\(from) — center modes revealed") {
                // The style showing the picker failed, not the one to pick.
                skip(from.rendererID, error.description)
                if from.rendererID == info.id { continue }
                if let reason = play("longpress center") {
                    skip(info.id, "long-pressing the center in tray failed: \(reason)")
                    continue
                }
            }
            let inPicker = offered.contains(info.id)
            if !inPicker || (try? shell.layout().nodes.contains { $0.kind == .modeItem }) != true {
                // A renderer is free not to draw a picker, and a picker holds
                // the first HUD_MAX_MODES styles only; switch the way an
                // accessibility action would, and say so.
                Output.line("▸ " + (inPicker ? "\(shell.complicationsStyle) shows no mode picker"
                                             : "the picker holds the first \(ABILimits.maxModes) styles")
                            + "; selecting '\(mode)' through the shell")
                shell.perform(.style(HudPhoneComplicationsStyle(name: info.id)))
                _ = shell.takePendingEvents()
            } else if let reason = play("tap mode:\(mode)") {
                skip(info.id, "tapping its mode '\(mode)' failed: \(reason)")
                continue
            }
            guard shell.complicationsStyle.rendererID == info.id else {
                skip(info.id, "its mode '\(mode)' did not switch to it (the style is \(shell.complicationsStyle))")
                continue
            }
            if let error = show(info.id) {
                skip(info.id, error.description)
            }
        }
        // The control deck on the tray: resting, then expanded.
        if writeFailure == nil {
            shell.complicationsStyle = .tray
            shell.complicationsPresentation = .summonOnDemand()
            if let error = show("control deck — resting") {
                failed.append(("control deck", error.description))
                Output.error("hudhost demo: the control deck cannot be shown: \(error)")
            } else if let reason = play("tap pivot") {
                failed.append(("control deck", reason))
                Output.error("hudhost demo: tapping the control deck's pivot failed: \(reason)")
            } else if let error = show("control deck — expanded") {
                failed.append(("control deck", error.description))
                Output.error("hudhost demo: the expanded control deck cannot be shown: \(error)")
            }
        }
        if let writeFailure {
            writeFailure.report()
            return writeFailure.exit
        }
        Output.line()
        let failedIDs = failed.map(\.id)
        var shownCount = 0
        for info in renderers where !failedIDs.contains(info.id) { shownCount += 1 }
        Output.line("Shown \(shownCount) of \(renderers.count) styles\(failed.isEmpty ? "" : "; failed: " + failedIDs.joined(separator: ", ")).")
        if let outDirectory {
            Output.line("Wrote \(written.count) SVG files" + (writesPNG ? " and \(pictures.count) PNG files" : "") + " to \(outDirectory)")
        }
        return failed.isEmpty ? .ok : .failure
    }

    /// `── 2/7  tray — center modes revealed ───…` as wide as the pictures.
    private func heading(_ title: String) -> String {
        let text = "── " + title + " "
        return text + String(repeating: "─", count: max(3, columns - text.count))
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
