// SPDX-License-Identifier: MIT
// hudsandbox: the sandboxed child the host starts to run plugin code it
// does not trust in its own process (a scan of a file without metadata, a
// conformance run, a fresh-process digest, an out-of-process renderer). Its command line is a
// `SandboxRequest`; its answers are JSON lines on descriptor 3. Installed
// in libexec/hud/; found by `SandboxHelper.locate()`. Not for people.
import HudPluginBoundary
import Glibc
import HudConformance
import HudRegistry
import HudSandboxChild
import HudSystem

let request: SandboxRequest
do {
    request = try SandboxRequest(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    SystemCalls.writeAll(2, "hudsandbox: \(error). This helper is started by hudhost and the HudRegistry library; it is not meant to be run by hand.\n")
    exit(2)
}
// Every child dies with the process that started it, whatever it is doing
// (SIGKILL on the parent's exit, PR_SET_PDEATHSIG; the seccomp filter lets
// plugin code set only SIGKILL again). A parent already gone: nothing to do.
if let parent = SystemCalls.secureEnvironment("HUD_SANDBOX_PARENT").flatMap(Int32.init),
   !SystemCalls.dieWithParent(expectedParent: parent) {
    SystemCalls.exitImmediately(0)
}
switch request {
case .scan(let path, let allowInsecurePath): SandboxChild.scan(path: path, allowInsecurePath: allowInsecurePath)
case .scanBatch(let paths, let allowInsecurePath): SandboxChild.scanBatch(paths: paths, allowInsecurePath: allowInsecurePath)
case .validate(let validation): ConformanceChild.validate(validation)
case .digest(let validation): ConformanceChild.digest(validation)
case .layers: SandboxChild.reportLayers()
case .serve(let serve): RendererHostChild.serve(serve)
case .echo:
    while case .bytes(let chunk) = SystemCalls.read(SandboxChannel.resultDescriptor, maximum: 4096),
          SystemCalls.writeAll(SandboxChannel.resultDescriptor, chunk) {}
}
SystemCalls.exitImmediately(0)
