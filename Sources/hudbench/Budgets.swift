// SPDX-License-Identifier: MIT
import HudRegistry
import HudScenes
/// The budgets (BENCHMARKS.md "Goals"), judged from what this run measured. Reported,
/// never enforced (the machine is shared and noisy; CI only checks that the
/// harness runs).
enum Budgets {
    static let builtinIDs: Set<String> = ["com.hudson.tray", "com.hudson.scattered", "com.hudson.minimal"]

    static func evaluate(_ report: inout Report) {
        var budgets: [Report.Budget] = []

        // 1. Registry overhead ≤ 1.5× the direct call.
        if !report.ratios.isEmpty {
            let worst = report.ratios.max { $0.value < $1.value }!
            let all = report.ratios.map { "\(short($0.renderer)) \(fixed($0.value, 2))×" }.joined(separator: ", ")
            budgets.append(.init(name: "Registry overhead (layout via ABI / direct call)", limit: "≤ 1.5×",
                                 measured: all, status: worst.value <= 1.5 ? .pass : .miss))
        } else {
            budgets.append(.init(name: "Registry overhead (layout via ABI / direct call)", limit: "≤ 1.5×", measured: "not run", status: .notMeasured))
        }

        // 2. Full frame ≤ 5 µs median on any built-in.
        let frames = report.timings.filter { $0.scenario == "frame.shell.republish" && builtinIDs.contains($0.subject) }
        if frames.isEmpty {
            budgets.append(.init(name: "Full frame, demo set, built-ins (median)", limit: "≤ 5 µs", measured: "not run", status: .notMeasured))
        } else {
            let worst = frames.map(\.stats.median).max()!
            budgets.append(.init(name: "Full frame, demo set, built-ins (median)", limit: "≤ 5 µs",
                                 measured: frames.map { "\(short($0.subject)) \(fixed($0.stats.median / 1000, 2)) µs" }.joined(separator: ", "),
                                 status: worst <= 5_000 ? .pass : .miss))
        }

        // 3. 0 host-side heap allocations per steady-state layout call:
        //    registry.withLayout total minus what the renderer itself does.
        let registryRows = report.allocations.filter { $0.scenario == "layout.registry" }
        if registryRows.isEmpty {
            budgets.append(.init(name: "Host-side heap allocations per steady-state layout", limit: "0", measured: "not run", status: .notMeasured))
        } else {
            var parts: [String] = []
            var worst = 0.0
            for row in registryRows {
                let direct = report.allocations.first { $0.scenario == "layout.direct" && $0.subject == row.subject }?.allocationsPerCall ?? 0
                let host = row.allocationsPerCall - direct
                worst = max(worst, host)
                parts.append("\(short(row.subject)) \(fixed(host, 2))")
            }
            budgets.append(.init(name: "Host-side heap allocations per steady-state layout (registry − direct)", limit: "0",
                                 measured: parts.joined(separator: ", "), status: worst < 0.005 ? .pass : .miss))
        }

        // 4. Thunks.
        if let create = report.median("thunk.create", "libffi") {
            budgets.append(.init(name: "Thunk create (median)", limit: "≤ 100 ns", measured: "\(ns(create)) ns", status: create <= 100 ? .pass : .miss))
        } else {
            budgets.append(.init(name: "Thunk create (median)", limit: "≤ 100 ns", measured: "not run", status: .notMeasured))
        }
        if let call = report.median("thunk.call", "libffi") {
            budgets.append(.init(name: "Thunk call (median)", limit: "≤ 20 ns", measured: "\(ns(call)) ns", status: call <= 20 ? .pass : .miss))
        } else {
            budgets.append(.init(name: "Thunk call (median)", limit: "≤ 20 ns", measured: "not run", status: .notMeasured))
        }

        // 5. hudhost list with 1,000 plugins.
        let thousand = report.discovery.filter { $0.count == 1000 }
        let list = thousand.first { $0.mode == "hudhost list" }
        let cold = thousand.first { $0.mode == "hudhost list, cold" }
        let warm = thousand.first { $0.mode == "hudhost list, warm" } ?? list
        if let warm {
            budgets.append(.init(name: "hudhost list, 1000 plugins, warm (median wall)", limit: "≤ 50 ms",
                                 measured: "\(fixed(warm.wallMilliseconds.median, 1)) ms" + (cold == nil ? " (no cache yet: dlopen path)" : ""),
                                 status: warm.wallMilliseconds.median <= 50 ? .pass : .miss))
        } else {
            budgets.append(.init(name: "hudhost list, 1000 plugins, warm (median wall)", limit: "≤ 50 ms", measured: "not run (needs full mode and hudhost)", status: .notMeasured))
        }
        if let cold {
            budgets.append(.init(name: "hudhost list, 1000 plugins, cold metadata-only (median wall)", limit: "≤ 200 ms",
                                 measured: "\(fixed(cold.wallMilliseconds.median, 1)) ms", status: cold.wallMilliseconds.median <= 200 ? .pass : .miss))
        } else {
            budgets.append(.init(name: "hudhost list, 1000 plugins, cold metadata-only (median wall)", limit: "≤ 200 ms",
                                 measured: list == nil ? "not run" : "this hudhost writes no registry cache", status: .notMeasured))
        }
        let rss = thousand.filter { $0.mode.hasPrefix("hudhost list") }.map(\.peakRSSMiB).max()
        if let rss {
            budgets.append(.init(name: "hudhost list, 1000 plugins, peak RSS", limit: "≤ 50 MB",
                                 measured: "\(fixed(rss * 1.048576, 1)) MB", status: rss * 1.048576 <= 50 ? .pass : .miss))
        } else {
            budgets.append(.init(name: "hudhost list, 1000 plugins, peak RSS", limit: "≤ 50 MB", measured: "not run", status: .notMeasured))
        }
        scale(report, &budgets)
        isolation(report, &budgets)
        snapshots(report, into: &budgets)
        report.budgets = budgets
    }

    /// Discovery at scale, against gst-inspect-1.0 over the
    /// system's plugins measured in the same run.
    static func scale(_ report: Report, _ budgets: inout [Report.Budget]) {
        func row(_ n: Int, _ mode: String) -> Report.Discovery? { report.discovery.first { $0.count == n && $0.mode == mode } }
        let gstCold = report.discovery.first { $0.mode == "gst-inspect-1.0, cold" }
        let gstWarm = report.discovery.first { $0.mode == "gst-inspect-1.0, warm" }
        func relative(_ name: String, _ limit: Double, _ mine: Report.Discovery?, _ peer: Report.Discovery?) {
            guard let mine, let peer else {
                budgets.append(.init(name: name, limit: "≤ \(fixed(limit, 2))×", measured: mine == nil ? "not run (full mode)" : "not run (no gst-inspect-1.0)", status: .notMeasured))
                return
            }
            let ratio = mine.wallMilliseconds.median / peer.wallMilliseconds.median
            budgets.append(.init(name: name, limit: "≤ \(fixed(limit, 2))×",
                                 measured: "\(fixed(mine.wallMilliseconds.median, 1)) ms / \(fixed(peer.wallMilliseconds.median, 1)) ms = \(fixed(ratio, 2))×",
                                 status: ratio <= limit ? .pass : .miss))
        }
        // The warm ratio from the gst-inspect runs made in alternation with
        // the warm `list` of 1,000 (the standalone warm row otherwise).
        let gstWarmAlternated = report.discovery.first { $0.mode == Discovery.alternatedPeerMode(1000) } ?? gstWarm
        relative("hudhost list, 1000 plugins, warm / gst-inspect-1.0 warm (system plugins, alternated)", 1.3, row(1000, "hudhost list, warm"), gstWarmAlternated)
        relative("hudhost list, 1000 plugins, cold / gst-inspect-1.0 cold", 0.5, row(1000, "hudhost list, cold"), gstCold)
        relative("hudhost list, 1000 plugins without metadata, cold / gst-inspect-1.0 cold", 10, row(1000, "hudhost list, cold, no metadata section"), gstCold)
        relative("hudhost list, warm, 10000 / 1000 plugins (linear)", 11, row(10000, "hudhost list, warm"), row(1000, "hudhost list, warm"))
        relative("hudhost list, cold, 10000 / 1000 plugins (linear)", 11, row(10000, "hudhost list, cold"), row(1000, "hudhost list, cold"))
        if let big = [row(10000, "hudhost list, warm"), row(10000, "hudhost list, cold")].compactMap({ $0 }).map(\.peakRSSMiB).max() {
            budgets.append(.init(name: "hudhost list, 10000 plugins, peak RSS", limit: "≤ 50 MB",
                                 measured: "\(fixed(big * 1.048576, 1)) MB", status: big * 1.048576 <= 50 ? .pass : .miss))
        } else {
            budgets.append(.init(name: "hudhost list, 10000 plugins, peak RSS", limit: "≤ 50 MB", measured: "not run (full mode)", status: .notMeasured))
        }
    }

    /// The renderer host's budgets: round trip ≤ 3× a bare
    /// ping-pong, start ≤ 10 ms, `hudhost render` ≤ 2× in-process.
    static func isolation(_ report: Report, _ budgets: inout [Report.Budget]) {
        let served = report.timings.filter { $0.scenario == "isolation.layout.remote" }
        if served.isEmpty {
            budgets.append(.init(name: "Out-of-process layout round trip / bare ping-pong", limit: "≤ 3×", measured: "not run", status: .notMeasured))
        } else {
            var worst = 0.0
            let parts = served.map { row -> String in
                let ping = report.median("isolation.pingpong", row.subject) ?? .nan
                let ratio = row.stats.median / ping
                worst = max(worst, ratio)
                return "\(short(row.subject)) \(fixed(row.stats.median / 1000, 1)) µs / \(fixed(ping / 1000, 1)) µs = \(fixed(ratio, 2))×"
            }
            budgets.append(.init(name: "Out-of-process layout round trip / bare ping-pong", limit: "≤ 3×",
                                 measured: parts.joined(separator: ", "), status: worst <= 3 ? .pass : .miss))
        }
        if let start = report.timings.first(where: { $0.scenario == "isolation.host.start" }) {
            budgets.append(.init(name: "Starting a sandboxed renderer host (median)", limit: "≤ 10 ms",
                                 measured: "\(fixed(start.stats.median / 1e6, 2)) ms", status: start.stats.median <= 10e6 ? .pass : .miss))
        } else {
            budgets.append(.init(name: "Starting a sandboxed renderer host (median)", limit: "≤ 10 ms", measured: "not run", status: .notMeasured))
        }
        if let process = report.timings.first(where: { $0.scenario == "isolation.render.process" }),
           let inProcess = report.timings.first(where: { $0.scenario == "isolation.render.in-process" }) {
            let ratio = process.stats.median / inProcess.stats.median
            budgets.append(.init(name: "hudhost render of a plugin style, process / in-process (median wall)", limit: "≤ 2×",
                                 measured: "\(fixed(process.stats.median / 1e6, 1)) ms / \(fixed(inProcess.stats.median / 1e6, 1)) ms = \(fixed(ratio, 2))×",
                                 status: ratio <= 2 ? .pass : .miss))
        } else {
            budgets.append(.init(name: "hudhost render of a plugin style, process / in-process (median wall)", limit: "≤ 2×",
                                 measured: "not run", status: .notMeasured))
        }
    }

    /// "tray" for "com.hudson.tray".
    static func short(_ id: String) -> String {
        builtinIDs.contains(id) ? String(id.split(separator: ".").last!) : id
    }

    /// `snapshot verify` of one out-of-process plugin: the default matrix
    /// (at least 100 cases) ≤ 10 s; the full matrix's peak RSS ≤ 200 MB.
    private static func snapshots(_ report: Report, into budgets: inout [Report.Budget]) {
        let standard = report.discovery.first { $0.mode.hasPrefix("snapshot verify, default matrix") }
        let full = report.discovery.first { $0.mode.hasPrefix("snapshot verify, full matrix") }
        if let standard {
            budgets.append(.init(name: "snapshot verify, one plugin out of process, default matrix (median wall)", limit: "≤ 10 s, ≥ 100 cases",
                                 measured: "\(fixed(standard.wallMilliseconds.median / 1000, 2)) s for \(standard.count) cases",
                                 status: standard.wallMilliseconds.median <= 10_000 && standard.count >= 100 ? .pass : .miss))
        } else {
            budgets.append(.init(name: "snapshot verify, one plugin out of process, default matrix (median wall)", limit: "≤ 10 s, ≥ 100 cases",
                                 measured: "not run", status: .notMeasured))
        }
        budgets.append(.init(name: "snapshot verify, full matrix: peak RSS", limit: "≤ 200 MB",
                             measured: full.map { "\(fixed($0.peakRSSMiB, 1)) MiB for \($0.count) cases" } ?? "not run (--quick)",
                             status: full.map { $0.peakRSSMiB <= 200 ? .pass : .miss } ?? .notMeasured))
    }
}
