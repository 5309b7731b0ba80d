import Glibc
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import HudUnsafe

/// `hudhost _sandbox <mode> ...`: the child side of the sandbox. Hidden from
/// the usage list; `validate` starts it (through `SandboxProcess`) with
/// stdin from /dev/null, stdout captured, and a result pipe on fd 3. It sets
/// its own CPU and address-space limits before touching any plugin, then
/// streams one JSON object per line on the result descriptor. It never
/// writes to stdout (that belongs to the plugin under test, and is checked).
///
/// Modes:
///   validate   run conformance checks (events: begin / result / done)
///   digest     print a digest of one renderer's layouts (fresh-process
///              determinism)
struct SandboxCommand: Command {
    static let name = "_sandbox"
    static let summary = "Internal: run plugin code in a sandboxed child (used by validate)"
    static let isHidden = true
    static let options: [Arguments.Option] = [
        .value("--file"), .flag("--builtin"), .value("--renderer"), .value("--checks"), .value("--seed"),
        .value("--fuzz-iterations"), .value("--skip"), .value("--blocked", repeatable: true), .value("--result-fd"),
        .value("--cpu-seconds"), .value("--memory-mb"), .value("--helper"), .value("--helper-timeout"), .flag("--help"),
    ]
    static let help = """
        USAGE: hudhost _sandbox validate|digest (--file PATH | --builtin) [--renderer ID]
                                [--checks ID,ID...] [--seed N] [--skip UNIT,...] [--blocked UNIT=STATUS]...
                                [--result-fd N] [--cpu-seconds N] [--memory-mb N]

        Internal: the child process `hudhost validate` runs plugin code in. Not
        meant to be run by hand; results are JSON lines on --result-fd (default 3).

        \(exitCodeHelp)
        """

    enum Mode: String { case validate, digest }

    let mode: Mode
    let target: ConformanceTarget
    let configuration: ConformanceConfiguration
    let skipping: Set<ConformanceUnit>
    let blocked: [ConformanceUnit: String]
    let resultDescriptor: Int32
    let cpuSeconds: Int
    let memoryMegabytes: Int

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count == 1, let mode = Mode(rawValue: arguments.positionals[0]) else {
            throw UsageError("_sandbox needs one mode: validate or digest")
        }
        self.mode = mode
        let renderer = arguments.value("--renderer")
        if let file = arguments.value("--file") {
            target = .file(path: file, renderer: renderer)
        } else if arguments.flag("--builtin") {
            target = .builtin(renderer: renderer)
        } else {
            throw UsageError("_sandbox needs --file PATH or --builtin")
        }
        let seed = try arguments.value("--seed", accepted: "an unsigned integer") { UInt64($0) } ?? 0
        let checks = arguments.value("--checks").map { $0.split(separator: ",").map(String.init) } ?? ConformanceProfile.standard.checkIDs
        var configuration = ConformanceConfiguration(checkIDs: checks, seed: seed)
        configuration.fuzzIterations = try arguments.value("--fuzz-iterations", accepted: "a count") { Int($0) } ?? configuration.fuzzIterations
        configuration.helperExecutable = arguments.value("--helper")
        configuration.helperTimeoutSeconds = try arguments.value("--helper-timeout", accepted: "seconds") { Double($0) } ?? configuration.helperTimeoutSeconds
        self.configuration = configuration
        skipping = Set((arguments.value("--skip") ?? "").split(separator: ",").compactMap { ConformanceUnit(String($0)) })
        var blocked: [ConformanceUnit: String] = [:]
        for entry in arguments.all("--blocked") {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            if let unit = ConformanceUnit(parts[0]) { blocked[unit] = parts.count > 1 ? parts[1] : "failed" }
        }
        self.blocked = blocked
        resultDescriptor = try arguments.value("--result-fd", accepted: "a file descriptor") { Int32($0) } ?? SandboxProcess.resultDescriptor
        cpuSeconds = try arguments.value("--cpu-seconds", accepted: "seconds") { Int($0) } ?? 300
        memoryMegabytes = try arguments.value("--memory-mb", accepted: "megabytes") { Int($0) } ?? 4096
    }

    func run() -> ExitCode {
        SandboxLimits.apply(cpuSeconds: cpuSeconds, addressSpaceBytes: UInt64(memoryMegabytes) << 20)
        let runner = ConformanceRunner(target: target, configuration: configuration)
        let descriptor = resultDescriptor
        switch mode {
        case .validate:
            runner.run(skipping: skipping, blocked: blocked) { event in
                SandboxLimits.writeLine(event.json.serialized(pretty: false), to: descriptor)
            }
        case .digest:
            guard let renderer = target.rendererFilter else {
                Output.error("hudhost _sandbox digest: --renderer is required")
                return .usage
            }
            SandboxLimits.writeLine(runner.digestLine(renderer: renderer), to: descriptor)
        }
        return .ok
    }
}
