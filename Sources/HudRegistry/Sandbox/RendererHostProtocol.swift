// SPDX-License-Identifier: MIT
import HudUnsafe

// The frames between the host and an out-of-process renderer host
// (`hudsandbox serve`), on a socketpair (descriptor 3 in the child). Each
// frame is a 32-bit little-endian length and that many payload bytes (at
// most `maxPayload`); the payload's first byte says what it is. The large
// data never travels here: inputs and node buffers are in the shared region
// (`SharedLayoutArea`). A frame that breaks these rules ends the child as a
// protocol error naming the plugin.
//
// The child sends facts, never verdicts: what its descriptors say (the
// parent compares them with what `list` showed), the raw status, count and
// capacity of a call, the actions a renderer tried to call, and where the
// nodes' strings end. Every judgment is the parent's (`RawLayoutResult`,
// `RemoteLayoutImport`).

package enum RendererHostFrame: Sendable, Equatable {
    /// Parent → child: lay out with renderer `renderer` (an index into the
    /// ids the child was started with). The complications in the shared
    /// region are `generation`; when `complicationsBytes` is non-zero they
    /// were just rewritten and the child decodes them again.
    case layout(LayoutRequest)
    /// Parent → child: one raw call into the guarded buffer the parent
    /// laid out in the shared region (`SharedLayoutArea.rawOffset`: guard,
    /// `capacity` nodes of `stride` bytes, guard); no growing, nothing
    /// exported. Answered by `layoutDone` with no string bytes; the parent
    /// reads the guard zones and the nodes itself (`validate`'s buffer
    /// checks). `environmentSize` is the environment `struct_size` the
    /// renderer sees.
    case rawLayout(LayoutRequest, RawBuffer)
    /// Parent → child: call the plugin's entry as `script` says (init,
    /// deinit, renderer_count, renderer_at, in that order) and probe
    /// `extensionIDs` (raw bytes) with every served renderer's
    /// get_extension. Answered by `abiFactsDone`; the parent applies the
    /// ABI rules (`validate`'s loading and extension checks).
    case abiFacts(ABIFactsRequest)
    /// Parent → child: build a raw call's C inputs inside the shared region
    /// (`SharedLayoutArea.preparedInputsOffset`) and answer `inputsReady`;
    /// the renderer is called only on `callPrepared`. The buffer is the
    /// parent's, as for `rawLayout`. During that call any action call ends
    /// the child at once with `actionTrapExitStatus`.
    case preparedLayout(LayoutRequest, RawBuffer)
    /// Parent → child: make the call prepared under `sequence`; answered by
    /// `layoutDone`.
    case callPrepared(sequence: UInt32)
    /// Child → parent, once, after loading: each requested renderer's
    /// descriptor as a record (`RendererInfo.recordJSON`), in request order.
    case ready(records: [String])
    /// Child → parent, once, instead of `ready`: the plugin could not be used.
    case loadFailed(code: String, reason: String)
    /// Child → parent: the raw result of one call.
    case layoutDone(LayoutReply)
    /// Child → parent: what each step of an `abiFacts` script returned.
    case abiFactsDone(ABIFactsReply)
    /// Child → parent: the inputs of the prepared call `sequence` take
    /// `bytes` bytes from `SharedLayoutArea.preparedInputsOffset`.
    case inputsReady(sequence: UInt32, bytes: UInt32)
    /// Child → parent: the inputs of one call could not be rebuilt.
    case callFailed(sequence: UInt32, reason: String)
    /// Parent → child (kind 20): `validate`'s thread-safety check. The
    /// child decodes each input (packed in order in the complications and
    /// call areas), then starts `threads` threads at once; thread `t`'s
    /// call `c` lays out input `(t + c) % inputs.count` into concurrent
    /// slot `t × callsPerThread + c` (`SharedLayoutArea.concurrentSlot`,
    /// `capacity` nodes, no growing). After every thread has finished it
    /// exports each slot's strings into the slot and replies with
    /// `concurrentDone`; the parent decodes and validates every slot itself.
    case concurrentLayout(ConcurrentRequest)
    /// Child → parent (kind 30): one raw result per slot, in slot order.
    case concurrentDone(sequence: UInt32, slots: [LayoutReply])

    package struct LayoutRequest: Sendable, Equatable {
        package var sequence: UInt32
        package var renderer: UInt32
        package var generation: UInt64
        package var complicationsBytes: UInt32
        package var callBytes: UInt32
    }

    package struct ConcurrentRequest: Sendable, Equatable {
        package var sequence: UInt32
        package var renderer: UInt32
        package var threads: UInt32
        package var callsPerThread: UInt32
        package var capacity: UInt32
        /// Each input's encoded complications and call bytes, packed in this order.
        package var inputs: [ConcurrentInput]

        package init(sequence: UInt32, renderer: UInt32, threads: UInt32, callsPerThread: UInt32, capacity: UInt32, inputs: [ConcurrentInput]) {
            (self.sequence, self.renderer, self.threads, self.callsPerThread, self.capacity, self.inputs) =
                (sequence, renderer, threads, callsPerThread, capacity, inputs)
        }

        /// Slots written: one per call.
        package var slots: Int { Int(threads) * Int(callsPerThread) }
        /// At most this many threads, calls per thread and inputs.
        package static let maxThreads = 16
        package static let maxInputs = 16
    }

    package struct ConcurrentInput: Sendable, Equatable {
        package var complicationsBytes: UInt32
        package var callBytes: UInt32

        package init(complicationsBytes: UInt32, callBytes: UInt32) {
            self.complicationsBytes = complicationsBytes
            self.callBytes = callBytes
        }
    }

    package struct RawBuffer: Sendable, Equatable {
        package var capacity: UInt32
        package var stride: UInt32
        package var guardBytes: UInt32
        package var environmentSize: UInt32

        package init(capacity: UInt32, stride: UInt32, guardBytes: UInt32, environmentSize: UInt32) {
            self.capacity = capacity
            self.stride = stride
            self.guardBytes = guardBytes
            self.environmentSize = environmentSize
        }
    }

    package struct LayoutReply: Sendable, Equatable {
        package var sequence: UInt32
        package var status: Int32
        package var count: UInt32
        package var capacity: UInt32
        package var violations: UInt32
        package var stringBytes: UInt32
        package var insets: HudInsets
        package var hiddenPositions: UInt32

        func encode(into w: inout WireWriter) {
            w.u32(sequence); w.i32(status); w.u32(count); w.u32(capacity); w.u32(violations); w.u32(stringBytes)
            w.f64(insets.top); w.f64(insets.left); w.f64(insets.bottom); w.f64(insets.right)
            w.u32(hiddenPositions)
        }

        package init(sequence: UInt32, status: Int32, count: UInt32, capacity: UInt32, violations: UInt32, stringBytes: UInt32,
                     insets: HudInsets, hiddenPositions: UInt32) {
            (self.sequence, self.status, self.count, self.capacity, self.violations, self.stringBytes, self.insets, self.hiddenPositions) =
                (sequence, status, count, capacity, violations, stringBytes, insets, hiddenPositions)
        }

        init(from r: inout WireReader) throws(WireError) {
            self.init(sequence: try r.u32(), status: try r.i32(), count: try r.u32(), capacity: try r.u32(),
                      violations: try r.u32(), stringBytes: try r.u32(),
                      insets: HudInsets(top: try r.f64(), left: try r.f64(), bottom: try r.f64(), right: try r.f64()),
                      hiddenPositions: try r.u32())
        }
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

        package init(step: ABIStep, value: Int64, pointer: UInt64 = 0, structSize: UInt32 = 0, digest: UInt64 = 0) {
            (self.step, self.value, self.pointer, self.structSize, self.digest) = (step, value, pointer, structSize, digest)
        }

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

        package init(sequence: UInt32, loadNanoseconds: UInt64, abiVersion: UInt32, entryStructSize: UInt32,
                     observations: [ABIObservation], extensions: [[Bool]]) {
            (self.sequence, self.loadNanoseconds, self.abiVersion, self.entryStructSize) = (sequence, loadNanoseconds, abiVersion, entryStructSize)
            (self.observations, self.extensions) = (observations, extensions)
        }
    }

    /// The most script steps and extension probes one `abiFacts` exchange
    /// carries (the reply stays under `maxPayload`).
    package static let maxABISteps = 1500
    package static let maxExtensionIDs = 1024
    package static let maxExtensionProbes = 8192

    /// The exit status of a renderer host whose renderer called an action
    /// during a prepared call (`ActionThunk.withFatalCalls`).
    package static let actionTrapExitStatus: Int32 = 113

    /// The largest payload either side accepts (a `concurrentDone` of
    /// `SharedLayoutArea.maxConcurrentSlots` replies is about 4 KiB).
    package static let maxPayload = 64 << 10

    /// Length prefix and payload.
    package var encoded: [UInt8] {
        var w = WireWriter()
        switch self {
        case .layout(let r):
            w.u8(1)
            w.u32(r.sequence); w.u32(r.renderer); w.u64(r.generation); w.u32(r.complicationsBytes); w.u32(r.callBytes)
        case .rawLayout(let r, let b), .preparedLayout(let r, let b):
            if case .rawLayout = self { w.u8(2) } else { w.u8(4) }
            w.u32(r.sequence); w.u32(r.renderer); w.u64(r.generation); w.u32(r.complicationsBytes); w.u32(r.callBytes)
            w.u32(b.capacity); w.u32(b.stride); w.u32(b.guardBytes); w.u32(b.environmentSize)
        case .abiFacts(let r):
            w.u8(3)
            w.u32(r.sequence)
            w.counted(r.script) { w, step in w.u8(step.call.rawValue); w.u32(step.argument) }
            w.counted(r.extensionIDs) { w, id in w.counted(id) { w, byte in w.u8(byte) } }
        case .abiFactsDone(let r):
            w.u8(14)
            w.u32(r.sequence); w.u64(r.loadNanoseconds); w.u32(r.abiVersion); w.u32(r.entryStructSize)
            w.counted(r.observations) { w, o in
                w.u8(o.step.call.rawValue); w.u32(o.step.argument)
                w.u64(UInt64(bitPattern: o.value)); w.u64(o.pointer); w.u32(o.structSize); w.u64(o.digest)
            }
            w.counted(r.extensions) { w, probes in w.counted(probes) { w, found in w.bool(found) } }
        case .callPrepared(let sequence):
            w.u8(5)
            w.u32(sequence)
        case .inputsReady(let sequence, let bytes):
            w.u8(15)
            w.u32(sequence); w.u32(bytes)
        case .ready(let records):
            w.u8(10)
            w.u32(UInt32(records.count))
            for record in records { w.string(record) }
        case .loadFailed(let code, let reason):
            w.u8(11)
            w.string(code); w.string(String(reason.utf8.prefix(8192)) ?? reason)
        case .layoutDone(let r):
            w.u8(12)
            r.encode(into: &w)
        case .callFailed(let sequence, let reason):
            w.u8(13)
            w.u32(sequence); w.string(String(reason.utf8.prefix(8192)) ?? reason)
        case .concurrentLayout(let r):
            w.u8(20)
            w.u32(r.sequence); w.u32(r.renderer); w.u32(r.threads); w.u32(r.callsPerThread); w.u32(r.capacity)
            w.u32(UInt32(r.inputs.count))
            for input in r.inputs { w.u32(input.complicationsBytes); w.u32(input.callBytes) }
        case .concurrentDone(let sequence, let slots):
            w.u8(30)
            w.u32(sequence); w.u32(UInt32(slots.count))
            for slot in slots { slot.encode(into: &w) }
        }
        return FrameReader.frame(w.bytes)
    }

    /// Decodes one payload (without its length prefix).
    package init(payload: [UInt8]) throws(SandboxProtocolError) {
        var r = WireReader(payload)
        do {
            switch try r.u8() {
            case 1:
                self = .layout(LayoutRequest(sequence: try r.u32(), renderer: try r.u32(), generation: try r.u64(),
                                             complicationsBytes: try r.u32(), callBytes: try r.u32()))
            case 2, 4:
                let request = LayoutRequest(sequence: try r.u32(), renderer: try r.u32(), generation: try r.u64(),
                                            complicationsBytes: try r.u32(), callBytes: try r.u32())
                let buffer = RawBuffer(capacity: try r.u32(), stride: try r.u32(), guardBytes: try r.u32(), environmentSize: try r.u32())
                self = payload[0] == 2 ? .rawLayout(request, buffer) : .preparedLayout(request, buffer)
            case 5:
                self = .callPrepared(sequence: try r.u32())
            case 15:
                self = .inputsReady(sequence: try r.u32(), bytes: try r.u32())
            case 3:
                let sequence = try r.u32()
                let steps = try Self.count(&r, atMost: Self.maxABISteps, "script steps")
                var script: [ABIStep] = []
                for _ in 0..<steps { script.append(ABIStep(try Self.call(&r), try r.u32())) }
                let ids = try Self.count(&r, atMost: Self.maxExtensionIDs, "extension ids")
                var extensionIDs: [[UInt8]] = []
                for _ in 0..<ids {
                    let length = try Self.count(&r, atMost: 4096, "bytes in an extension id")
                    var id: [UInt8] = []
                    for _ in 0..<length { id.append(try r.u8()) }
                    extensionIDs.append(id)
                }
                self = .abiFacts(ABIFactsRequest(sequence: sequence, script: script, extensionIDs: extensionIDs))
            case 14:
                let sequence = try r.u32(), load = try r.u64(), version = try r.u32(), size = try r.u32()
                let steps = try Self.count(&r, atMost: Self.maxABISteps, "observations")
                var observations: [ABIObservation] = []
                for _ in 0..<steps {
                    let step = ABIStep(try Self.call(&r), try r.u32())
                    observations.append(ABIObservation(step: step, value: Int64(bitPattern: try r.u64()), pointer: try r.u64(),
                                                       structSize: try r.u32(), digest: try r.u64()))
                }
                let renderers = try Self.count(&r, atMost: ABILimits.maxRenderers, "renderers")
                var extensions: [[Bool]] = []
                var probes = 0
                for _ in 0..<renderers {
                    let count = try Self.count(&r, atMost: Self.maxExtensionIDs, "extension probes")
                    probes += count
                    guard probes <= Self.maxExtensionProbes else { throw WireError("more than \(Self.maxExtensionProbes) extension probes") }
                    var found: [Bool] = []
                    for _ in 0..<count { found.append(try r.bool()) }
                    extensions.append(found)
                }
                self = .abiFactsDone(ABIFactsReply(sequence: sequence, loadNanoseconds: load, abiVersion: version, entryStructSize: size,
                                                   observations: observations, extensions: extensions))
            case 10:
                let count = Int(try r.u32())
                guard count <= ABILimits.maxRenderers else { throw WireError("\(count) records; at most \(ABILimits.maxRenderers)") }
                var records: [String] = []
                for _ in 0..<count { records.append(try r.string()) }
                self = .ready(records: records)
            case 11:
                self = .loadFailed(code: try r.string(), reason: try r.string())
            case 12:
                self = .layoutDone(try LayoutReply(from: &r))
            case 13:
                self = .callFailed(sequence: try r.u32(), reason: try r.string())
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
                let count = Int(try r.u32())
                guard count <= SharedLayoutArea.maxConcurrentSlots else { throw WireError("\(count) slots; at most \(SharedLayoutArea.maxConcurrentSlots)") }
                var slots: [LayoutReply] = []
                for _ in 0..<count { slots.append(try LayoutReply(from: &r)) }
                self = .concurrentDone(sequence: sequence, slots: slots)
            case let kind:
                throw WireError("unknown frame kind \(kind)")
            }
            guard r.isAtEnd else { throw WireError("bytes left over in the frame") }
        } catch {
            throw SandboxProtocolError("a malformed frame: \(error)")
        }
    }

    /// A 32-bit count, refused above `limit` before anything is read for it.
    private static func count(_ r: inout WireReader, atMost limit: Int, _ what: String) throws(WireError) -> Int {
        let count = Int(try r.u32())
        guard count <= limit else { throw WireError("\(count) \(what); at most \(limit)") }
        return count
    }

    private static func call(_ r: inout WireReader) throws(WireError) -> ABICall {
        let raw = try r.u8()
        guard let call = ABICall(rawValue: raw) else { throw WireError("unknown ABI call \(raw)") }
        return call
    }
}

extension WireWriter {
    /// A 32-bit count, then each item.
    fileprivate mutating func counted<Items: Collection>(_ items: Items, _ each: (inout WireWriter, Items.Element) -> Void) {
        u32(UInt32(items.count))
        for item in items { each(&self, item) }
    }
}

/// Reads whole frames from a stream (a socket or a pipe): linear in the
/// bytes received (consumed bytes are dropped in blocks, not per frame),
/// every length checked against `maxPayload` before its payload is
/// buffered. Used for the renderer host's channel and every other sandboxed
/// child's result channel.
package struct FrameReader {
    private var pending: [UInt8] = []
    private var start = 0
    package let maxPayload: Int

    package init(maxPayload: Int = RendererHostFrame.maxPayload) { self.maxPayload = maxPayload }

    package enum Next {
        case frame([UInt8])
        /// More bytes are needed.
        case incomplete
        case tooLarge(Int)
    }

    package mutating func append(_ bytes: [UInt8]) {
        if start > 65536 {
            pending.removeSubrange(..<start)
            start = 0
        }
        pending += bytes
    }

    /// The next complete payload, if one has arrived.
    package mutating func next() -> Next {
        guard pending.count - start >= 4 else { return .incomplete }
        let length = Int(pending[start]) | Int(pending[start + 1]) << 8 | Int(pending[start + 2]) << 16 | Int(pending[start + 3]) << 24
        guard length <= maxPayload else { return .tooLarge(length) }
        guard pending.count - start >= 4 + length else { return .incomplete }
        let payload = Array(pending[start + 4..<start + 4 + length])
        start += 4 + length
        return .frame(payload)
    }

    /// Encodes `payload` as one frame: its length (32-bit little-endian), then the bytes.
    package static func frame(_ payload: [UInt8]) -> [UInt8] {
        let count = UInt32(payload.count)
        return [UInt8(count & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 24)] + payload
    }
}
