// SPDX-License-Identifier: MIT
import CHudSystem
import Glibc
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import HudUnsafe

/// `hudhost validate`: the conformance suite for renderer authors. Each
/// target runs in a sandboxed child process (`hudsandbox validate`), so a
/// crash or hang becomes a result, not the end of the run.
struct ValidateCommand: Command {
    static let name = "validate"
    static let summary = "Check plugins or renderers against the ABI and layout rules (conformance suite)"
    static let options: [Arguments.Option] = [
        .value("--profile"), .value("--include", repeatable: true), .value("--exclude", repeatable: true), .value("--seed"),
        .flag("--in-process"), .value("-j"), .value("--jobs"), .value("--format"), .value("--output"), .flag("--werror"),
        .flag("--list-checks"), .flag("--json"), .value("--timeout"), .value("--fuzz-iterations"), .value("--memory-mb"),
        .value("--cpu-seconds"), .flag("--verbose"), .flag("--help"),
    ] + ColorOptions.options
    static let help = """
        USAGE: hudhost validate <path.so | renderer-id>... [--profile basic|standard|strict]
                                [--include REGEX]... [--exclude REGEX]... [--seed N] [--in-process]
                                [-j N] [--format text|json|junit|tap] [--output FILE] [--werror]
                                [--timeout SECONDS] [--fuzz-iterations N]
               hudhost validate --list-checks [--json] [--profile P]

        Runs the conformance checks on each plugin file (every renderer it
        provides) or registered renderer id, and reports one result per check
        and renderer: passed, failed, warning, skipped, crashed or timed-out.
        Every check id is documented in Docs/CONFORMANCE.md (rule and fix).

        Each target runs in a child process (hudsandbox) with CPU and
        address-space limits and a wall-clock timeout per check: a crash is
        recorded as `crashed` with its signal, a hang as `timed-out`, the
        checks that depend on it are skipped, and the run resumes after it.

        OPTIONS
          --profile P         basic, standard (default) or strict; profiles pin
                              their check lists, so new checks never change them
          --include REGEX     only checks whose id matches (repeatable)
          --exclude REGEX     drop checks whose id matches (repeatable)
          --seed N            seed for the randomized checks (default: random,
                              printed in every report); the same seed reproduces
                              a run exactly
          --in-process        run the checks in this process (for debugging with
                              gdb or sanitizers; a crash ends the run)
          -j N, --jobs N      validate N targets in parallel (default 1)
          --format F          text (default), json (schemaVersion 1), junit, tap
          --output FILE       write the report to FILE instead of stdout
          --werror            warnings count as failures for the exit code
          --timeout S         seconds a single check may run (default 60)
          --fuzz-iterations N random inputs per renderer for `fuzz` (default 150)
          --memory-mb N       address-space limit of the sandbox (default 4096)
          --cpu-seconds N     CPU-time limit of the sandbox (default 600)
          --verbose           text: show details of passed checks too
        \(ColorOptions.help)
          --list-checks       list every check (id, profile, severity, summary)
          --json              with --list-checks: as JSON

        EXAMPLES
          hudhost validate ./libmy_style.so
          hudhost validate com.hudson.tray com.hudson.scattered com.hudson.minimal --profile strict
          hudhost validate ./libmy_style.so --profile strict --format junit --output conformance.xml
          hudhost validate ./libmy_style.so --include '^geometry-' --seed 42
          hudhost validate --list-checks

        EXIT CODES
          0  every check passed (warnings allowed unless --werror)
          1  a check failed, crashed or timed out
          2  usage error, or a target that cannot be loaded at all (missing
             file, unknown id, not a shared object)
        """

    enum Format: String { case text, json, junit, tap }

    let arguments: [String]
    let profile: ConformanceProfile
    let checkIDs: [String]
    let seed: UInt64
    let inProcess: Bool
    let jobs: Int
    let format: Format
    let output: String?
    let werror: Bool
    let listChecks: Bool
    let listJSON: Bool
    let timeout: Double
    let fuzzIterations: Int
    let memoryMegabytes: Int
    let cpuSeconds: Int
    let verbose: Bool
    let color: ColorOptions

    init(_ arguments: Arguments) throws(UsageError) {
        self.arguments = arguments.positionals
        profile = try arguments.value("--profile", accepted: "basic, standard or strict") { ConformanceProfile(rawValue: $0) } ?? .standard
        func regexes(_ option: String) throws(UsageError) -> [Regex<AnyRegexOutput>] {
            var result: [Regex<AnyRegexOutput>] = []
            for pattern in arguments.all(option) {
                do { result.append(try Regex(pattern)) } catch { throw UsageError("invalid regular expression '\(pattern)' for \(option): \(error)") }
            }
            return result
        }
        let includes = try regexes("--include"), excludes = try regexes("--exclude")
        checkIDs = profile.checkIDs.filter { id in
            (includes.isEmpty || includes.contains { id.contains($0) }) && !excludes.contains { id.contains($0) }
        }
        seed = try arguments.value("--seed", accepted: "an unsigned 64-bit integer") { UInt64($0) } ?? Self.randomSeed()
        inProcess = arguments.flag("--in-process")
        let jobValue = try arguments.value("-j", accepted: "a positive integer") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        let longJobValue = try arguments.value("--jobs", accepted: "a positive integer") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        jobs = jobValue ?? longJobValue ?? 1
        format = try arguments.value("--format", accepted: "text, json, junit or tap") { Format(rawValue: $0) } ?? .text
        output = arguments.value("--output").map(Output.absolute)  // before any plugin code runs
        werror = arguments.flag("--werror")
        listChecks = arguments.flag("--list-checks")
        listJSON = arguments.flag("--json")
        timeout = try arguments.value("--timeout", accepted: "seconds > 0") { Double($0).flatMap { $0 > 0 ? $0 : nil } } ?? 60
        fuzzIterations = try arguments.value("--fuzz-iterations", accepted: "a count") { Int($0).flatMap { $0 >= 0 ? $0 : nil } } ?? 150
        memoryMegabytes = try arguments.value("--memory-mb", accepted: "megabytes >= 256") { Int($0).flatMap { $0 >= 256 ? $0 : nil } } ?? 4096
        cpuSeconds = try arguments.value("--cpu-seconds", accepted: "seconds > 0") { Int($0).flatMap { $0 > 0 ? $0 : nil } } ?? 600
        verbose = arguments.flag("--verbose")
        color = try ColorOptions(arguments)
        if listChecks {
            guard self.arguments.isEmpty else { throw UsageError("--list-checks takes no targets") }
        } else {
            guard !self.arguments.isEmpty else { throw UsageError("validate needs at least one plugin path or renderer id (or --list-checks)") }
            guard !checkIDs.isEmpty else { throw UsageError("--include/--exclude left no checks in profile \(profile.rawValue); see --list-checks") }
            if listJSON { throw UsageError("--json goes with --list-checks; for reports use --format json") }
        }
    }

    static func randomSeed() -> UInt64 {
        let value = SystemCalls.randomUInt64() ?? 0
        return value == 0 ? RawClock.now() : value
    }

    func run() -> ExitCode {
        if listChecks { return list() }
        var targets: [(ConformanceTarget, String)] = []
        let builtins = RendererRegistry.withBuiltins()
        var catalogReport: PluginCatalog.Report?
        for argument in arguments {
            if argument.contains("/") || argument.hasSuffix(".so") {
                let info: FileStatus
                switch SystemCalls.status(of: argument) {
                case .success(let status): info = status
                case .failure(let error):
                    Output.error("hudhost validate: \(argument): \(error); pass the path of a renderer .so file or a renderer id")
                    return .usage
                }
                guard info.isRegularFile else {
                    Output.error("hudhost validate: \(argument): not a regular file; pass the path of a renderer .so file")
                    return .usage
                }
                targets.append((.file(path: argument, renderer: nil), argument))
                continue
            }
            if builtins.info(id: argument) != nil {
                targets.append((.builtin(renderer: argument), argument))
                continue
            }
            // Resolve a plugin id from metadata only (no plugin code runs in
            // this process); the checks then load its file in the sandbox.
            let report = catalogReport ?? RegistryOptions.discoveryOnly.catalog().scan()
            catalogReport = report
            guard let file = report.files.first(where: { $0.renderers.contains { $0.id == argument } }), let path = file.canonicalPath else {
                let known = builtins.renderers.map(\.id) + report.files.flatMap { $0.renderers.map(\.id) }
                Output.error("hudhost validate: no renderer with id '\(argument)'; known: \(known.joined(separator: ", ")) (see `hudhost list`)")
                return .usage
            }
            targets.append((.file(path: path, renderer: argument), argument))
        }

        var configuration = ConformanceConfiguration(checkIDs: checkIDs, seed: seed)
        configuration.fuzzIterations = fuzzIterations
        configuration.helperTimeoutSeconds = timeout
        let mode: ConformanceSupervisor.Mode
        let helper = SandboxHelper.locate()
        if inProcess {
            configuration.helperExecutable = try? helper.get()
            mode = .inProcess
        } else {
            switch helper {
            case .success(let executable):
                mode = .sandbox(executable: executable, timeoutSeconds: timeout, cpuSeconds: cpuSeconds, memoryMegabytes: memoryMegabytes)
            case .failure(let notFound):
                Output.error("hudhost validate: \(notFound); or use --in-process")
                return .usage
            }
        }
        let supervisor = ConformanceSupervisor(mode: mode, configuration: configuration)
        let reports = ConformanceSupervisor.validateAll(targets, with: supervisor, jobs: inProcess ? 1 : jobs) { argument in
            Output.progress("validating \(argument)…")
        }
        let report = ConformanceReport(profile: profile.rawValue, seed: seed, checkIDs: checkIDs, targets: reports)
        recordOutcomes(reports)
        let text: String
        switch format {
        case .text: text = report.text(color: output == nil ? color.forStandardOutput : color.enabled(writingToTerminal: false), verbose: verbose)
        case .json: text = report.json.serialized()
        case .junit: text = report.junit
        case .tap: text = report.tap
        }
        if let output {
            if let error = Output.writeFile(output, text) {
                Output.error("hudhost validate: \(error)")
                return .usage
            }
            if format != .text { Output.error(report.summary.line) }
        } else {
            Output.out(text)
        }
        if reports.contains(where: { $0.unloadable != nil }) { return .usage }
        return report.hasFailures(werror: werror) ? .failure : .ok
    }

    /// Stores each validated file's summary in the registry cache, where
    /// `hudhost why` reports it (only for files on the search path).
    private func recordOutcomes(_ reports: [ConformanceTargetReport]) {
        guard let directory = RegistryCache.defaultDirectory() else { return }
        let cache = RegistryCache(directory: directory, searchPath: SearchPaths.standard().directories)
        for target in reports {
            guard case .file(let path, _) = target.target else { continue }
            let single = ConformanceReport(profile: profile.rawValue, seed: seed, checkIDs: checkIDs, targets: [target])
            let canonical = (try? SystemCalls.realPath(path).get()) ?? path
            cache.setValidation(path: canonical, summary: "profile \(profile.rawValue), seed \(seed): \(single.summary.line)")
        }
        cache.save()
    }

    private func list() -> ExitCode {
        let checks = ConformanceCatalog.checks
        if listJSON {
            Output.out(JSONValue.object([
                ("schemaVersion", .number(Double(ConformanceReport.schemaVersion))),
                ("profiles", .object(ConformanceProfile.allCases.map { ($0.rawValue, .array($0.checkIDs.map(JSONValue.string))) })),
                ("checks", .array(checks.map { check in
                    .object([
                        ("id", .string(check.id)), ("summary", .string(check.summary)), ("severity", .string(check.severity.rawValue)),
                        ("category", .string(check.category.rawValue)), ("scope", .string(check.scope.rawValue)),
                        ("profile", .string(check.profile.rawValue)), ("requires", .array(check.requires.map(JSONValue.string))),
                    ])
                })),
            ]).serialized())
        } else {
            let rows = [["ID", "PROFILE", "SEVERITY", "SCOPE", "DESCRIPTION"]]
                + checks.map { [$0.id, $0.profile.rawValue, $0.severity.rawValue, $0.scope.rawValue, $0.summary] }
            Output.out(Table.format(rows))
            Output.line()
            Output.line("Profiles: basic \(ConformanceProfile.basic.checkIDs.count), standard \(ConformanceProfile.standard.checkIDs.count), strict \(ConformanceProfile.strict.checkIDs.count) checks. Docs/CONFORMANCE.md documents each id.")
        }
        return .ok
    }
}

/// A fallback seed source when /dev/urandom is unavailable.
enum RawClock {
    static func now() -> UInt64 {
        let (seconds, nanoseconds) = SystemCalls.realtime()
        return UInt64(bitPattern: seconds) &* 1_000_000_007 &+ UInt64(bitPattern: nanoseconds)
    }
}
