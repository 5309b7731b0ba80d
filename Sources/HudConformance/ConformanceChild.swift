// SPDX-License-Identifier: MIT
package import HudRegistry
import HudSystem

/// The child side of `validate` and `digest` requests, run inside the
/// sandbox helper (`hudsandbox`): limits first, then the checks, streaming
/// one frame per event on `SandboxChannel.resultDescriptor`. It never
/// writes to stdout (that belongs to the plugin under test, and is checked).
package enum ConformanceChild {
    package static func validate(_ request: SandboxValidation) {
        guard enterSandbox(.validate, request) else { return }
        let skipping = Set(request.skip.compactMap(ConformanceUnit.init))
        var blocked: [ConformanceUnit: String] = [:]
        for (unit, status) in request.blocked {
            if let unit = ConformanceUnit(unit) { blocked[unit] = status }
        }
        runner(request).run(skipping: skipping, blocked: blocked) { event in
            SandboxLimits.writeFrame(event.json.serialized(pretty: false), to: SandboxChannel.resultDescriptor)
        }
    }

    package static func digest(_ request: SandboxValidation) {
        guard enterSandbox(.digest, request) else { return }
        guard let renderer = request.renderer else { return }
        SandboxLimits.writeFrame(runner(request).digestLine(renderer: renderer), to: SandboxChannel.resultDescriptor)
    }

    /// Every sandbox layer; false (after saying why on stderr) when
    /// `HUD_REQUIRE_SANDBOX=1` and one is missing.
    private static func enterSandbox(_ purpose: SandboxLayers.Purpose, _ request: SandboxValidation) -> Bool {
        var plugin: String?
        if case .file(let path) = request.target { plugin = LoadingChecks.canonical(path) }
        let layers = SandboxLayers.apply(purpose, cpuSeconds: request.cpuSeconds, addressSpaceBytes: UInt64(request.memoryMegabytes) << 20,
                                         pluginFile: plugin)
        if SandboxLayers.required, let missing = layers.first(where: { !$0.active }) {
            SystemCalls.writeAll(2, "hudsandbox: HUD_REQUIRE_SANDBOX=1 but the \(missing.name) layer is \(missing.detail); no plugin code was run\n")
            return false
        }
        return true
    }

    private static func runner(_ request: SandboxValidation) -> ConformanceRunner {
        let target: ConformanceTarget = switch request.target {
        case .file(let path): .file(path: path, renderer: request.renderer)
        case .builtin: .builtin(renderer: request.renderer)
        }
        var configuration = ConformanceConfiguration(checkIDs: request.checks.isEmpty ? ConformanceProfile.standard.checkIDs : request.checks,
                                                     seed: request.seed)
        if let iterations = request.fuzzIterations { configuration.fuzzIterations = iterations }
        configuration.helperExecutable = request.helper
        if let timeout = request.helperTimeoutSeconds { configuration.helperTimeoutSeconds = timeout }
        return ConformanceRunner(target: target, configuration: configuration)
    }
}

extension ConformanceTarget {
    /// This target as a sandbox request's parameters.
    package var sandboxValidation: SandboxValidation {
        switch self {
        case .file(let path, let renderer): SandboxValidation(target: .file(path), renderer: renderer)
        case .builtin(let renderer): SandboxValidation(target: .builtin, renderer: renderer)
        }
    }
}
