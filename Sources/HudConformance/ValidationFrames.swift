// SPDX-License-Identifier: MIT
package import HudRegistry
import HudPluginBoundary

// The renderer host frames only `validate` sends and answers, carried by
// the host library's channel as `RendererHostFrame.validation` (kinds 2–5,
// 14, 15, 20, 30): the library moves them, this suite and the child's
// serve loop (HudSandboxChild) give them meaning. Same rules as every
// frame: little-endian, every count bounded before it is read, a frame
// that breaks them ends the child as a protocol error. The child reports
// facts (statuses, counts, what the calls returned); the parent reads the
// buffers and judges.

package enum ValidationFrame: Sendable, Equatable {
    /// Parent → child (kind 2): one raw call into the guarded buffer the
    /// parent laid out in the shared region (`SharedLayoutArea.rawOffset`:
    /// guard, `capacity` nodes of `stride` bytes, guard); no growing, nothing
    /// exported. Answered by `layoutDone` with no string bytes; the parent
    /// reads the guard zones and the nodes itself (`validate`'s buffer
    /// checks). `environmentSize` is the environment `struct_size` the
    /// renderer sees.
    case rawLayout(RendererHostFrame.LayoutRequest, RawBuffer)
    /// Parent → child (kind 3): call the plugin's entry as `script` says
    /// (init, deinit, renderer_count, renderer_at, in that order) and probe
    /// `extensionIDs` (raw bytes) with every served renderer's
    /// get_extension. Answered by `abiFactsDone`; the parent applies the
    /// ABI rules (`validate`'s loading and extension checks).
    case abiFacts(ABIFactsRequest)
    /// Parent → child (kind 4): build a raw call's C inputs inside the
    /// shared region (`SharedLayoutArea.preparedInputsOffset`) and answer
    /// `inputsReady`; the renderer is called only on `callPrepared`. The
    /// buffer is the parent's, as for `rawLayout`. During that call any
    /// action call ends the child at once with
    /// `RendererHostFrame.actionTrapExitStatus`.
    case preparedLayout(RendererHostFrame.LayoutRequest, RawBuffer)
    /// Parent → child (kind 5): make the call prepared under `sequence`;
    /// answered by `layoutDone`.
    case callPrepared(sequence: UInt32)
    /// Child → parent (kind 14): what each step of an `abiFacts` script returned.
    case abiFactsDone(ABIFactsReply)
    /// Child → parent (kind 15): the inputs of the prepared call `sequence`
    /// take `bytes` bytes from `SharedLayoutArea.preparedInputsOffset`.
    case inputsReady(sequence: UInt32, bytes: UInt32)
    /// Parent → child (kind 20): the thread-safety check. The child decodes
    /// each input (packed in order in the complications and call areas),
    /// then starts `threads` threads at once; thread `t`'s call `c` lays out
    /// input `(t + c) % inputs.count` into concurrent slot
    /// `t × callsPerThread + c` (`SharedLayoutArea.concurrentSlot`,
    /// `capacity` nodes, no growing). After every thread has finished it
    /// exports each slot's strings into the slot and replies with
    /// `concurrentDone`; the parent decodes and validates every slot itself.
    case concurrentLayout(ConcurrentRequest)
    /// Child → parent (kind 30): one raw result per slot, in slot order.
    case concurrentDone(sequence: UInt32, slots: [RendererHostFrame.LayoutReply])

    package struct ConcurrentRequest: Sendable, Equatable {
        package var sequence: UInt32
        package var renderer: UInt32
        package var threads: UInt32
        package var callsPerThread: UInt32
        package var capacity: UInt32
        /// Each input's encoded complications and call bytes, packed in this order.
        package var inputs: [ConcurrentInput]

        /// Slots written: one per call.
        package var slots: Int { Int(threads) * Int(callsPerThread) }
        /// At most this many threads, calls per thread and inputs.
        package static let maxThreads = 16
        package static let maxInputs = 16
    }

    package struct ConcurrentInput: Sendable, Equatable {
        package var complicationsBytes: UInt32
        package var callBytes: UInt32
    }

    package struct RawBuffer: Sendable, Equatable {
        package var capacity: UInt32
        package var stride: UInt32
        package var guardBytes: UInt32
        package var environmentSize: UInt32
    }

    /// One call of an `abiFacts` script.
    package enum ABICall: UInt8, Sendable, Equatable {
        case initialize = 1
        case deinitialize = 2
        case rendererCount = 3
        /// `renderer_at(argument)`.
        case rendererAt = 4
    }

    package struct ABIStep: Sendable, Equatable {
        package var call: ABICall
        package var argument: UInt32

        package init(_ call: ABICall, _ argument: UInt32 = 0) {
            self.call = call
            self.argument = argument
        }
    }

    package struct ABIFactsRequest: Sendable, Equatable {
        package var sequence: UInt32
        package var script: [ABIStep]
        package var extensionIDs: [[UInt8]]
        /// Undefined symbols of the plugin file, to look up in its link scope.
        package var symbols: [[UInt8]] = []
    }

    /// One symbol looked up for an `abiFacts` request: whether the plugin's
    /// own link scope (it and its DT_NEEDED libraries) defines it, and if
    /// not, the file that defines it in the renderer host (empty: none).
    package struct SymbolFact: Sendable, Equatable {
        package var inScope: Bool
        package var provider: [UInt8]
    }

    /// What a renderer host saw of the plugin's entry before its own load
    /// initialized the plugin (`SandboxServe.observeLoading`, validate's
    /// renderer hosts only): the facts of `abi-entry-symbol` and of
    /// `abi-init`'s count rule, which a load does not check.
    package struct EntryFacts: Sendable, Equatable {
        /// The entry function's results, first and second call (0: NULL).
        package var first: UInt64
        package var again: UInt64
        /// The file holding the entry function's code (empty: none found),
        /// looked up when the reply is made (the mapping does not change).
        package var provider: [UInt8]
        /// renderer_count() before init() (`ABIObservation.missing`: not
        /// asked, for the handshake failed or the function is NULL).
        package var countBeforeInit: Int64
    }

    /// What one step returned, as raw values: `value` is init()'s status
    /// (`ABIObservation.missing` when the function pointer is NULL) or
    /// renderer_count()'s result; for renderer_at, `pointer` is the address
    /// returned (0 for NULL), `structSize` the descriptor's struct_size and
    /// `digest` a 64-bit FNV-1a of its bytes and strings
    /// (`RawDescriptor.fingerprint`): equal digests, equal contents.
    package struct ABIObservation: Sendable, Equatable {
        package var step: ABIStep
        package var value: Int64
        package var pointer: UInt64 = 0
        package var structSize: UInt32 = 0
        package var digest: UInt64 = 0

        package static let missing = Int64.min
    }

    package struct ABIFactsReply: Sendable, Equatable {
        package var sequence: UInt32
        /// The child's own measure of loading the plugin (dlopen, the entry
        /// symbol, init() and the descriptors' validation), in ns.
        package var loadNanoseconds: UInt64
        /// The entry's abi_version (packed) and struct_size.
        package var abiVersion: UInt32
        package var entryStructSize: UInt32
        /// One per script step, in order.
        package var observations: [ABIObservation]
        /// Per served renderer (index order), per extension id (request
        /// order): true when get_extension returned non-NULL.
        package var extensions: [[Bool]]
        /// One per requested symbol, in order.
        package var symbols: [SymbolFact]
        /// What the renderer host saw before its load (nil: it was not asked to look).
        package var entry: EntryFacts?

        package init(sequence: UInt32, loadNanoseconds: UInt64, abiVersion: UInt32, entryStructSize: UInt32,
                     observations: [ABIObservation], extensions: [[Bool]], symbols: [SymbolFact] = [], entry: EntryFacts? = nil) {
            (self.sequence, self.loadNanoseconds, self.abiVersion, self.entryStructSize) = (sequence, loadNanoseconds, abiVersion, entryStructSize)
            (self.observations, self.extensions, self.symbols, self.entry) = (observations, extensions, symbols, entry)
        }
    }

    /// The most script steps and extension probes one `abiFacts` exchange
    /// carries (the reply stays under `RendererHostFrame.maxPayload`).
    package static let maxABISteps = 1500
    package static let maxExtensionIDs = 1024
    package static let maxExtensionProbes = 8192
    /// Symbols one request looks up, and the bytes of their names together.
    package static let maxSymbols = 1024
    package static let maxSymbolBytes = 24 << 10

    /// This frame as the channel carries it.
    package var frame: RendererHostFrame {
        var w = WireWriter()
        let kind: UInt8
        switch self {
        case .rawLayout(let r, let b), .preparedLayout(let r, let b):
            if case .rawLayout = self { kind = 2 } else { kind = 4 }
            r.encode(into: &w)
            w.u32(b.capacity); w.u32(b.stride); w.u32(b.guardBytes); w.u32(b.environmentSize)
        case .abiFacts(let r):
            kind = 3
            w.u32(r.sequence)
            w.counted(r.script) { w, step in w.u8(step.call.rawValue); w.u32(step.argument) }
            w.counted(r.extensionIDs) { w, id in w.countedBytes(id) }
            w.counted(r.symbols) { w, name in w.countedBytes(name) }
        case .abiFactsDone(let r):
            kind = 14
            w.u32(r.sequence); w.u64(r.loadNanoseconds); w.u32(r.abiVersion); w.u32(r.entryStructSize)
            w.counted(r.observations) { w, o in
                w.u8(o.step.call.rawValue); w.u32(o.step.argument)
                w.u64(UInt64(bitPattern: o.value)); w.u64(o.pointer); w.u32(o.structSize); w.u64(o.digest)
            }
            w.counted(r.extensions) { w, probes in w.counted(probes) { w, found in w.bool(found) } }
            w.counted(r.symbols) { w, fact in w.bool(fact.inScope); w.countedBytes(fact.provider) }
            w.bool(r.entry != nil)
            if let e = r.entry { w.u64(e.first); w.u64(e.again); w.countedBytes(e.provider); w.u64(UInt64(bitPattern: e.countBeforeInit)) }
        case .callPrepared(let sequence):
            kind = 5
            w.u32(sequence)
        case .inputsReady(let sequence, let bytes):
            kind = 15
            w.u32(sequence); w.u32(bytes)
        case .concurrentLayout(let r):
            kind = 20
            w.u32(r.sequence); w.u32(r.renderer); w.u32(r.threads); w.u32(r.callsPerThread); w.u32(r.capacity)
            w.counted(r.inputs) { w, input in w.u32(input.complicationsBytes); w.u32(input.callBytes) }
        case .concurrentDone(let sequence, let slots):
            kind = 30
            w.u32(sequence)
            w.counted(slots) { w, slot in slot.encode(into: &w) }
        }
        return .validation(kind: kind, payload: w.bytes)
    }

    /// Decodes a `RendererHostFrame.validation` frame's kind and payload.
    package init(kind: UInt8, payload: [UInt8]) throws(SandboxProtocolError) {
        var r = WireReader(payload)
        do {
            switch kind {
            case 2, 4:
                let request = try RendererHostFrame.LayoutRequest(from: &r)
                let buffer = RawBuffer(capacity: try r.u32(), stride: try r.u32(), guardBytes: try r.u32(), environmentSize: try r.u32())
                self = kind == 2 ? .rawLayout(request, buffer) : .preparedLayout(request, buffer)
            case 5:
                self = .callPrepared(sequence: try r.u32())
            case 15:
                self = .inputsReady(sequence: try r.u32(), bytes: try r.u32())
            case 3:
                let sequence = try r.u32()
                let steps = try r.count(atMost: Self.maxABISteps, "script steps")
                var script: [ABIStep] = []
                for _ in 0..<steps { script.append(ABIStep(try Self.call(&r), try r.u32())) }
                let ids = try r.count(atMost: Self.maxExtensionIDs, "extension ids")
                var extensionIDs: [[UInt8]] = []
                for _ in 0..<ids { extensionIDs.append(try r.bytes(atMost: 4096, "bytes in an extension id")) }
                let names = try r.count(atMost: Self.maxSymbols, "symbols")
                var symbols: [[UInt8]] = []
                var total = 0
                for _ in 0..<names {
                    symbols.append(try r.bytes(atMost: Self.maxSymbolBytes - total, "bytes in a symbol name, with \(total) before it"))
                    total += symbols[symbols.count - 1].count
                }
                self = .abiFacts(ABIFactsRequest(sequence: sequence, script: script, extensionIDs: extensionIDs, symbols: symbols))
            case 14:
                let sequence = try r.u32(), load = try r.u64(), version = try r.u32(), size = try r.u32()
                let steps = try r.count(atMost: Self.maxABISteps, "observations")
                var observations: [ABIObservation] = []
                for _ in 0..<steps {
                    let step = ABIStep(try Self.call(&r), try r.u32())
                    observations.append(ABIObservation(step: step, value: Int64(bitPattern: try r.u64()), pointer: try r.u64(),
                                                       structSize: try r.u32(), digest: try r.u64()))
                }
                let renderers = try r.count(atMost: ABILimits.maxRenderers, "renderers")
                var extensions: [[Bool]] = []
                var probes = 0
                for _ in 0..<renderers {
                    let count = try r.count(atMost: Self.maxExtensionIDs, "extension probes")
                    probes += count
                    guard probes <= Self.maxExtensionProbes else { throw WireError("more than \(Self.maxExtensionProbes) extension probes") }
                    var found: [Bool] = []
                    for _ in 0..<count { found.append(try r.bool()) }
                    extensions.append(found)
                }
                let looked = try r.count(atMost: Self.maxSymbols, "symbols")
                var symbols: [SymbolFact] = []
                for _ in 0..<looked {
                    symbols.append(SymbolFact(inScope: try r.bool(), provider: try r.bytes(atMost: 4096, "bytes in a file name")))
                }
                let entry = try r.bool() ? EntryFacts(first: try r.u64(), again: try r.u64(), provider: try r.bytes(atMost: 4096, "bytes in a file name"),
                                                      countBeforeInit: Int64(bitPattern: try r.u64())) : nil
                self = .abiFactsDone(ABIFactsReply(sequence: sequence, loadNanoseconds: load, abiVersion: version, entryStructSize: size,
                                                   observations: observations, extensions: extensions, symbols: symbols, entry: entry))
            case 20:
                var request = ConcurrentRequest(sequence: try r.u32(), renderer: try r.u32(), threads: try r.u32(), callsPerThread: try r.u32(),
                                                capacity: try r.u32(), inputs: [])
                let count = Int(try r.u32())
                guard (1...ConcurrentRequest.maxThreads).contains(Int(request.threads)),
                      (1...ConcurrentRequest.maxThreads).contains(Int(request.callsPerThread)),
                      (1...ConcurrentRequest.maxInputs).contains(count),
                      SharedLayoutArea.concurrentFits(slots: request.slots, capacity: Int(request.capacity)) else {
                    throw WireError("a concurrent request of \(request.threads) threads × \(request.callsPerThread) calls, \(count) inputs and \(request.capacity) nodes a slot is out of bounds")
                }
                for _ in 0..<count { request.inputs.append(ConcurrentInput(complicationsBytes: try r.u32(), callBytes: try r.u32())) }
                self = .concurrentLayout(request)
            case 30:
                let sequence = try r.u32()
                let count = try r.count(atMost: SharedLayoutArea.maxConcurrentSlots, "slots")
                var slots: [RendererHostFrame.LayoutReply] = []
                for _ in 0..<count { slots.append(try RendererHostFrame.LayoutReply(from: &r)) }
                self = .concurrentDone(sequence: sequence, slots: slots)
            default:
                throw WireError("unknown validation frame kind \(kind)")
            }
            guard r.isAtEnd else { throw WireError("bytes left over in the frame") }
        } catch {
            throw SandboxProtocolError("a malformed frame: \(error)")
        }
    }

    /// The validation frame `frame` carries, nil for any other frame; a
    /// malformed one throws.
    package init?(_ frame: RendererHostFrame) throws(SandboxProtocolError) {
        guard case .validation(let kind, let payload) = frame else { return nil }
        try self.init(kind: kind, payload: payload)
    }

    private static func call(_ r: inout WireReader) throws(WireError) -> ABICall {
        let raw = try r.u8()
        guard let call = ABICall(rawValue: raw) else { throw WireError("unknown ABI call \(raw)") }
        return call
    }
}
