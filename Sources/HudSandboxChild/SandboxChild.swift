// SPDX-License-Identifier: MIT
import HudModel
import HudRegistry
import HudSystem

/// The child's sides of `scan` and `layers`: run inside `hudsandbox`.
package enum SandboxChild {
    /// The path checks (before the namespaces change how owners look),
    /// then every sandbox layer, then the load; writes the one reply line.
    package static func scan(path: String, allowInsecurePath: Bool) {
        let reply: String
        do {
            reply = try scanReply(path: path, allowInsecurePath: allowInsecurePath)
        } catch {
            reply = ScanReply.encode(error: error, loaded: nil)
        }
        SandboxLimits.writeFrame(reply, to: SandboxChannel.resultDescriptor)
    }

    private static func scanReply(path: String, allowInsecurePath: Bool) throws(RegistryError) -> String {
        let resolved = try RendererRegistry.resolve(path)
        if let refusal = PathSecurity(allowInsecure: allowInsecurePath).refusal(for: resolved.path) { throw refusal }
        let layers = SandboxLayers.apply(.scan, cpuSeconds: 10, addressSpaceBytes: 8 << 30, pluginFile: resolved.path)
        if SandboxLayers.required, let missing = layers.first(where: { !$0.active }) {
            throw .sandboxedLoadFailed(path: resolved.path, reasonCode: .sandboxIncomplete,
                                       reason: "HUD_REQUIRE_SANDBOX=1 but the \(missing.name) layer is \(missing.detail); the plugin was not loaded")
        }
        // Checked above, with the real owners; the loader still confirms it
        // maps the file it checked.
        let registry = RendererRegistry(security: PathSecurity(allowInsecure: true))
        return reply(loading: resolved.path, in: registry)
    }

    /// The reply for one file loaded by `registry`, naming the file opened.
    private static func reply(loading path: String, in registry: RendererRegistry) -> String {
        switch Result(catching: { () throws(RegistryError) in try registry.load(path: path) }) {
        case .success(let loaded): ScanReply.encode(renderers: loaded, failures: registry.failures, loaded: registry.openedStamps[path])
        case .failure(let error): ScanReply.encode(error: error, loaded: registry.openedStamps[path])
        }
    }

    /// The child of a batch scan: every path checked first (with the real
    /// owners), then every sandbox layer once, then each file loaded when
    /// the parent asks for it (`BatchTurn`) and answered in one frame. Ends
    /// when the parent stops asking, after the last file, or early when a
    /// plugin left a thread running (its code could act in a later file's
    /// turn: the parent goes on in a fresh child).
    package static func scanBatch(paths: [String], allowInsecurePath: Bool) {
        let checked = paths.map { checkedPath($0, allowInsecurePath: allowInsecurePath) }
        let files = checked.compactMap { try? $0.get() }
        let layers = SandboxLayers.apply(.scan, cpuSeconds: min(600, 10 * paths.count), addressSpaceBytes: 8 << 30, pluginFiles: files)
        let missing = SandboxLayers.required ? layers.first(where: { !$0.active }) : nil
        var requests = LineReader(descriptor: 0)
        for index in paths.indices {
            guard let line = requests.next(), let token = BatchTurn.token(ofRequest: line) else { return }
            let reply: String
            switch checked[index] {
            case .failure(let error):
                reply = ScanReply.encode(error: error, loaded: nil)
            case .success(let path):
                if let missing {
                    reply = ScanReply.encode(error: .sandboxedLoadFailed(path: path, reasonCode: .sandboxIncomplete,
                                                                        reason: "HUD_REQUIRE_SANDBOX=1 but the \(missing.name) layer is \(missing.detail); the plugin was not loaded"),
                                             loaded: nil)
                } else {
                    // A registry per file: one file's renderers never appear in another's answer.
                    reply = Self.reply(loading: path, in: RendererRegistry(security: PathSecurity(allowInsecure: true)))
                }
            }
            SandboxLimits.writeFrame(BatchTurn.encode(token: token, reply: reply), to: SandboxChannel.resultDescriptor)
            if index + 1 < paths.count, SystemCalls.threadCount() != 1 { return }
        }
    }

    private static func checkedPath(_ path: String, allowInsecurePath: Bool) -> Result<String, RegistryError> {
        Result { () throws(RegistryError) in
            let resolved = try RendererRegistry.resolve(path)
            if let refusal = PathSecurity(allowInsecure: allowInsecurePath).refusal(for: resolved.path) { throw refusal }
            return resolved.path
        }
    }

    /// Newline-terminated lines read from a descriptor (blocking).
    private struct LineReader {
        let descriptor: Int32
        var buffer: [UInt8] = []

        init(descriptor: Int32) { self.descriptor = descriptor }

        /// The next line without its newline; nil at end of input, on an
        /// error, or past 4 KiB without a newline.
        mutating func next() -> String? {
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    return line
                }
                guard buffer.count < 4096, case .bytes(let chunk) = SystemCalls.read(descriptor, maximum: 256) else { return nil }
                buffer += chunk
            }
        }
    }

    /// Applies every layer, exactly as a scan would, and reports each one.
    package static func reportLayers() {
        let layers = SandboxLayers.apply(.report, cpuSeconds: 10, addressSpaceBytes: 8 << 30)
        SandboxLimits.writeFrame(LayerReport.encode(layers), to: SandboxChannel.resultDescriptor)
    }
}
