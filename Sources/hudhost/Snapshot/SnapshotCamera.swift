// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import HudRaster
import HudScenes
import HudSystem

/// Takes one case's picture for `snapshot` and `gallery`: the shell with
/// the renderer's style in the case's environment and state, its layout as
/// JSON (what `render --format json` writes, with the case's name) and its
/// SVG picture drawn as PNG by librsvg at 1 pixel per point.
struct SnapshotCamera {
    let registry: RendererRegistry
    /// A scene whose first page replaces the demo complications.
    let scene: SceneFile?

    /// One case's layout document (as written, and its `layout` member as a
    /// value, for the comparison) and picture.
    struct Shot {
        var json: String
        var layout: JSONValue
        var png: [UInt8]
    }

    /// Nanoseconds spent laying out, rasterizing and comparing.
    struct Timings {
        var layout: UInt64 = 0
        var raster: UInt64 = 0
        var diff: UInt64 = 0
    }

    /// The targets first, before any plugin code runs: the scene, the
    /// directories to write, the registry (plugins with `options`), then
    /// each target's renderers — a renderer id, or a plugin file's (all
    /// registered renderers when `targets` is empty). Every case is its
    /// own test: a renderer host that crashed in one is restarted for the
    /// next at once, however often.
    static func make(targets: [String], scenePath: String?, directories: [String],
                     options: RegistryOptions) -> Result<(SnapshotCamera, [RendererInfo]), CommandFailure> {
        var scene: SceneFile?
        if let scenePath {
            switch SceneLoader.load(scenePath) {
            case .success(let loaded): scene = loaded
            case .failure(let failure): return .failure(failure)
            }
        }
        for path in directories {
            if let problem = Output.prepareDirectory(path) { return .failure(.unwritableOutput(problem)) }
        }
        let (registry, explicit, catalog) = options.makeRegistry { settings in
            settings.backoffSeconds = 0
            settings.maxConsecutiveFailures = .max
        }
        if let first = explicit.first {
            explicit.dropFirst().forEach(report)
            return .failure(CommandFailure(first))
        }
        var renderers: [RendererInfo] = targets.isEmpty ? registry.renderers : []
        for target in targets {
            if target.contains("/") || target.hasSuffix(".so") {
                do {
                    renderers += try registry.load(checking: Output.absolute(target))
                } catch {
                    return .failure(CommandFailure(error))
                }
            } else if let info = registry.info(id: target) {
                renderers.append(info)
            } else {
                return .failure(RendererLookup(id: target, registry: registry, report: catalog).failure)
            }
        }
        return .success((SnapshotCamera(registry: registry, scene: scene), renderers))
    }

    /// The case's shot; nil when its state does not apply (no slot has
    /// modes to reveal).
    func shoot(_ testCase: SnapshotCase, of info: RendererInfo, timings: inout Timings) -> Result<Shot?, CaseFailure> {
        var start = SystemCalls.monotonicNanoseconds()
        let drawn: (json: String, layout: JSONValue, svg: String)
        switch draw(testCase, info: info) {
        case .success(let made?): drawn = made
        case .success(nil): return .success(nil)
        case .failure(let failure): return .failure(failure)
        }
        let now = SystemCalls.monotonicNanoseconds()
        timings.layout += now - start
        start = now
        defer { timings.raster += SystemCalls.monotonicNanoseconds() - start }
        let size = SvgPresenter.captionedSize(testCase.environment)
        switch PNGRaster.png(svg: drawn.svg, width: size.width, height: size.height, scale: 1) {
        case .success(let png): return .success(Shot(json: drawn.json, layout: drawn.layout, png: png))
        case .failure(let failure): return .failure(CaseFailure(description: "the picture could not be drawn: \(failure)"))
        }
    }

    /// The case's layout document and SVG picture (and the picture's
    /// height), nil when the state does not apply.
    private func draw(_ testCase: SnapshotCase, info: RendererInfo) -> Result<(json: String, layout: JSONValue, svg: String)?, CaseFailure> {
        let environment = testCase.environment
        let style = HudPhoneComplicationsStyle(name: info.id)
        let presentation: HudPhoneComplicationsPresentation = [.deck, .deckExpanded].contains(testCase.state) ? .summonOnDemand() : .alwaysVisible
        let background = environment.chromePalette.bg
        let shell = scene?.makeShell(style: style, presentation: presentation, registry: registry, environment: environment,
                                     appearance: environment.appearance, background: background)
            ?? DemoComplications.makeShell(style: style, presentation: presentation, registry: registry, environment: environment,
                                           appearance: environment.appearance, background: background)
        shell.updateTop { $0.title = "Home" }
        do throws(RegistryError) {
            switch testCase.state {
            case .resting, .deck: break
            case .revealed:
                let withModes = ([Position.center] + Position.allCases).first { (try? shell.modeIDs(at: $0).isEmpty) == false }
                guard let position = withModes else { return .success(nil) }
                try shell.reveal(position)
            case .deckExpanded:
                guard let tap = try? EventScript(parsing: "tap pivot") else { return .failure(CaseFailure(description: "tap pivot does not parse")) }
                do {
                    _ = try EventScriptRunner(shell: shell).run(tap)
                } catch .registry(let error) {
                    throw error
                } catch {
                    return .failure(CaseFailure(description: "tap pivot: \(error)"))
                }
            }
            let layout = try shell.layout()
            if let failure = shell.rendererFailure { throw failure }
            let nodes = LayoutJSON.layout(layout)
            let document = JSONValue.object([
                ("schemaVersion", .number(Double(LayoutJSON.schemaVersion))),
                ("case", .string(testCase.name)),
                ("renderer", LayoutJSON.renderer(info)),
                ("environment", LayoutJSON.environment(shell.environment)),
                ("interaction", LayoutJSON.interaction(shell.interaction)),
                ("layout", nodes),
            ]).serialized() + "\n"
            let svg = SvgPresenter().render(layout, environment: shell.environment, device: testCase.device, background: shell.background,
                                            caption: "\(info.id) · \(testCase.name)")
            return .success((document, nodes, svg))
        } catch {
            return .failure(CaseFailure(description: "\(error)", code: error.code))
        }
    }

    /// Why a case could not be laid out or drawn.
    struct CaseFailure: Error, CustomStringConvertible {
        var description: String
        /// The registry's code when the renderer failed (`crashed`, `timed-out`, …).
        var code: FailureCode?

        init(description: String, code: FailureCode? = nil) {
            self.description = description
            self.code = code
        }

        /// The renderer (its host process) crashed or hung.
        var crashed: Bool { code == .crashed || code == .timedOut }
    }
}
