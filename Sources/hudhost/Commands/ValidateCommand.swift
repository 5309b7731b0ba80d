// SPDX-License-Identifier: MIT
import CHudSystem
import Glibc
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import HudSystem

/// `hudhost validate`: the conformance suite for renderer authors. Each
/// target runs in a sandboxed child process (`hudsandbox validate`), so a
/// crash or hang becomes a result, not the end of the run.
struct ValidateCommand: Command {
    static let name = "validate"
    static let summary = "Check plugins or renderers against the ABI and layout rules (conformance suite)"
    static let arguments: Option.Value? = .file
    // Completion offers the names; P@1.N is typed (ConformanceProfileSelection.parse).
    static let profile = Option.value("--profile", "P", .choices(ConformanceProfile.allCases.map(\.rawValue)), "basic, standard (default), strict, or hudson (strict plus the house style of Hudson's own renderers); P@1.N holds every plugin to version 1.N of the profile; P alone holds each plugin to the version of the ABI minor it was built against, so a new or tightened check never fails a plugin built before it (hud-compatibility(7))")
    static let include = Option.value("--include", "REGEX", repeatable: true, "only checks whose id matches (repeatable)")
    static let exclude = Option.value("--exclude", "REGEX", repeatable: true, "drop checks whose id matches (repeatable)")
    static let seed = Option.value("--seed", "N", "seed for the randomized checks (default: random, printed in every report); the same seed reproduces a run exactly")
    static let inProcess = Option.flag("--in-process", "run the checks in this process (for debugging with gdb or sanitizers; a crash ends the run)")
    static let jobs = Option.value("--jobs", "N", aliases: ["-j"], "validate N targets in parallel (1…256, default 1)")
    static let format = Option.value("--format", "F", .choices(Format.allCases.map(\.rawValue)), "text (default), json (schemaVersion 1), junit, tap")
    static let output = Option.value("--output", "FILE", .file, "write the report to FILE instead of stdout")
    static let werror = Option.flag("--werror", "warnings count as failures for the exit code")
    static let timeout = Option.value("--timeout", "S", "seconds a single check may run (0 < S ≤ 3600, default 60)")
    static let layoutTimeout = Option.value("--layout-timeout", "S", "seconds a single layout call may take, in the child and in the host's own run (0 < S ≤ 3600, default 2): a hang or crash is reported with its case and a command that reproduces it")
    static let fuzzIterations = Option.value("--fuzz-iterations", "N", "random inputs per renderer for `fuzz` (0…1000000, default 150)")
    static let memoryMB = Option.value("--memory-mb", "N", "address-space limit of the sandbox (256…1048576, default 4096)")
    static let cpuSeconds = Option.value("--cpu-seconds", "N", "CPU-time limit of the sandbox (1…86400, default 600)")
    static let verbose = Option.flag("--verbose", "text: show details of passed checks too")
    static let listChecks = Option.flag("--list-checks", "list every check (id, profile, the version it joined, severity, summary) and the retired ids")
    static let json = Option.flag("--json", "with --list-checks: as JSON, with each check's severity in every profile version")
    static let options = [
        profile, include, exclude, seed, inProcess, jobs, format, output, werror, timeout, layoutTimeout, fuzzIterations, memoryMB, cpuSeconds, verbose,
        ColorOptions.color, listChecks, json,
    ]
    static let help = HelpPage(
        usage: """
            hudhost validate <path.so | renderer-id>... [--profile basic|standard|strict|hudson[@1.N]]
                                    [--include REGEX]... [--exclude REGEX]... [--seed N] [--in-process]
                                    [-j N] [--format text|json|junit|tap] [--output FILE] [--werror]
                                    [--timeout SECONDS] [--layout-timeout SECONDS] [--fuzz-iterations N]
                   hudhost validate --list-checks [--json] [--profile P]
            """,
        description: """
            Runs the conformance checks on each plugin file (every renderer it
            provides) or registered renderer id, and reports one result per check
            and renderer: passed, failed, warning, skipped, crashed or timed-out.
            Every check id is documented in hud-conformance(7) (rule and fix).

            Each target runs in a child process (hudsandbox) with CPU and
            address-space limits and a wall-clock timeout per check: a crash is
            recorded as `crashed` with its signal, a hang as `timed-out`, the
            checks that depend on it are skipped, and the run resumes after it.
            """,
        sections: [
            .options(options),
            .examples("""
                hudhost validate ./libmy_style.so
                hudhost validate com.hudson.tray com.hudson.scattered com.hudson.minimal --profile strict
                hudhost validate ./libmy_style.so --profile strict --format junit --output conformance.xml
                hudhost validate ./libmy_style.so --profile strict@1.1
                hudhost validate ./libmy_style.so --profile hudson
                hudhost validate ./libmy_style.so --include '^geometry-' --seed 42
                hudhost validate --list-checks
                """),
            .exitCodes("""
                For validate: 0 every check passed (warnings count only with
                --werror); 1 a check failed, crashed or timed out (a file the
                loader opens but that exports no entry symbol fails abi-entry-symbol:
                1, where probe says 3); 3 a target file is missing, not a regular
                file or cannot be loaded (dlopen fails), an id is unknown, or
                --output cannot be written. With --format json a target
                that cannot be used still gives one JSON document: the report (its
                "unloadable" says why), or {schemaVersion, target, error} when no
                check could start.
                """),
        ])

    enum Format: String, CaseIterable { case text, json, junit, tap }

    let arguments: [String]
    let profile: ConformanceProfileSelection
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
    let layoutTimeout: Double
    let fuzzIterations: Int
    let memoryMegabytes: Int
    let cpuSeconds: Int
    let verbose: Bool
    let color: ColorOptions

    init(_ arguments: Arguments) throws(UsageError) {
        self.arguments = arguments.positionals
        if let text = arguments.value(Self.profile) {
            switch ConformanceProfileSelection.parse(text) {
            case .success(let selection): profile = selection
            case .failure(let error): throw UsageError("invalid value '\(text)' for --profile: \(error)")
            }
        } else {
            profile = ConformanceProfileSelection(profile: .standard)
        }
        func regexes(_ option: Option) throws(UsageError) -> [Regex<AnyRegexOutput>] {
            var result: [Regex<AnyRegexOutput>] = []
            for pattern in arguments.all(option) {
                do { result.append(try Regex(pattern)) } catch { throw UsageError("invalid regular expression '\(pattern)' for \(option.name): \(error)") }
            }
            return result
        }
        for pattern in arguments.all(Self.include) {
            if let retired = ConformanceCatalog.retiredCheck(pattern) {
                throw UsageError("\(retired.id) is retired (\(retired.history))" + (retired.replacement.map { "; its rule lives on as \($0)" + (ConformanceCatalog.check($0).map { " in profile \($0.profile.rawValue)" } ?? "") } ?? ""))
            }
        }
        let includes = try regexes(Self.include), excludes = try regexes(Self.exclude)
        checkIDs = profile.profile.checkIDs(at: profile.version ?? ConformanceProfile.versions.last!).filter { id in
            (includes.isEmpty || includes.contains { id.contains($0) }) && !excludes.contains { id.contains($0) }
        }
        seed = try arguments.value(Self.seed, accepted: "an unsigned 64-bit integer") { UInt64($0) } ?? Self.randomSeed()
        inProcess = arguments.flag(Self.inProcess)
        jobs = try arguments.integer(Self.jobs, in: Self.jobRange, what: "targets at a time") ?? 1
        format = try arguments.value(Self.format, accepted: "text, json, junit or tap") { Format(rawValue: $0) } ?? .text
        output = arguments.value(Self.output).map(Output.absolute)  // before any plugin code runs
        werror = arguments.flag(Self.werror)
        listChecks = arguments.flag(Self.listChecks)
        listJSON = arguments.flag(Self.json)
        timeout = try arguments.seconds(Self.timeout, atMost: 3600) ?? 60
        layoutTimeout = try arguments.seconds(Self.layoutTimeout, atMost: 3600) ?? 2
        fuzzIterations = try arguments.integer(Self.fuzzIterations, in: 0...1_000_000, what: "random inputs per renderer") ?? 150
        memoryMegabytes = try arguments.integer(Self.memoryMB, in: 256...1_048_576, what: "megabytes") ?? 4096
        cpuSeconds = try arguments.integer(Self.cpuSeconds, in: 1...86_400, what: "seconds") ?? 600
        verbose = arguments.flag(Self.verbose)
        color = try ColorOptions(arguments)
        if listChecks {
            guard self.arguments.isEmpty else { throw UsageError("--list-checks takes no targets") }
        } else {
            guard !self.arguments.isEmpty else { throw UsageError("validate needs at least one plugin path or renderer id (or --list-checks)") }
            guard !checkIDs.isEmpty else { throw UsageError("--include/--exclude left no checks in profile \(profile); see --list-checks") }
            if listJSON { throw UsageError("--json goes with --list-checks; for reports use --format json") }
        }
    }

    /// Targets validated at once: each is a sandboxed child.
    static let jobRange = 1...256

    static func randomSeed() -> UInt64 {
        let value = SystemCalls.randomUInt64() ?? 0
        return value == 0 ? RawClock.now() : value
    }

    func run() -> ExitCode {
        if listChecks { return list() }
        // The output file and every target first (exit 3), before a check runs.
        if let output, let problem = Output.writeProblem(file: output) {
            return fail(.unwritableOutput(problem), target: nil)
        }
        let targets: [(ConformanceTarget, String)]
        switch resolveTargets() {
        case .success(let resolved): targets = resolved
        case .failure(let failure): return fail(failure.failure, target: failure.argument)
        }

        var configuration = ConformanceConfiguration(checkIDs: checkIDs, seed: seed)
        configuration.fuzzIterations = fuzzIterations
        configuration.helperTimeoutSeconds = timeout
        configuration.layoutTimeoutSeconds = layoutTimeout
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
                // An installation problem, not a target: exit 1.
                return fail(CommandFailure(code: FailureCode.scanFailed.rawValue, message: "\(notFound); or use --in-process", exit: .failure), target: nil)
            }
        }
        let supervisor = ConformanceSupervisor(mode: mode, configuration: configuration)
        let arguments = targets.map(\.1)
        let reports = ConformanceSupervisor.validateAll(targets, with: supervisor, jobs: inProcess ? 1 : jobs) { argument in
            let number = (arguments.firstIndex(of: argument) ?? 0) + 1
            Output.progress("validating \(argument) (\(number) of \(arguments.count))…")
        }
        // Each plugin held to the profile version it was built for (or the one asked for).
        let held = zip(targets, reports).map { target, report in
            report.held(to: profile.profile, version: profile.version(forPluginABI: declaredABI(of: target.0)))
        }
        let report = ConformanceReport(profile: profile.description, seed: seed, checkIDs: checkIDs, targets: held)
        recordOutcomes(held)
        let text: String
        switch format {
        case .text:
            let documentation = (try? SdkLocation.find().get())?.documentation("CONFORMANCE.md") ?? "Docs/CONFORMANCE.md"
            text = report.text(color: output == nil ? color.forStandardOutput : color.enabled(writingToTerminal: false), verbose: verbose,
                               documentation: documentation)
        case .json: text = report.json.serialized()
        case .junit: text = report.junit
        case .tap: text = report.tap
        }
        if let output {
            if let error = Output.writeFile(output, text) {
                CommandFailure.unwritableOutput(error).report()
                return .unusableTarget
            }
            if format != .text { Output.error(report.summary.line) }
        } else {
            Output.out(text)
        }
        // The report names each target that could not be loaded ("cannot load").
        if reports.contains(where: { $0.unloadable != nil }) { return .unusableTarget }
        return report.hasFailures(werror: werror) ? .failure : .ok
    }

    /// The ABI version `target`'s entry declares, as a sandboxed scan reads
    /// it (the SDK the plugin was built against); the host's for the
    /// built-ins; nil when it cannot be read (the checks say why).
    private func declaredABI(of target: ConformanceTarget) -> ABIVersion? {
        guard case .file(let path, _) = target else { return .host }
        // The run's deadline bounds this load too (a plugin that hangs in
        // init() is reported by its checks, not waited on here).
        let scanner = SandboxScanner(timeoutSeconds: ConformanceSupervisor.hostLoadDeadline(timeout))
        guard profile.version == nil, case .renderers(let renderers) = scanner.scan(path, allowInsecurePath: true).outcome else { return nil }
        return renderers.map(\.abiVersion).min()
    }

    /// A target argument that cannot be validated, and why.
    struct TargetFailure: Error {
        var argument: String
        var failure: CommandFailure
    }

    /// Each argument as a target: a plugin file (it must exist and be a
    /// regular file), a built-in id, or the id of a plugin on the search
    /// path, resolved from metadata only (no plugin code runs here; the
    /// checks load the file in the sandbox).
    private func resolveTargets() -> Result<[(ConformanceTarget, String)], TargetFailure> {
        var targets: [(ConformanceTarget, String)] = []
        let builtins = RendererRegistry.withBuiltins()
        var catalogReport: PluginCatalog.Report?
        for argument in arguments {
            if argument.contains("/") || argument.hasSuffix(".so") {
                let problem: String?
                switch SystemCalls.status(of: argument) {
                case .success(let status): problem = status.isRegularFile ? nil : "it is \(status.kindName); pass the path of a renderer .so file"
                case .failure(let error): problem = "\(error); pass the path of a renderer .so file or a renderer id"
                }
                if let problem {
                    let failure = CommandFailure(code: FailureCode.notAFile.rawValue, path: argument, message: "\(argument): \(problem)", exit: .unusableTarget)
                    return .failure(TargetFailure(argument: argument, failure: failure))
                }
                targets.append((.file(path: argument, renderer: nil), argument))
                continue
            }
            if builtins.info(id: argument) != nil {
                targets.append((.builtin(renderer: argument), argument))
                continue
            }
            let report = catalogReport ?? RegistryOptions.discoveryOnly.catalog().scan()
            catalogReport = report
            guard let file = report.files.first(where: { $0.renderers.contains { $0.id == argument } }), let path = file.canonicalPath else {
                // Validation takes any id on the search path, filtered or not.
                let lookup = RendererLookup(id: argument, registry: nil, report: report, filters: .none)
                return .failure(TargetFailure(argument: argument, failure: lookup.failure))
            }
            targets.append((.file(path: path, renderer: argument), argument))
        }
        return .success(targets)
    }

    /// Reports `failure`; with `--format json` the report's place (stdout,
    /// or the --output file unless that is the problem) gets the error
    /// document `{schemaVersion, target, error}` instead.
    private func fail(_ failure: CommandFailure, target: String?) -> ExitCode {
        if format == .json {
            let document = failure.document([("target", target.map(JSONValue.string) ?? .null)])
            if let output, failure.code != "unwritable-output" {
                _ = Output.writeFile(output, document)
            } else {
                Output.out(document)
            }
        }
        failure.report()
        return failure.exit
    }

    /// Stores each validated file's summary in the registry cache, where
    /// `hudhost why` reports it (only for files on the search path).
    private func recordOutcomes(_ reports: [ConformanceTargetReport]) {
        guard let directory = RegistryCache.defaultDirectory() else { return }
        let cache = RegistryCache(directory: directory, searchPath: SearchPaths.standard().directories)
        for target in reports {
            guard case .file(let path, _) = target.target else { continue }
            let single = ConformanceReport(profile: profile.description, seed: seed, checkIDs: checkIDs, targets: [target])
            let canonical = (try? SystemCalls.realPath(path).get()) ?? path
            cache.setValidation(path: canonical, summary: "profile \(target.profileVersion ?? profile.description), seed \(seed): \(single.summary.line)")
        }
        cache.save()
    }

    private func list() -> ExitCode {
        let checks = ConformanceCatalog.checks
        let versions = ConformanceProfile.versions
        if listJSON {
            func versionMembers(_ check: ConformanceCheck) -> [(String, JSONValue)] {
                versions.map { version in
                    let held = ConformanceProfile.allCases.contains { $0.checkIDs(at: version).contains(check.id) }
                    return (version.description, held ? .string(check.severity(at: version).rawValue) : .null)
                }
            }
            Output.out(JSONValue.object([
                ("schemaVersion", .number(Double(ConformanceReport.schemaVersion))),
                ("profiles", .object(ConformanceProfile.allCases.map { ($0.rawValue, .array($0.checkIDs.map(JSONValue.string))) })),
                ("profileVersions", .array(versions.map { .string($0.description) })),
                ("profilesByVersion", .object(ConformanceProfile.allCases.flatMap { profile in
                    versions.map { ("\(profile.rawValue)@\($0)", JSONValue.array(profile.checkIDs(at: $0).map(JSONValue.string))) }
                })),
                ("checks", .array(checks.map { check in
                    .object([
                        ("id", .string(check.id)), ("summary", .string(check.summary)), ("severity", .string(check.severity.rawValue)),
                        ("category", .string(check.category.rawValue)), ("scope", .string(check.scope.rawValue)),
                        ("profile", .string(check.profile.rawValue)), ("requires", .array(check.requires.map(JSONValue.string))),
                        ("profiles", .array(check.profiles.map { .string($0.rawValue) })),
                        ("since", .string(check.since.description)),
                        ("errorFrom", check.errorFrom.map { .string($0.description) } ?? .null),
                        ("severityByVersion", .object(versionMembers(check))),
                    ])
                })),
                ("retired", .array(ConformanceCatalog.retired.map { retired in
                    .object([
                        ("id", .string(retired.id)), ("history", .string(retired.history)),
                        ("withdrawnIn", .string(retired.withdrawnIn.description)),
                        ("replacement", retired.replacement.map(JSONValue.string) ?? .null),
                    ])
                })),
            ]).serialized())
        } else {
            func severity(_ check: ConformanceCheck) -> String {
                check.errorFrom.map { "warning until \($0)" } ?? check.severity.rawValue
            }
            let rows = [["ID", "PROFILE", "SINCE", "SEVERITY", "SCOPE", "DESCRIPTION"]]
                + checks.map { [$0.id, $0.profile.rawValue, $0.since.description, severity($0), $0.scope.rawValue, $0.summary] }
            Output.out(Table.format(rows))
            Output.line()
            let counts = ConformanceProfile.allCases.map { "\($0.rawValue) \($0.checkIDs.count)" }.joined(separator: ", ")
            Output.line("Profiles: \(counts) checks (newest version, \(versions.last!)); versions \(versions.map(\.description).joined(separator: ", ")): P@1.N. hud-conformance(7) documents each id.")
            for retired in ConformanceCatalog.retired {
                Output.line("Retired: \(retired.id) (\(retired.history))" + (retired.replacement.map { "; see \($0)" } ?? ""))
            }
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
