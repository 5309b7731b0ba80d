// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import HudRaster
import HudScenes
import HudSystem

/// `hudhost snapshot record|verify`: snapshot tests for renderers. Each
/// case of the matrix (SnapshotMatrix) is laid out in the headless shell
/// and stored as its layout (JSON) and its picture (PNG, drawn by librsvg);
/// `verify` compares both with the stored baselines, node by node
/// (LayoutDiff) and pixel by pixel (PNGRaster.compare).
struct SnapshotCommand: Command {
    static let name = "snapshot"
    static let summary = "Record or verify snapshots (layout JSON and PNG) of renderers across devices and states"
    static let arguments: Option.Value? = .file
    static let directory = Option.value("--dir", "DIR", .directory, "where the baselines are: DIR/<renderer id>/<case>.json and .png (required)")
    static let matrix = Option.value("--matrix", "M", .choices(SnapshotMatrix.allCases.map(\.rawValue)), "default (144 cases per renderer: iphone-se, iphone-16 and iphone-16-pro-max × portrait, landscape × ltr, rtl × text sizes S, L, AX3 × dark × the four states) or full (every device, text size and scheme: 3,072)")
    static let scene = Option.value("--scene", "FILE", .file, "a JSON scene (hud-scenes(5)) whose first page replaces the demo complications")
    static let filter = Option.value("--filter", "TEXT", repeatable: true, "only the cases whose name contains TEXT (repeatable: every TEXT; `--filter iphone-se_portrait --filter _revealed`)")
    static let recordMissing = Option.flag("--record-missing", "verify: record a case that has no baseline yet (counted as recorded) instead of failing it: a project's one test command records on its first run and verifies after")
    static let reportDirectory = Option.value("--report", "DIR", .directory, "verify: also write DIR/index.html, a self-contained review page of every case that changed, is missing or failed (baseline, new and diff pictures, the changed nodes outlined and listed, filters), and DIR/junit.xml")
    static let all = Option.flag("--all", "accept: every case that has new files")
    static let json = Option.flag("--json", "one JSON document (schemaVersion 1): every case with its status and changes, and the time spent")
    static let options = [directory, matrix, filter, scene, recordMissing, reportDirectory, all, json] + RegistryOptions.options
    static let help = HelpPage(
        usage: """
            hudhost snapshot record <renderer-id | path.so>... --dir DIR [--matrix default|full] [--scene FILE]
                   hudhost snapshot verify <renderer-id | path.so>... --dir DIR [--record-missing] [--report DIR] [--json]
                   hudhost snapshot accept <renderer-id/case | case>... --dir DIR | --all --dir DIR
            """,
        description: """
            Snapshot tests for renderers. Every case of the matrix (a device, an
            orientation, a direction, a text size, a scheme and a state: resting,
            revealed — the center's long-press modes —, deck — the control deck
            collapsed — or deck-expanded) is laid out in the headless shell with
            each renderer of each target, and stored as DIR/<renderer id>/<case>.json
            (the layout, as render --format json writes it) and <case>.png (its
            picture drawn by librsvg at 1 pixel per point).

            record writes every case. verify lays every case out again and compares
            it with its baseline: structurally, node by node (matched by kind,
            position, part and mode index), field by field, geometry equal within
            0.5 pt; and visually, pixel by pixel, a pixel changed when a channel
            differs by more than 2 of 255. A changed case is named with what
            changed ("slot bottomRight: frame.x 326 → 318", "412 pixels in
            x 300…340, y 780…830") and its new files are written beside the
            baseline as <case>.new.json and <case>.new.png; a case without a
            baseline is reported as missing, never recorded silently (unless
            --record-missing asks for it). A case in which the renderer crashes or
            hangs is reported as crashed (one that fails otherwise, as failed);
            the rest still run.

            accept promotes the new files of the named cases (or of every case with
            --all) over their baselines: the change was meant.
            """,
        sections: [
            .options(options),
            RegistryOptions.environment,
            .examples("""
                hudhost snapshot record ./libmy_style.so --dir snapshots
                hudhost snapshot verify ./libmy_style.so --dir snapshots
                hudhost snapshot verify com.hudson.tray --dir snapshots --matrix full --json
                hudhost snapshot verify ./libmy_style.so --dir snapshots --report review   # open review/index.html
                hudhost snapshot accept --dir snapshots iphone-se_portrait_ltr_L_dark_resting
                """),
            .exitCodes("""
                For snapshot: 0 every case recorded, or verified unchanged; 1 a case
                changed, crashed, failed or has no baseline (without --record-missing); 3 a
                target cannot be used, the scene cannot be read or DIR cannot be
                written.
                """),
        ])

    enum Mode: String { case record, verify, accept }

    let mode: Mode
    let targets: [String]
    let directoryPath: String
    let cases: [SnapshotCase]
    let scenePath: String?
    let recordsMissing: Bool
    let acceptsAll: Bool
    let reportPath: String?
    let wantsJSON: Bool
    let registryOptions: RegistryOptions

    init(_ arguments: Arguments) throws(UsageError) {
        guard let first = arguments.positionals.first else { throw UsageError("snapshot needs record, verify or accept, then renderer ids or plugin files (accept: cases)") }
        guard let mode = Mode(rawValue: first) else { throw UsageError("unknown snapshot action '\(first)'; expected record, verify or accept") }
        self.mode = mode
        targets = Array(arguments.positionals.dropFirst())
        acceptsAll = arguments.flag(Self.all)
        if mode == .accept {
            guard !targets.isEmpty != acceptsAll else { throw UsageError("snapshot accept needs the cases to accept (<renderer-id>/<case> or <case>) or --all, not both") }
        } else {
            guard !acceptsAll else { throw UsageError("--all goes with accept") }
            guard !targets.isEmpty else { throw UsageError("snapshot \(mode.rawValue) needs at least one renderer id or plugin file") }
        }
        guard let directory = arguments.value(Self.directory) else { throw UsageError("snapshot \(mode.rawValue) needs --dir DIR (where the baselines are)") }
        directoryPath = Output.absolute(directory)  // before any plugin code runs
        cases = try Self.cases(arguments)
        scenePath = arguments.value(Self.scene).map(Output.absolute)
        recordsMissing = arguments.flag(Self.recordMissing)
        if recordsMissing, mode != .verify { throw UsageError("--record-missing goes with verify; record writes every case") }
        reportPath = arguments.value(Self.reportDirectory).map(Output.absolute)
        if reportPath != nil, mode != .verify { throw UsageError("--report goes with verify") }
        wantsJSON = arguments.flag(Self.json)
        registryOptions = try RegistryOptions(arguments)
    }

    /// The cases `--matrix` and `--filter` choose.
    static func cases(_ arguments: Arguments) throws(UsageError) -> [SnapshotCase] {
        let matrix = try arguments.value(Self.matrix, accepted: "default or full", SnapshotMatrix.init(rawValue:)) ?? .standard
        let filters = arguments.all(Self.filter)
        let cases = matrix.cases.filter { testCase in filters.allSatisfy { testCase.name.contains($0) } }
        guard !cases.isEmpty else { throw UsageError("--filter \(filters.joined(separator: " ")) leaves none of the \(matrix.rawValue) matrix's cases (e.g. \(matrix.cases[0].name))") }
        return cases
    }

    /// What became of one case.
    enum Status: String, CaseIterable { case recorded, unchanged, changed, missing, failed, crashed }

    struct Outcome {
        var renderer: String
        var name: String
        var status: Status
        var changes: [LayoutDiff.Change] = []
        var pixels: PNGRaster.Difference?
        var reason: String?
        /// Its row of the review page (verify --report), when not unchanged.
        var row: SnapshotReport.Row?
    }

    func run() -> ExitCode {
        if mode == .accept { return accept() }
        let camera: SnapshotCamera, renderers: [RendererInfo]
        switch SnapshotCamera.make(targets: targets, scenePath: scenePath, directories: [directoryPath] + (reportPath.map { [$0] } ?? []),
                                   options: registryOptions) {
        case .success(let made): (camera, renderers) = made
        case .failure(let failure): return fail(failure)
        }
        var outcomes: [Outcome] = []
        var timings = SnapshotCamera.Timings()
        for info in renderers {
            let folder = directoryPath + "/" + info.id
            if let problem = Output.makeDirectory(folder) { return fail(.unwritableOutput(problem)) }
            for testCase in cases {
                guard let outcome = snapshot(testCase, of: info, camera: camera, folder: folder, timings: &timings) else { continue }
                if !wantsJSON, outcome.status != .unchanged, outcome.status != .recorded { Output.line(describe(outcome)) }
                outcomes.append(outcome)
            }
        }
        let counts = Dictionary(grouping: outcomes, by: \.status).mapValues(\.count)
        /// "141 unchanged, 3 changed": the statuses that occurred, in a fixed order.
        let tally = Status.allCases.compactMap { status in counts[status].map { "\($0) \(status.rawValue)" } }.joined(separator: ", ")
        let ids = renderers.map(\.id).joined(separator: ", ")
        if let reportPath {
            let summary = "\(outcomes.count) cases of \(ids): \(tally)"
            if let problem = Output.writeFile(reportPath + "/index.html", SnapshotReport.html(outcomes.compactMap(\.row), summary: summary))
                ?? Output.writeFile(reportPath + "/junit.xml", SnapshotReport.junit(outcomes)) {
                return fail(.unwritableOutput(problem))
            }
        }
        let failed = outcomes.contains { [.changed, .failed, .crashed, .missing].contains($0.status) }
        if wantsJSON {
            Output.out(document(outcomes, counts: counts, timings: timings).serialized() + "\n")
        } else {
            Output.line("\(mode.rawValue): \(outcomes.count) cases of \(ids) in \(directoryPath): \(tally)")
            Output.line("time: layout \(milliseconds(timings.layout)) ms, rasterizing \(milliseconds(timings.raster)) ms, comparing \(milliseconds(timings.diff)) ms")
            if mode == .verify, let recorded = counts[.recorded] {
                Output.line("recorded \(recorded) case\(recorded == 1 ? "" : "s") that had no baseline; commit \(directoryPath)")
            }
        }
        return failed ? .failure : .ok
    }

    /// One case of one renderer: laid out, drawn, then written (record) or
    /// compared (verify). Nil when the case does not apply (nothing to reveal).
    private func snapshot(_ testCase: SnapshotCase, of info: RendererInfo, camera: SnapshotCamera, folder: String,
                          timings: inout SnapshotCamera.Timings) -> Outcome? {
        var outcome = Outcome(renderer: info.id, name: testCase.name, status: .failed)
        let drawn: SnapshotCamera.Shot
        switch camera.shoot(testCase, of: info, timings: &timings) {
        case .success(let shot?): drawn = shot
        case .success(nil): return nil
        case .failure(let error):
            outcome.status = error.crashed ? .crashed : .failed
            outcome.reason = error.description
            outcome.row = row(outcome, testCase, kind: outcome.status.rawValue)
            return outcome
        }
        let png = drawn.png
        let start = SystemCalls.monotonicNanoseconds()
        defer { timings.diff += SystemCalls.monotonicNanoseconds() - start }
        let base = folder + "/" + testCase.name
        if mode == .verify {
            guard case .success(let oldJSON) = Output.readRegularFile(base + ".json"), case .success(let oldPNG) = Output.readRegularFile(base + ".png") else {
                outcome.status = .missing
                outcome.reason = "no baseline (\(testCase.name).json and .png in \(folder))"
                if recordsMissing {
                    // The first run of a project's test command: its baseline.
                    outcome.status = .recorded
                    outcome.reason = "no baseline yet: recorded"
                    if let problem = write(base, json: drawn.json, png: png) { outcome.status = .failed; outcome.reason = problem }
                    return outcome
                }
                outcome.row = row(outcome, testCase, kind: "missing", new: png)
                return outcome
            }
            let before: JSONValue
            do {
                before = try JSONParser.parse(bytes: oldJSON)["layout"] ?? .null
            } catch {
                outcome.reason = "the baseline \(base).json is not JSON (\(error)); record it again"
                return outcome
            }
            outcome.changes = LayoutDiff.changes(baseline: before, new: drawn.layout)
            // librsvg and cairo draw the same input to the same bytes on one
            // machine: equal files need no decoding.
            switch oldPNG == png ? .success(PNGRaster.Difference(identicalTo: png)) : PNGRaster.compare(oldPNG, png, tolerance: 2, picture: reportPath != nil) {
            case .success(let difference): outcome.pixels = difference
            case .failure(let failure):
                outcome.reason = "the pictures could not be compared: \(failure)"
                return outcome
            }
            let changed = !outcome.changes.isEmpty || outcome.pixels?.isEmpty == false
            outcome.status = changed ? .changed : .unchanged
            if changed, reportPath != nil {
                let structural = !outcome.changes.isEmpty, visual = outcome.pixels?.isEmpty == false
                let kind = structural && visual ? "both" : structural ? "structure" : "pictures"
                let nodes = outcome.changes.map(\.node).uniqued()
                func outlines(_ layout: JSONValue) -> [SnapshotReport.Outline] {
                    let frames = LayoutDiff.frames(of: layout)
                    return nodes.compactMap { node in frames[node].map { (node, $0.x, $0.y, $0.width, $0.height) } }
                }
                outcome.row = row(outcome, testCase, kind: kind, baseline: oldPNG, new: png, diff: outcome.pixels?.picture,
                                  outlines: (outlines(before), outlines(drawn.layout)))
            }
            if changed {
                if let problem = write(base + ".new", json: drawn.json, png: png) { outcome.reason = problem }
            } else {
                _ = SystemCalls.removeFile(base + ".new.json")
                _ = SystemCalls.removeFile(base + ".new.png")
            }
            return outcome
        }
        if let problem = write(base, json: drawn.json, png: png) {
            outcome.reason = problem
            return outcome
        }
        outcome.status = .recorded
        return outcome
    }

    /// `accept`: each named case's (or with --all every) `<case>.new.json`
    /// and `.new.png` renamed over its baseline. No plugin code runs.
    private func accept() -> ExitCode {
        let folders: [String]
        switch SystemCalls.directoryEntries(directoryPath) {
        case .success(let entries): folders = entries.filter(\.isDirectory).map(\.name).sorted()
        case .failure(let error): return fail(.unwritableOutput(Output.FileError(path: directoryPath, reason: error.description)))
        }
        var pending: [(folder: String, name: String)] = []
        for folder in folders {
            guard case .success(let files) = SystemCalls.directoryEntries(directoryPath + "/" + folder) else { continue }
            pending += files.map(\.name).filter { $0.hasSuffix(".new.png") }.map { (folder, String($0.dropLast(".new.png".count))) }.sorted { $0.name < $1.name }
        }
        var chosen = pending
        if !acceptsAll {
            chosen = pending.filter { targets.contains($0.name) || targets.contains($0.folder + "/" + $0.name) }
            for target in targets where !chosen.contains(where: { target == $0.name || target == $0.folder + "/" + $0.name }) {
                return fail(CommandFailure(code: "no-new-files", message: "\(target) has no new files in \(directoryPath) to accept (verify writes them for a changed case)",
                                           exit: .unusableTarget))
            }
        }
        for (folder, name) in chosen {
            let base = directoryPath + "/" + folder + "/" + name
            for suffix in [".json", ".png"] {
                if case .failure(let error) = SystemCalls.rename(base + ".new" + suffix, to: base + suffix) {
                    return fail(.unwritableOutput(Output.FileError(path: base + suffix, reason: error.description, writing: true)))
                }
            }
            if !wantsJSON { Output.line("accepted \(folder)/\(name)") }
        }
        if wantsJSON {
            Output.out(JSONValue.object([("schemaVersion", .number(1)), ("action", .string("accept")),
                                         ("accepted", .array(chosen.map { .string($0.folder + "/" + $0.name) }))]).serialized() + "\n")
        } else {
            Output.line("accept: \(chosen.count) case\(chosen.count == 1 ? "" : "s") in \(directoryPath)")
        }
        return .ok
    }

    /// The case's row of the review page, when there is one.
    private func row(_ outcome: Outcome, _ testCase: SnapshotCase, kind: String, baseline: [UInt8]? = nil, new: [UInt8]? = nil,
                     diff: [UInt8]? = nil, outlines: (baseline: [SnapshotReport.Outline], new: [SnapshotReport.Outline]) = ([], [])) -> SnapshotReport.Row? {
        guard reportPath != nil else { return nil }
        let size = SvgPresenter.captionedSize(testCase.environment)
        return SnapshotReport.Row(renderer: outcome.renderer, name: outcome.name, device: testCase.device.id, kind: kind, changes: outcome.changes,
                                  pixels: outcome.pixels.map(Self.describe), reason: outcome.reason, baseline: baseline, new: new, diff: diff,
                                  outlines: outlines, width: Int(size.width.rounded(.up)), height: Int(size.height.rounded(.up)))
    }

    private func write(_ base: String, json: String, png: [UInt8]) -> String? {
        (Output.writeFile(base + ".json", json) ?? Output.writeFile(base + ".png", bytes: png))?.description
    }

    private func describe(_ outcome: Outcome) -> String {
        var lines = ["\(outcome.status.rawValue.uppercased()) \(outcome.renderer) \(outcome.name)" + (outcome.reason.map { ": \($0)" } ?? "")]
        lines += outcome.changes.prefix(20).map { "  \($0)" }
        if outcome.changes.count > 20 { lines.append("  … and \(outcome.changes.count - 20) more changes") }
        if let pixels = outcome.pixels, !pixels.isEmpty { lines.append("  " + Self.describe(pixels)) }
        return lines.map(TextChecks.escapingControls).joined(separator: "\n")
    }

    static func describe(_ pixels: PNGRaster.Difference) -> String {
        if pixels.sizeChanged { return "picture: \(pixels.width)×\(pixels.height) → \(pixels.newWidth)×\(pixels.newHeight) pixels" }
        guard let box = pixels.box else { return "picture: unchanged" }
        return "picture: \(pixels.changedPixels) pixels changed in x \(box.x)…\(box.x + box.width - 1), y \(box.y)…\(box.y + box.height - 1)"
    }

    private func document(_ outcomes: [Outcome], counts: [Status: Int], timings: SnapshotCamera.Timings) -> JSONValue {
        .object([
            ("schemaVersion", .number(1)),
            ("action", .string(mode.rawValue)),
            ("directory", .string(directoryPath)),
            ("cases", .array(outcomes.map { outcome in
                var members: [(String, JSONValue)] = [("renderer", .string(outcome.renderer)), ("case", .string(outcome.name)),
                                                      ("status", .string(outcome.status.rawValue))]
                if let reason = outcome.reason { members.append(("reason", .string(reason))) }
                if outcome.status == .changed {
                    members.append(("changes", .array(outcome.changes.map(\.json))))
                    if let pixels = outcome.pixels {
                        members.append(("pixels", .object([("changed", .number(Double(pixels.changedPixels))), ("summary", .string(Self.describe(pixels)))])))
                    }
                }
                return .object(members)
            })),
            ("summary", .object(Status.allCases.map { ($0.rawValue, .number(Double(counts[$0] ?? 0))) })),
            ("milliseconds", .object([("layout", .number(milliseconds(timings.layout))), ("rasterizing", .number(milliseconds(timings.raster))),
                                      ("comparing", .number(milliseconds(timings.diff)))])),
        ])
    }

    private func milliseconds(_ nanoseconds: UInt64) -> Double { (Double(nanoseconds) / 1e5).rounded() / 10 }

    private func fail(_ failure: CommandFailure) -> ExitCode {
        if wantsJSON { Output.out(failure.document()) }
        failure.report()
        return failure.exit
    }
}
