// SPDX-License-Identifier: MIT
import HudRegistry
import HudSystem

/// `hudhost snapshot` at the sizes a renderer author runs it: ExampleRing,
/// out of process (the default), its default matrix recorded once and then
/// verified (whole process: wall time from spawn to exit and peak RSS from
/// wait4, plus the command's own split between laying out, rasterizing and
/// comparing, from its --json); and without --quick, the full matrix
/// recorded and verified once, for its peak RSS.
enum SnapshotBench {
    static func measure(options: Options, into report: inout Report) throws {
        let hudhost = Files.executableDirectory + "/hudhost", ring = Files.executableDirectory + "/libExampleRing.so"
        guard Files.isExecutable(hudhost), Files.exists(ring) else {
            report.notes.append("snapshot: \(hudhost) or \(ring) not built; skipped")
            return
        }
        let root = Files.cacheDirectory()
        guard Files.makeDirectories(root), case .success(let run) = SystemCalls.makePrivateDirectory(in: root, prefix: "snapshot-") else {
            throw HarnessError("cannot create a private directory under \(root)")
        }
        defer { Files.removeTree(run) }
        for (matrix, runs) in [("default", options.quick ? 1 : 5)] + (options.quick ? [] : [("full", 1)]) {
            let directory = run + "/" + matrix, output = run + "/verify-\(matrix).json"
            let base = [hudhost, "snapshot"]
            let tail = [ring, "--dir", directory, "--matrix", matrix, "--builtin-only"]
            guard let recorded = Subprocess.run(base + ["record"] + tail), recorded.succeeded else {
                throw HarnessError("hudhost snapshot record \(ring) --matrix \(matrix) failed")
            }
            var walls: [Double] = [], peak = 0
            var split = ""
            var cases = 0
            for _ in 0..<runs {
                guard let verified = Subprocess.run(base + ["verify"] + tail + ["--json"], stdout: output), verified.succeeded else {
                    throw HarnessError("hudhost snapshot verify \(ring) --matrix \(matrix) did not verify clean")
                }
                walls.append(Double(verified.wallNanoseconds) / 1e6)
                peak = max(peak, verified.peakRSSKiB)
                if let text = Files.read(output), let document = try? JSONParser.parse(text) {
                    cases = document["cases"]?.arrayValue?.count ?? 0
                    let ms = document["milliseconds"]
                    split = ["layout", "rasterizing", "comparing"].map { "\($0) \(Int(ms?[$0]?.numberValue ?? 0)) ms" }.joined(separator: ", ")
                }
            }
            report.discovery.append(Report.Discovery(
                count: cases, mode: "snapshot verify, \(matrix) matrix (ExampleRing, out of process)",
                wallMilliseconds: TimingScenarios.stats(walls, batch: 1), peakRSSMiB: Double(peak) / 1024, renderersListed: cases,
                note: "last run: \(split)"))
        }
    }
}
