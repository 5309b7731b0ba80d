// SPDX-License-Identifier: MIT
import HudRegistry

/// `hudhost gallery`: every style across the snapshot matrix on one
/// contact sheet, for design review — `snapshot`'s pictures without a
/// baseline.
struct GalleryCommand: Command {
    static let name = "gallery"
    static let summary = "Draw every style across devices and states on one contact sheet (an HTML page)"
    static let arguments: Option.Value? = .file
    static let out = Option.value("--out", "DIR", .directory, "where to write index.html and the pictures (DIR/<renderer id>/<case>.png) (required)")
    static let options = [out, SnapshotCommand.matrix, SnapshotCommand.filter, SnapshotCommand.scene] + RegistryOptions.options
    static let help = HelpPage(
        usage: "hudhost gallery [<renderer-id | path.so>...] --out DIR [--matrix default|full] [--filter TEXT]... [--scene FILE]",
        description: """
            Lays out every case of the snapshot matrix (hudhost snapshot --help)
            with each renderer of the targets — every registered renderer when
            none is named — and writes the pictures (PNG, drawn by librsvg) and
            DIR/index.html, a contact sheet of them all with filters by renderer,
            device and state. A case a renderer fails in is shown with the reason.
            """,
        sections: [
            .options(options),
            RegistryOptions.environment,
            .examples("""
                hudhost gallery --out gallery
                hudhost gallery ./libmy_style.so com.hudson.tray --out gallery --filter _portrait_
                """),
            .exitCodes("""
                For gallery: 1 a case failed (it is on the sheet with the reason); 3 a
                target cannot be used or DIR cannot be written.
                """),
        ])

    let targets: [String]
    let outPath: String
    let cases: [SnapshotCase]
    let scenePath: String?
    let registryOptions: RegistryOptions

    init(_ arguments: Arguments) throws(UsageError) {
        targets = arguments.positionals
        guard let out = arguments.value(Self.out) else { throw UsageError("gallery needs --out DIR (where the page goes)") }
        outPath = Output.absolute(out)  // before any plugin code runs
        cases = try SnapshotCommand.cases(arguments)
        scenePath = arguments.value(SnapshotCommand.scene).map(Output.absolute)
        registryOptions = try RegistryOptions(arguments)
    }

    func run() -> ExitCode {
        let camera: SnapshotCamera, renderers: [RendererInfo]
        switch SnapshotCamera.make(targets: targets, scenePath: scenePath, directories: [outPath], options: registryOptions) {
        case .success(let made): (camera, renderers) = made
        case .failure(let failure):
            failure.report()
            return failure.exit
        }
        var cells: [SnapshotReport.Cell] = []
        var timings = SnapshotCamera.Timings()
        for info in renderers {
            let folder = outPath + "/" + info.id
            if let problem = Output.makeDirectory(folder) {
                CommandFailure.unwritableOutput(problem).report()
                return .unusableTarget
            }
            for testCase in cases {
                var cell = SnapshotReport.Cell(renderer: info.id, name: testCase.name, device: testCase.device.id, state: testCase.state.rawValue)
                switch camera.shoot(testCase, of: info, timings: &timings) {
                case .success(nil): continue
                case .success(let shot?):
                    if let problem = Output.writeFile(folder + "/" + testCase.name + ".png", bytes: shot.png) {
                        CommandFailure.unwritableOutput(problem).report()
                        return .unusableTarget
                    }
                    cell.picture = info.id + "/" + testCase.name + ".png"
                case .failure(let failure):
                    cell.reason = failure.description
                    Output.line(TextChecks.escapingControls("FAILED \(info.id) \(testCase.name): \(failure)"))
                }
                cells.append(cell)
            }
        }
        let failed = cells.filter { $0.reason != nil }.count
        let summary = "\(cells.count) pictures of \(renderers.map(\.id).joined(separator: ", "))" + (failed > 0 ? ", \(failed) failed" : "")
        if let problem = Output.writeFile(outPath + "/index.html", SnapshotReport.gallery(cells, summary: summary)) {
            CommandFailure.unwritableOutput(problem).report()
            return .unusableTarget
        }
        Output.line("gallery: \(summary); open \(outPath)/index.html")
        return failed > 0 ? .failure : .ok
    }
}
