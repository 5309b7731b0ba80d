// SPDX-License-Identifier: MIT
import Glibc
import HudRegistry
import HudScenes
import HudSystem

/// Everything one run measured, and how it is printed (Markdown or JSON).
struct Report {
    struct Timing {
        var scenario: String
        var subject: String
        var stats: Stats
        var note: String
    }
    struct Ratio {
        var renderer: String
        var registry: Double
        var direct: Double
        var value: Double { registry / direct }
    }
    struct Growth {
        var scenario: String
        var renderer: String
        var axis: String
        var points: [(x: Int, stats: Stats)]

        /// Linear or better: the last segment's cost per unit is at most
        /// twice the whole curve's average slope (with a small absolute
        /// allowance for noise on flat curves).
        var isLinearOrBetter: Bool {
            guard let first = points.first, let last = points.last, points.count >= 3, last.x > first.x else { return true }
            let previous = points[points.count - 2]
            let overall = (last.stats.median - first.stats.median) / Double(last.x - first.x)
            let top = (last.stats.median - previous.stats.median) / Double(last.x - previous.x)
            return top <= max(2 * overall, 0) + 50 / Double(last.x - previous.x)
        }
    }
    struct Allocation {
        var scenario: String
        var subject: String
        var allocationsPerCall: Double
        var bytesPerCall: Double
        var note: String
    }
    struct Discovery {
        var count: Int
        var mode: String
        var wallMilliseconds: Stats
        var peakRSSMiB: Double
        var renderersListed: Int
        var note: String
    }
    struct Budget {
        enum Status: String { case pass = "PASS", miss = "MISS", notMeasured = "n/a" }
        var name: String
        var limit: String
        var measured: String
        var status: Status
    }

    var quick: Bool
    var renderers: [String] = []
    var timings: [Timing] = []
    var ratios: [Ratio] = []
    var growth: [Growth] = []
    var allocations: [Allocation] = []
    var discovery: [Discovery] = []
    var notes: [String] = []
    var budgets: [Budget] = []

    mutating func timing(_ scenario: String, _ subject: String, _ stats: Stats, _ note: String) {
        timings.append(Timing(scenario: scenario, subject: subject, stats: stats, note: note))
    }

    mutating func ratio(_ renderer: String, registry: Double, direct: Double) {
        ratios.append(Ratio(renderer: renderer, registry: registry, direct: direct))
    }

    mutating func growth(_ scenario: String, _ renderer: String, _ axis: String, _ points: [(Int, Stats)]) {
        growth.append(Growth(scenario: scenario, renderer: renderer, axis: axis, points: points.map { (x: $0.0, stats: $0.1) }))
    }

    func median(_ scenario: String, _ subject: String) -> Double? {
        timings.first { $0.scenario == scenario && $0.subject == subject }?.stats.median
    }

    // MARK: - Markdown

    func markdown(machine: Machine) -> String {
        var out = "# hudbench\n\n"
        out += machine.markdown + "\n"
        out += "Renderers: \(renderers.joined(separator: ", ")). Mode: \(quick ? "--quick (few samples; indicative only)" : "full").\n\n"
        if !timings.isEmpty {
            out += "## Timings (ns per operation, after warm-up)\n\n"
            out += "| scenario | subject | median | p10 | p90 | p99 | samples × batch | what |\n"
            out += "|---|---|---:|---:|---:|---:|---:|---|\n"
            for t in timings {
                out += "| \(t.scenario) | \(t.subject) | \(ns(t.stats.median)) | \(ns(t.stats.p10)) | \(ns(t.stats.p90)) | \(ns(t.stats.p99)) | \(t.stats.samples) × \(t.stats.batch) | \(t.note) |\n"
            }
            out += "\n"
        }
        if !ratios.isEmpty {
            out += "## Registry overhead (medians, measured in alternation)\n\n"
            out += "| renderer | direct ns | registry ns | ratio |\n|---|---:|---:|---:|\n"
            for r in ratios {
                out += "| \(r.renderer) | \(ns(r.direct)) | \(ns(r.registry)) | \(fixed(r.value, 2))× |\n"
            }
            out += "\n"
        }
        if !growth.isEmpty {
            out += "## Growth (registry.withLayout median ns)\n\n"
            for scenario in ["growth.modes", "growth.label"] {
                let rows = growth.filter { $0.scenario == scenario }
                guard let first = rows.first else { continue }
                out += "| \(scenario) (\(first.axis)) | " + first.points.map { "\($0.x)" }.joined(separator: " | ") + " | linear or better |\n"
                out += "|---|" + first.points.map { _ in "---:|" }.joined() + "---|\n"
                for row in rows {
                    out += "| \(row.renderer) | " + row.points.map { ns($0.stats.median) }.joined(separator: " | ")
                        + " | \(row.isLinearOrBetter ? "yes" : "NO") |\n"
                }
                out += "\n"
            }
        }
        if !allocations.isEmpty {
            out += "## Heap allocations per call (LD_PRELOAD malloc counter, steady state)\n\n"
            out += "| scenario | subject | allocations | bytes | what |\n|---|---|---:|---:|---|\n"
            for a in allocations {
                out += "| \(a.scenario) | \(a.subject) | \(fixed(a.allocationsPerCall, 2)) | \(fixed(a.bytesPerCall, 0)) | \(a.note) |\n"
            }
            out += "\n"
        }
        if !discovery.isEmpty {
            out += "## Discovery and snapshots (generated plugins, `hudhost snapshot verify`; subprocess wall time, peak RSS from wait4)\n\n"
            out += "| N | what | median ms | p10 ms | p90 ms | runs | peak RSS MiB | renderers listed | note |\n|---:|---|---:|---:|---:|---:|---:|---:|---|\n"
            for d in discovery {
                out += "| \(d.count) | \(d.mode) | \(fixed(d.wallMilliseconds.median, 1)) | \(fixed(d.wallMilliseconds.p10, 1)) | \(fixed(d.wallMilliseconds.p90, 1)) | \(d.wallMilliseconds.samples) | \(fixed(d.peakRSSMiB, 1)) | \(d.renderersListed) | \(d.note) |\n"
            }
            out += "\n"
        }
        if !budgets.isEmpty {
            out += "## Budgets (BENCHMARKS.md \"Goals\"; reported, never enforced)\n\n"
            out += "| budget | limit | measured | status |\n|---|---|---|---|\n"
            for b in budgets { out += "| \(b.name) | \(b.limit) | \(b.measured) | \(b.status.rawValue) |\n" }
            out += "\n"
        }
        if !notes.isEmpty {
            out += "## Notes\n\n" + notes.map { "- \($0)\n" }.joined() + "\n"
        }
        return out
    }

    // MARK: - JSON

    func json(machine: Machine, error: String?) -> JSONValue {
        func stats(_ s: Stats) -> JSONValue {
            .object([("median", .number(s.median)), ("p10", .number(s.p10)), ("p90", .number(s.p90)), ("p99", .number(s.p99)),
                     ("samples", .number(Double(s.samples))), ("batch", .number(Double(s.batch)))])
        }
        var fields: [(String, JSONValue)] = [
            ("schemaVersion", 1),
            ("tool", "hudbench"),
            ("mode", .string(quick ? "quick" : "full")),
            ("machine", machine.json),
            ("unit", "ns per operation unless named otherwise"),
            ("renderers", .array(renderers.map(JSONValue.string))),
            ("timings", .array(timings.map { t in
                .object([("scenario", .string(t.scenario)), ("subject", .string(t.subject)), ("ns", stats(t.stats)), ("what", .string(t.note))])
            })),
            ("registryOverhead", .array(ratios.map { r in
                .object([("renderer", .string(r.renderer)), ("directMedianNs", .number(r.direct)),
                         ("registryMedianNs", .number(r.registry)), ("ratio", .number(r.value))])
            })),
            ("growth", .array(growth.map { g in
                .object([("scenario", .string(g.scenario)), ("renderer", .string(g.renderer)), ("axis", .string(g.axis)),
                         ("linearOrBetter", .bool(g.isLinearOrBetter)),
                         ("points", .array(g.points.map { .object([("x", .number(Double($0.x))), ("ns", stats($0.stats))]) }))])
            })),
            ("allocations", .array(allocations.map { a in
                .object([("scenario", .string(a.scenario)), ("subject", .string(a.subject)),
                         ("allocationsPerCall", .number(a.allocationsPerCall)), ("bytesPerCall", .number(a.bytesPerCall)),
                         ("what", .string(a.note))])
            })),
            ("discovery", .array(discovery.map { d in
                .object([("plugins", .number(Double(d.count))), ("what", .string(d.mode)), ("wallMs", stats(d.wallMilliseconds)),
                         ("peakRSSMiB", .number(d.peakRSSMiB)), ("renderersListed", .number(Double(d.renderersListed))),
                         ("note", .string(d.note))])
            })),
            ("budgets", .array(budgets.map { b in
                .object([("name", .string(b.name)), ("limit", .string(b.limit)), ("measured", .string(b.measured)),
                         ("status", .string(b.status.rawValue))])
            })),
            ("notes", .array(notes.map(JSONValue.string))),
        ]
        fields.append(("error", error.map(JSONValue.string) ?? .null))
        return .object(fields)
    }
}

/// "12.3" below 100 ns, "1234" above.
func ns(_ value: Double) -> String {
    guard value.isFinite else { return "–" }
    return value < 100 ? fixed(value, 1) : fixed(value, 0)
}

func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "–" }
    return SystemCalls.formatFixed(value, digits: digits)
}

/// The machine and build the numbers come from.
struct Machine {
    var cores: Int
    var cpuModel: String
    var memoryGiB: Double
    var kernel: String
    var build: String
    var compiler: String

    static func current() -> Machine {
        let cpuinfo = Files.read("/proc/cpuinfo") ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { String($0).trimmingSpaces } ?? "unknown"
        let meminfo = Files.read("/proc/meminfo") ?? ""
        let kib = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Double($0) } ?? 0
        let release = SystemCalls.kernelRelease()
        #if DEBUG
        let build = "debug (numbers are not meaningful: use -c release)"
        #else
        let build = "release (-c release: -O, whole-module)"
        #endif
        #if compiler(>=6.3)
        let compiler = "Swift 6.3+"
        #elseif compiler(>=6.2)
        let compiler = "Swift 6.2"
        #else
        let compiler = "Swift < 6.2"
        #endif
        return Machine(cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpuModel: model, memoryGiB: kib / 1_048_576,
                       kernel: "Linux " + release, build: build, compiler: compiler)
    }

    var markdown: String {
        "Machine: \(cores) cores, \(cpuModel), \(fixed(memoryGiB, 1)) GiB RAM, \(kernel). Build: \(build), \(compiler).\n"
    }

    var json: JSONValue {
        .object([("cores", .number(Double(cores))), ("cpuModel", .string(cpuModel)), ("memoryGiB", .number(memoryGiB)),
                 ("kernel", .string(kernel)), ("build", .string(build)), ("compiler", .string(compiler))])
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return String(s)
    }
}
