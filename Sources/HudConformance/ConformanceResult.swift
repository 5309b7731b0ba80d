// SPDX-License-Identifier: MIT
package import HudRegistry
import HudPresentation
/// The outcome of one check for one plugin or renderer.
package enum CheckStatus: String, Sendable, Hashable, CaseIterable {
    case passed
    case failed
    case warning
    case skipped
    case crashed
    case timedOut = "timed-out"

    /// Failed, crashed or timed out: the run's exit code is 1.
    package var isFailure: Bool { self == .failed || self == .crashed || self == .timedOut }
}

/// One finished check. `renderer` is nil for plugin-level checks (and for
/// renderer checks skipped before any renderer was known).
package struct CheckResult: Sendable, Hashable {
    package var checkID: String
    package var renderer: String?
    package var status: CheckStatus
    /// One line: what was found (or why it was skipped).
    package var message: String
    /// Further evidence, one item a line (offending nodes, inputs, ...).
    package var details: [String]
    /// The seed of a randomized check, so `--seed` reproduces it.
    package var seed: UInt64?
    package var milliseconds: Double
    /// For `skipped`: true when the check does not apply (it then does not
    /// block checks that depend on it), false when a prerequisite failed.
    package var notApplicable: Bool
    /// For `failed`: true when what failed leaves the inputs of the checks
    /// that depend on this one sound, so they still run (geometry-finite
    /// when every number is finite and only frames leave the screen).
    package var dependentsRun: Bool

    package init(checkID: String, renderer: String?, status: CheckStatus, message: String, details: [String] = [],
                seed: UInt64? = nil, milliseconds: Double = 0, notApplicable: Bool = false, dependentsRun: Bool = false) {
        self.checkID = checkID
        self.renderer = renderer
        self.status = status
        self.message = message
        self.details = details
        self.seed = seed
        self.milliseconds = milliseconds
        self.notApplicable = notApplicable
        self.dependentsRun = dependentsRun
    }

    /// The unit key: `check` or `check@renderer`.
    package var unit: ConformanceUnit { ConformanceUnit(checkID: checkID, renderer: renderer) }

    /// Passed, warned, skipped as not applicable or failed with
    /// `dependentsRun`: dependents may run.
    var unblocksDependents: Bool {
        status == .passed || status == .warning || (status == .skipped && notApplicable) || (status == .failed && dependentsRun)
    }

    /// How this result stops the checks that require it, in the runner's
    /// words: "failed", "was skipped", "timed out", or "crashed" with the
    /// signal a crash's message names ("the plugin crashed (SIGSEGV) …").
    var stoppedAs: String {
        switch status {
        case .skipped: return "was skipped"
        case .timedOut: return "timed out"
        case .crashed:
            let prefix = "the plugin crashed ("
            guard message.hasPrefix(prefix), let close = message.firstIndex(of: ")") else { return "crashed" }
            return "crashed (" + message[message.index(message.startIndex, offsetBy: prefix.count)...close]
        default: return status.rawValue
        }
    }

    // MARK: - Wire format (one JSON object per result frame)

    package var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("check", .string(checkID)),
            ("renderer", renderer.map(JSONValue.string) ?? .null),
            ("status", .string(status.rawValue)),
            ("message", .string(message)),
        ]
        if !details.isEmpty { members.append(("details", .array(details.map(JSONValue.string)))) }
        if let seed { members.append(("seed", .string(String(seed)))) }
        members.append(("milliseconds", .number((milliseconds * 1000).rounded() / 1000)))
        if notApplicable { members.append(("notApplicable", true)) }
        if dependentsRun { members.append(("dependentsRun", true)) }
        return .object(members)
    }

    /// A result a validate child sent: its texts are the child's (plugin
    /// code may have written them), so they are bounded and escaped here.
    package init?(json: JSONValue) {
        guard let check = json["check"]?.stringValue, let statusName = json["status"]?.stringValue,
              let status = CheckStatus(rawValue: statusName) else { return nil }
        self.init(
            checkID: check, renderer: json["renderer"]?.stringValue.map { TextChecks.fromChild($0, limit: 200) }, status: status,
            message: TextChecks.fromChild(json["message"]?.stringValue ?? ""),
            details: (json["details"]?.arrayValue?.compactMap(\.stringValue) ?? []).prefix(200).map { TextChecks.fromChild($0) },
            seed: json["seed"]?.stringValue.flatMap { UInt64($0) },
            milliseconds: json["milliseconds"]?.numberValue ?? 0,
            notApplicable: json["notApplicable"]?.boolValue ?? false,
            dependentsRun: json["dependentsRun"]?.boolValue ?? false)
    }
}

/// One (check, renderer) pair: the unit of work, of crash attribution and of
/// resumption after a crash.
package struct ConformanceUnit: Sendable, Hashable, CustomStringConvertible {
    package var checkID: String
    package var renderer: String?

    package init(checkID: String, renderer: String?) {
        self.checkID = checkID
        self.renderer = renderer
    }

    /// `check` or `check@renderer` (renderer ids never contain '@').
    package var description: String { renderer.map { "\(checkID)@\($0)" } ?? checkID }

    package init?(_ text: String) {
        let parts = text.split(separator: "@", maxSplits: 1).map(String.init)
        guard let first = parts.first, !first.isEmpty else { return nil }
        self.init(checkID: first, renderer: parts.count > 1 ? parts[1] : nil)
    }
}

/// What the runner reports while it works: a unit is about to run (so a
/// crash or hang can be attributed to it), or a unit finished.
package enum ConformanceEvent: Sendable {
    case begin(ConformanceUnit)
    /// A layout of the named case begins: it must return within the
    /// layout deadline (`--layout-timeout`), and a crash or hang until
    /// `returned` is reported with this case.
    case call(String)
    /// The layout announced by `call` returned.
    case returned
    case result(CheckResult)
    /// Every selected unit was handled.
    case done

    package var json: JSONValue {
        switch self {
        case .begin(let unit): .object([("event", "begin"), ("unit", .string(unit.description))])
        case .call(let name): .object([("event", "call"), ("case", .string(name))])
        case .returned: .object([("event", "returned")])
        case .result(let result): .object([("event", "result"), ("result", result.json)])
        case .done: .object([("event", "done")])
        }
    }

    package init?(json: JSONValue) {
        switch json["event"]?.stringValue {
        case "begin":
            guard let text = json["unit"]?.stringValue, let unit = ConformanceUnit(text) else { return nil }
            self = .begin(unit)
        case "call":
            guard let name = json["case"]?.stringValue else { return nil }
            self = .call(name)
        case "returned":
            self = .returned
        case "result":
            guard let body = json["result"], let result = CheckResult(json: body) else { return nil }
            self = .result(result)
        case "done":
            self = .done
        default:
            return nil
        }
    }
}

/// Everything `validate` found for one target (a plugin file or the
/// linked built-ins).
package struct ConformanceTargetReport: Sendable {
    /// What the user typed (path or id).
    package var argument: String
    package var target: ConformanceTarget
    package var results: [CheckResult]
    /// Set when the target could not be loaded at all (exit code 2).
    package var unloadable: String?
    /// The seed used for the randomized checks.
    package var seed: UInt64
    /// The profile version the target was held to (`strict@1.0`), once
    /// `held(to:version:)` has applied it.
    package var profileVersion: String?

    package init(argument: String, target: ConformanceTarget, results: [CheckResult], unloadable: String? = nil, seed: UInt64) {
        self.argument = argument
        self.target = target
        self.results = results
        self.unloadable = unloadable
        self.seed = seed
    }

    /// This report judged by `profile` at `version`: results of checks that
    /// had not joined the profile by then are dropped, and a problem with a
    /// check that was still a warning then is a warning, saying from which
    /// version it is an error.
    package func held(to profile: ConformanceProfile, version: ABIVersion) -> ConformanceTargetReport {
        let selected = Set(profile.checkIDs(at: version))
        var held = self
        held.profileVersion = "\(profile.rawValue)@\(version)"
        held.results = results.compactMap { result in
            guard selected.contains(result.checkID), let check = ConformanceCatalog.check(result.checkID) else { return nil }
            var result = result
            if result.status == .failed, check.severity(at: version) == .warning {
                result.status = .warning
                let from = check.errorFrom.map { "; an error from \(profile.rawValue)@\($0)" } ?? ""
                result.message += " (a warning in \(profile.rawValue)@\(version)\(from))"
            }
            return result
        }
        return held
    }
}

/// What to validate: a plugin file, or the renderers linked into the host.
/// `renderer` limits renderer-level checks to one id.
package enum ConformanceTarget: Sendable, Hashable, CustomStringConvertible {
    case file(path: String, renderer: String?)
    case builtin(renderer: String?)

    package var rendererFilter: String? {
        switch self {
        case .file(_, let renderer), .builtin(let renderer): renderer
        }
    }

    package var description: String {
        switch self {
        case .file(let path, _): path
        case .builtin: "built-in"
        }
    }
}
