// SPDX-License-Identifier: MIT
package import HudRegistry
import HudPresentation
/// A whole `validate` run, and its renderings: human text, JSON (with a
/// schema version), JUnit XML (one testcase per check per renderer) and TAP.
package struct ConformanceReport: Sendable {
    package static let schemaVersion = 1

    package var profile: String
    package var seed: UInt64
    package var checkIDs: [String]
    package var targets: [ConformanceTargetReport]

    package init(profile: String, seed: UInt64, checkIDs: [String], targets: [ConformanceTargetReport]) {
        self.profile = profile
        self.seed = seed
        self.checkIDs = checkIDs
        self.targets = targets
    }

    package var allResults: [CheckResult] { targets.flatMap(\.results) }

    package struct Summary: Sendable, Equatable {
        package var passed = 0, failed = 0, warnings = 0, skipped = 0, crashed = 0, timedOut = 0

        package var line: String {
            "\(passed) passed, \(failed) failed, \(warnings) warning\(warnings == 1 ? "" : "s"), \(skipped) skipped, \(crashed) crashed, \(timedOut) timed out"
        }
    }

    package var summary: Summary {
        var summary = Summary()
        for result in allResults {
            switch result.status {
            case .passed: summary.passed += 1
            case .failed: summary.failed += 1
            case .warning: summary.warnings += 1
            case .skipped: summary.skipped += 1
            case .crashed: summary.crashed += 1
            case .timedOut: summary.timedOut += 1
            }
        }
        return summary
    }

    /// True when something failed, crashed or timed out (or warned, with `werror`).
    package func hasFailures(werror: Bool) -> Bool {
        allResults.contains { $0.status.isFailure || (werror && $0.status == .warning) }
    }

    /// Results grouped: the plugin's own checks, then each renderer's.
    static func groups(_ target: ConformanceTargetReport) -> [(String?, [CheckResult])] {
        var groups: [(String?, [CheckResult])] = []
        for result in target.results {
            if let index = groups.firstIndex(where: { $0.0 == result.renderer }) {
                groups[index].1.append(result)
            } else {
                groups.append((result.renderer, [result]))
            }
        }
        return groups
    }

    // MARK: - Text

    /// Under each failed check or warning: its details, its documented
    /// fix and where its section is (`documentation`, the path of
    /// CONFORMANCE.md for this hudhost: installed or in the checkout).
    package func text(color: Bool = false, verbose: Bool = false, documentation: String = "Docs/CONFORMANCE.md") -> String {
        func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        func tag(_ status: CheckStatus) -> String {
            switch status {
            case .passed: paint("PASS ", "32")
            case .failed: paint("FAIL ", "31;1")
            case .warning: paint("WARN ", "33")
            case .skipped: paint("SKIP ", "2")
            case .crashed: paint("CRASH", "31;1")
            case .timedOut: paint("TIME ", "31;1")
            }
        }
        var out = "hudhost validate: profile \(profile), \(checkIDs.count) check\(checkIDs.count == 1 ? "" : "s"), seed \(seed)\n"
        let width = (checkIDs.map(\.count).max() ?? 20) + 2
        for target in targets {
            out += "\n" + paint("\(target.argument)", "1") + (target.argument == target.target.description ? "" : " (\(target.target))") + "\n"
            if let version = target.profileVersion { out += "  held to \(version)\n" }
            if let unloadable = target.unloadable { out += "  cannot load: \(unloadable)\n" }
            for (renderer, results) in Self.groups(target) {
                out += "  " + (renderer.map { "renderer \($0)" } ?? "plugin") + "\n"
                for result in results {
                    let padded = result.checkID + String(repeating: " ", count: max(1, width - result.checkID.count))
                    out += "    \(tag(result.status)) \(padded)\(result.message)\n"
                    if result.status.isFailure || result.status == .warning || verbose {
                        let shown = verbose ? 40 : 8
                        for detail in result.details.prefix(shown) { out += "          \(detail)\n" }
                        if result.details.count > shown {
                            let more = result.details.count - shown
                            out += "          … \(more) more line\(more == 1 ? "" : "s") of details (in --format json)\n"
                        }
                        if let seed = result.seed, result.status.isFailure { out += "          seed \(seed): reproduce with --seed \(seed)\n" }
                        if result.status != .passed, result.status != .skipped {
                            if let fix = ConformanceFixes.byCheck[result.checkID] { out += "          fix: \(fix)\n" }
                            out += "          see: \(documentation)#\(result.checkID)\n"
                        }
                    }
                }
            }
        }
        out += "\n" + summary.line + "\n"
        return out
    }

    // MARK: - JSON

    package var json: JSONValue {
        let s = summary
        return .object([
            ("schemaVersion", .number(Double(Self.schemaVersion))),
            ("profile", .string(profile)),
            ("seed", .string(String(seed))),
            ("checks", .array(checkIDs.map(JSONValue.string))),
            ("targets", .array(targets.map { target in
                .object([
                    ("argument", .string(target.argument)),
                    ("target", .string(target.target.description)),
                    ("profileVersion", target.profileVersion.map(JSONValue.string) ?? .null),
                    ("unloadable", target.unloadable.map(JSONValue.string) ?? .null),
                    ("results", .array(target.results.map(\.json))),
                ])
            })),
            ("summary", .object([
                ("passed", .number(Double(s.passed))), ("failed", .number(Double(s.failed))),
                ("warnings", .number(Double(s.warnings))), ("skipped", .number(Double(s.skipped))),
                ("crashed", .number(Double(s.crashed))), ("timedOut", .number(Double(s.timedOut))),
            ])),
        ])
    }

    // MARK: - JUnit XML

    package var junit: String {
        let s = summary
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"hudhost validate\" tests=\"\(allResults.count)\" failures=\"\(s.failed)\" errors=\"\(s.crashed + s.timedOut)\" skipped=\"\(s.skipped)\">\n"
        for target in targets {
            for (renderer, results) in Self.groups(target) {
                let suite = renderer ?? "\(target.argument) (plugin)"
                let failures = results.filter { $0.status == .failed }.count
                let errors = results.filter { $0.status == .crashed || $0.status == .timedOut }.count
                let skipped = results.filter { $0.status == .skipped }.count
                let time = results.reduce(0) { $0 + $1.milliseconds } / 1000
                out += "  <testsuite name=\"\(Self.xml(suite))\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(JSONValue.format((time * 1000).rounded() / 1000))\">\n"
                out += "    <properties><property name=\"profile\" value=\"\(target.profileVersion ?? profile)\"/><property name=\"seed\" value=\"\(seed)\"/><property name=\"target\" value=\"\(Self.xml(target.target.description))\"/></properties>\n"
                for result in results {
                    let name = Self.xml(result.checkID)
                    let time = JSONValue.format((result.milliseconds).rounded() / 1000)
                    out += "    <testcase name=\"\(name)\" classname=\"\(Self.xml(suite))\" time=\"\(time)\""
                    let body = ([result.message] + result.details).joined(separator: "\n") + "\nseed: \(result.seed ?? seed) (reproduce with --seed \(result.seed ?? seed))"
                    switch result.status {
                    case .passed:
                        out += "/>\n"
                    case .warning:
                        out += ">\n      <system-out>\(Self.xml("warning: " + body))</system-out>\n    </testcase>\n"
                    case .skipped:
                        out += ">\n      <skipped message=\"\(Self.xml(result.message))\"/>\n    </testcase>\n"
                    case .failed:
                        out += ">\n      <failure message=\"\(Self.xml(result.message + " [seed \(result.seed ?? seed)]"))\" type=\"failed\">\(Self.xml(body))</failure>\n    </testcase>\n"
                    case .crashed, .timedOut:
                        out += ">\n      <error message=\"\(Self.xml(result.message + " [seed \(result.seed ?? seed)]"))\" type=\"\(result.status.rawValue)\">\(Self.xml(body))</error>\n    </testcase>\n"
                    }
                }
                out += "  </testsuite>\n"
            }
        }
        out += "</testsuites>\n"
        return out
    }

    /// XML-escaped; characters XML 1.0 cannot carry become U+FFFD.
    static func xml(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: - TAP

    package var tap: String {
        var lines = ["TAP version 13", "1..\(allResults.count)"]
        var number = 0
        for target in targets {
            for result in target.results {
                number += 1
                let name = "\(result.renderer ?? target.argument): \(result.checkID)"
                switch result.status {
                case .passed: lines.append("ok \(number) - \(name)")
                case .warning: lines.append("ok \(number) - \(name) # warning: \(result.message.replacingNewlines())")
                case .skipped: lines.append("ok \(number) - \(name) # SKIP \(result.message.replacingNewlines())")
                case .failed, .crashed, .timedOut:
                    lines.append("not ok \(number) - \(name)")
                    lines.append("  ---")
                    lines.append("  status: \(result.status.rawValue)")
                    lines.append("  message: \(JSONValue.string(result.message).serialized(pretty: false))")
                    lines.append("  seed: \(result.seed ?? seed)")
                    if !result.details.isEmpty {
                        lines.append("  details:")
                        lines += result.details.prefix(20).map { "    - \(JSONValue.string($0).serialized(pretty: false))" }
                    }
                    lines.append("  ...")
                }
            }
        }
        lines.append("# \(summary.line)")
        return lines.joined(separator: "\n") + "\n"
    }
}
