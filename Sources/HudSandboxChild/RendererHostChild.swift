// SPDX-License-Identifier: MIT
import HudPluginBoundary
import HudConformance
import HudHarness
import HudModel
package import HudRegistry
import Synchronization
import HudSystem

/// The renderer host child (`hudsandbox serve`): maps the shared region,
/// applies every sandbox layer, loads the one plugin file, says which
/// descriptors it found, then serves layout requests until its channel
/// closes. It reports raw facts only (`RendererHostProtocol.swift`); the
/// parent judges them.
///
/// The complications it rebuilds carry trap actions: the host's hit
/// testing calls the host's own thunks, so a renderer calling one of these
/// (in layout or from a thread of its own) is a contract violation,
/// counted and reported with the next reply.
package enum RendererHostChild {
    package static func serve(_ request: SandboxServe) {
        let channel = SandboxChannel.resultDescriptor
        func send(_ frame: RendererHostFrame) { _ = SystemCalls.writeAll(channel, frame.encoded) }
        let region: SharedRegion
        switch SharedRegion.adopt(descriptor: SandboxChannel.sharedRegionDescriptor) {
        case .success(let mapped): region = mapped
        case .failure(let error):
            send(.loadFailed(code: FailureCode.protocolError.rawValue, reason: "the shared region on descriptor 4 is unusable (\(error))"))
            return
        }
        // SIGKILL when the parent goes (PR_SET_PDEATHSIG: strictly, when the
        // parent's thread that started us exits; the host stops its renderer
        // hosts before such a thread ends). Gone already: exit now.
        guard SystemCalls.dieWithParent(expectedParent: request.parent) else { return }

        let renderers: [PluginRenderer]
        let loaded: LoadedPlugin
        do {
            (renderers, loaded) = try load(request)
        } catch {
            send(.loadFailed(code: error.code.rawValue, reason: error.description))
            return
        }
        send(.ready(records: renderers.map { $0.info.recordJSON.serialized(pretty: false) }))

        let traps = TrapCounter()
        var current: (generation: UInt64, snapshot: CComplications)?
        var lastCall: (bytes: [UInt8], environment: HudEnvironment, interaction: HudInteraction)?
        var reader = FrameReader()
        // Raw calls (validate's buffer checks) reach the descriptor directly.
        var direct = [DirectRenderer?](repeating: nil, count: renderers.count)
        let rawTitles = TitleStorage()
        // A prepared call waiting for `callPrepared`: its inputs are in the region.
        var pending: (sequence: UInt32, renderer: Int, inputs: PreparedInputs, buffer: ValidationFrame.RawBuffer)?
        while true {
            let payload: [UInt8]
            switch reader.next() {
            case .frame(let bytes): payload = bytes
            case .tooLarge: return
            case .incomplete:
                guard case .bytes(let chunk) = SystemCalls.read(channel, maximum: 4096) else { return }  // closed: the host is done
                reader.append(chunk)
                continue
            }
            let call: RendererHostFrame.LayoutRequest
            var rawBuffer: ValidationFrame.RawBuffer?
            var prepare = false
            // validate's frames (ValidationFrames.swift) come as `.validation`.
            switch try? RendererHostFrame(payload: payload) {
            case .layout(let request)?: call = request
            case .validation(let kind, let body)?:
                switch try? ValidationFrame(kind: kind, payload: body) {
                case .rawLayout(let request, let buffer)?: (call, rawBuffer) = (request, buffer)
                case .concurrentLayout(let request)?:
                    // validate's thread-safety check (RendererHostConcurrent.swift).
                    // The inputs overwrote the complications area: the next
                    // layout call's complications are decoded again.
                    current = nil
                    let index = Int(request.renderer)
                    if index < renderers.count, direct[index] == nil { direct[index] = DirectRenderer(renderers[index].info) }
                    guard index < renderers.count, let renderer = direct[index] else {
                        send(.callFailed(sequence: request.sequence, reason: "renderer index \(request.renderer) cannot be reached"))
                        continue
                    }
                    do {
                        var reply = try serveConcurrent(request, renderer: renderer, region: region) { traps.calls.add(1, ordering: .relaxed) }
                        if case .concurrentDone(let sequence, var slots) = reply, !slots.isEmpty {
                            slots[0].violations &+= UInt32(clamping: traps.calls.exchange(0, ordering: .relaxed))
                            reply = .concurrentDone(sequence: sequence, slots: slots)
                        }
                        send(reply.frame)
                    } catch {
                        send(.callFailed(sequence: request.sequence, reason: error.description))
                    }
                    continue
                case .preparedLayout(let request, let buffer)?: (call, rawBuffer, prepare) = (request, buffer, true)
                case .callPrepared(let sequence)?:
                    guard let waiting = pending, waiting.sequence == sequence, let renderer = direct[waiting.renderer] else { return }
                    pending = nil
                    let b = waiting.buffer
                    guard let reply = renderer.callPrepared(waiting.inputs, capacity: Int(b.capacity), stride: Int(b.stride), guardBytes: Int(b.guardBytes),
                                                            trapExitStatus: RendererHostFrame.actionTrapExitStatus, in: region) else {
                        send(.callFailed(sequence: sequence, reason: "a prepared call the region cannot hold (\(b))"))
                        continue
                    }
                    send(.layoutDone(.init(sequence: sequence, status: reply.status, count: reply.count, capacity: b.capacity,
                                           violations: UInt32(clamping: reply.violations), stringBytes: 0, insets: reply.insets,
                                           hiddenPositions: reply.hiddenPositions)))
                    continue
                case .abiFacts(let request)?:
                    let reply = abiFacts(request, loaded: loaded, served: renderers.map(\.info.id))
                    send(reply)
                    continue
                case .abiFactsDone?, .inputsReady?, .concurrentDone?, nil: return  // the child's own frames, or malformed
                }
            default: return
            }
            do throws(ServeError) {
                if call.complicationsBytes > 0 || current?.generation != call.generation {
                    guard let bytes = region.read(at: SharedLayoutArea.complicationsOffset, count: Int(call.complicationsBytes),
                                                  capacity: SharedLayoutArea.complicationsCapacity) else { throw ServeError("complications size \(call.complicationsBytes)") }
                    let complications = try ServeError.wrap { () throws(WireError) in
                        try HudPhoneComplications(wire: bytes) { _ in { traps.calls.add(1, ordering: .relaxed) } }
                    }
                    current = (call.generation, try ServeError.wrap { () throws(RegistryError) in try CComplications(complications) })
                }
                guard let snapshot = current?.snapshot, Int(call.renderer) < renderers.count,
                      let bytes = region.read(at: SharedLayoutArea.callOffset, count: Int(call.callBytes), capacity: SharedLayoutArea.callCapacity) else {
                    throw ServeError("renderer index \(call.renderer) or call size \(call.callBytes)")
                }
                // A frame loop sends the same environment and interaction
                // again and again: decode them only when the bytes change.
                if lastCall?.bytes != bytes {
                    var wire = WireReader(bytes)
                    let environment = try ServeError.wrap { () throws(WireError) in try HudEnvironment(wire: &wire) }
                    let interaction = try ServeError.wrap { () throws(WireError) in try HudInteraction(wire: &wire) }
                    lastCall = (bytes, environment, interaction)
                }
                guard let (_, environment, interaction) = lastCall else { throw ServeError("no call inputs") }
                if let buffer = rawBuffer {
                    let index = Int(call.renderer)
                    if direct[index] == nil { direct[index] = DirectRenderer(renderers[index].info) }
                    if prepare {
                        guard direct[index] != nil, SharedLayoutArea.rawCallFits(capacity: Int(buffer.capacity), stride: Int(buffer.stride), guardBytes: Int(buffer.guardBytes)),
                              let inputs = DirectRenderer.prepareInputs(snapshot, environment: environment, interaction: interaction,
                                                                         environmentSize: Int(buffer.environmentSize), titles: rawTitles, in: region) else {
                            throw ServeError("a prepared call whose inputs or buffer the region cannot hold, or whose renderer cannot be reached (\(buffer))")
                        }
                        pending = (call.sequence, index, inputs, buffer)
                        send(ValidationFrame.inputsReady(sequence: call.sequence, bytes: UInt32(inputs.bytes)).frame)
                        continue
                    }
                    guard let renderer = direct[index],
                          let reply = renderer.rawCall(snapshot, environment: environment, interaction: interaction,
                                                       environmentSize: Int(buffer.environmentSize), capacity: Int(buffer.capacity),
                                                       stride: Int(buffer.stride), guardBytes: Int(buffer.guardBytes), titles: rawTitles, in: region) else {
                        throw ServeError("a raw call the region cannot hold or the renderer cannot be reached for (\(buffer))")
                    }
                    let violations = reply.violations + traps.calls.exchange(0, ordering: .relaxed)
                    send(.layoutDone(.init(sequence: call.sequence, status: reply.status, count: reply.count, capacity: buffer.capacity,
                                           violations: UInt32(clamping: violations), stringBytes: 0, insets: reply.insets,
                                           hiddenPositions: reply.hiddenPositions)))
                    continue
                }
                var served = renderers[Int(call.renderer)].serve(snapshot, environment: environment, interaction: interaction, into: region)
                served.raw.violations += traps.calls.exchange(0, ordering: .relaxed)
                send(.layoutDone(.init(sequence: call.sequence, status: served.raw.status, count: served.raw.count,
                                       capacity: served.raw.capacity, violations: UInt32(clamping: served.raw.violations),
                                       stringBytes: UInt32(served.stringBytes), insets: served.insets,
                                       hiddenPositions: served.hiddenPositions)))
            } catch {
                send(.callFailed(sequence: call.sequence, reason: error.description))
            }
        }
    }

    /// Runs an `abiFacts` script on the plugin's entry, probes the
    /// extension ids and looks the symbols up in the plugin's link scope,
    /// reporting what each call returned, with what was seen of the entry
    /// before the load; nothing is judged here. The probes come first: a
    /// script may deinit the plugin.
    private static func abiFacts(_ request: ValidationFrame.ABIFactsRequest, loaded: LoadedPlugin, served: [String]) -> RendererHostFrame {
        guard request.extensionIDs.count * served.count <= ValidationFrame.maxExtensionProbes,
              let library = try? RawLibrary.open(path: loaded.path), let function = try? library.entryFunction(), let entry = function.call() else {
            return .callFailed(sequence: request.sequence, reason: "the entry could not be reached again, or \(request.extensionIDs.count) ids × \(served.count) renderers is too many probes")
        }
        let count = min(entry.rendererCount() ?? 0, UInt32(ABILimits.maxRenderers))
        let descriptors = (0..<count).compactMap { entry.descriptor(at: $0) }
        let extensions = served.map { id in
            let descriptor = descriptors.first { $0.id == id }
            return request.extensionIDs.map { descriptor?.hasExtension(idBytes: $0) ?? false }
        }
        let symbols = ValidationFrame.SymbolFact.lookUp(request.symbols, in: library)
        let observations = ParentJudgment.ScriptLog.run(request.script, on: entry)
        let reply = ValidationFrame.abiFactsDone(.init(sequence: request.sequence, loadNanoseconds: loaded.nanoseconds,
                                                       abiVersion: entry.abiVersion.packed, entryStructSize: UInt32(clamping: entry.structSize),
                                                       observations: observations, extensions: extensions, symbols: symbols,
                                                       entry: loaded.entry?.withProvider(of: function))).frame
        guard reply.encoded.count <= RendererHostFrame.maxPayload + 4 else {
            return .callFailed(sequence: request.sequence, reason: "the facts of \(request.script.count) steps do not fit one frame")
        }
        return reply
    }

    /// The path checks (with the real owners, before the namespaces), the
    /// sandbox, then the load; the requested renderers in request order,
    /// the file loaded, how long the load took (dlopen, the entry, init()
    /// and the descriptors' validation) and, when asked, what was seen of
    /// the entry before it.
    private static func load(_ request: SandboxServe) throws(RegistryError) -> ([PluginRenderer], LoadedPlugin) {
        let resolved = try RendererRegistry.resolve(request.path)
        if let refusal = PathSecurity(allowInsecure: request.allowInsecurePath).refusal(for: resolved.path) { throw refusal }
        let layers = SandboxLayers.apply(.serve, cpuSeconds: request.cpuSeconds, addressSpaceBytes: RendererHostSettings.addressSpaceBytes,
                                         pluginFile: resolved.path)
        if SandboxLayers.required, let missing = layers.first(where: { !$0.active }) {
            throw .sandboxedLoadFailed(path: resolved.path, reasonCode: .sandboxIncomplete,
                                       reason: "HUD_REQUIRE_SANDBOX=1 but the \(missing.name) layer is \(missing.detail); the plugin was not loaded")
        }
        let start = SystemCalls.monotonicNanoseconds()
        let entry = request.observeLoading ? ValidationFrame.EntryFacts.observe(path: resolved.path) : nil
        let registry = RendererRegistry(security: PathSecurity(allowInsecure: true), isolation: .inProcess)
        try registry.load(path: resolved.path)
        let loaded = LoadedPlugin(path: resolved.path, nanoseconds: SystemCalls.monotonicNanoseconds() - start, entry: entry)
        let renderers = try request.renderers.map { id throws(RegistryError) in
            guard let renderer = registry.inProcessRenderer(id: id) else {
                throw registry.failures.first { $0.rendererID == id }
                    ?? .unknownRenderer(id: id, known: registry.renderers.map(\.id))
            }
            return renderer
        }
        return (renderers, loaded)
    }

    /// The file served, how long its load took, and what was seen of its
    /// entry before (`SandboxServe.observeLoading`).
    private struct LoadedPlugin {
        let path: String
        let nanoseconds: UInt64
        let entry: ValidationFrame.EntryFacts?
    }

    /// Actions called through the child's trap thunks (any thread).
    private final class TrapCounter: Sendable {
        let calls = Atomic<Int>(0)
    }

    private struct ServeError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }

        static func wrap<T, E: Error>(_ body: () throws(E) -> T) throws(ServeError) -> T {
            do { return try body() } catch { throw ServeError("\(error)") }
        }
    }
}
