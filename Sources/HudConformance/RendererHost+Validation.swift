// SPDX-License-Identifier: MIT
package import HudRegistry
import HudPluginBoundary

// The parent's side of `validate`'s renderer host calls (ValidationFrames.swift):
// raw and prepared calls into a guarded buffer this side lays out in the
// shared region, the thread-safety run and the ABI facts. They ride on the
// host library's renderer host (its start, deadlines, failures and
// restarts) but live here, with the suite: a Swift host never links them.

extension RendererHost {
    /// One raw call with renderer `index` into a guarded buffer this side
    /// lays out and fills in the shared region (`ValidationFrame.rawLayout`):
    /// the guard zones hold `guardPattern`, the nodes `fill`. After the
    /// reply, the guard zones and the nodes are read from the region here,
    /// so what `validate` judges from them is never the child's word.
    package func rawCall(renderer index: Int, _ snapshot: ComplicationsSnapshot, environment: HudEnvironment,
                         interaction: HudInteraction, buffer: ValidationFrame.RawBuffer, guardPattern: UInt8,
                         fill: UInt8) throws(RegistryError) -> RawHostCall {
        let (info, request, region) = try begin(index, snapshot, environment, interaction, buffer, guardPattern, fill)
        let reply = try exchange(ValidationFrame.rawLayout(request, buffer).frame, id: info.id, timeout: settings.layoutTimeoutSeconds, what: "layout deadline")
        let done = try layoutDone(reply, request, info.id, what: "raw call")
        return readBack(done, buffer, guardPattern: guardPattern, from: region)
    }

    /// `rawCall`, with the C inputs built by the child inside the shared
    /// region (`ValidationFrame.preparedLayout`): this side copies those
    /// bytes once the child says they are ready, then lets it call, and
    /// compares them after the reply itself. An action the renderer calls
    /// meanwhile ends the child at once: `.actionCalledDuringLayout`.
    package func preparedCall(renderer index: Int, _ snapshot: ComplicationsSnapshot, environment: HudEnvironment,
                              interaction: HudInteraction, buffer: ValidationFrame.RawBuffer, guardPattern: UInt8,
                              fill: UInt8) throws(RegistryError) -> PreparedHostCall {
        let (info, request, region) = try begin(index, snapshot, environment, interaction, buffer, guardPattern, fill)
        let capacity = SharedLayoutArea.preparedInputsCapacity
        let ready = try exchange(ValidationFrame.preparedLayout(request, buffer).frame, id: info.id, timeout: settings.layoutTimeoutSeconds,
                                 what: "layout deadline")
        guard case .inputsReady(let sequence, let bytes)? = try validation(ready, info.id), sequence == request.sequence, Int(bytes) <= capacity,
              let before = region.read(at: SharedLayoutArea.preparedInputsOffset, count: Int(bytes), capacity: capacity) else {
            _ = try layoutDone(ready, request, info.id, what: "prepared call")
            throw fail(info.id, .protocolError, "answered a prepared call with a layout before its inputs were ready, killed")
        }
        trapArmed = true
        defer { trapArmed = false }
        let reply = try exchange(ValidationFrame.callPrepared(sequence: sequence).frame, id: info.id, timeout: settings.layoutTimeoutSeconds, what: "layout deadline")
        let done = try layoutDone(reply, request, info.id, what: "prepared call")
        let after = region.read(at: SharedLayoutArea.preparedInputsOffset, count: Int(bytes), capacity: capacity) ?? []
        let changed = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        return PreparedHostCall(raw: readBack(done, buffer, guardPattern: guardPattern, from: region), inputBytes: Int(bytes),
                                changedInputBytes: changed.count, firstChangedInputByte: changed.first)
    }

    /// The start of a raw or prepared call: checks the buffer's numbers,
    /// writes the inputs, and lays the buffer out in the child's region:
    /// guard, nodes filled with `fill`, guard.
    private func begin(_ index: Int, _ snapshot: ComplicationsSnapshot, _ environment: HudEnvironment, _ interaction: HudInteraction,
                       _ buffer: ValidationFrame.RawBuffer, _ guardPattern: UInt8,
                       _ fill: UInt8) throws(RegistryError) -> (RendererInfo, RendererHostFrame.LayoutRequest, SharedRegion) {
        let info = renderers[index]
        let capacity = Int(buffer.capacity), stride = Int(buffer.stride), guardBytes = Int(buffer.guardBytes)
        guard SharedLayoutArea.rawCallFits(capacity: capacity, stride: stride, guardBytes: guardBytes) else {
            throw .invalidComplications(field: "buffer", reason: "a raw call of \(capacity) × \(stride) bytes with \(guardBytes)-byte guards does not fit the shared region")
        }
        let request = try prepareCall(renderer: index, snapshot, environment: environment, interaction: interaction)
        guard let region = sharedRegion else { throw hostFailure(info.id, .crashed, "did not start") }
        let base = SharedLayoutArea.rawOffset, body = capacity * stride
        _ = region.fill(guardPattern, at: base, count: guardBytes)
        _ = region.fill(fill, at: base + guardBytes, count: body)
        _ = region.fill(guardPattern, at: base + guardBytes + body, count: guardBytes)
        return (info, request, region)
    }

    /// The `layoutDone` answering `request`, or the child ended with a typed error.
    private func layoutDone(_ reply: RendererHostFrame, _ request: RendererHostFrame.LayoutRequest, _ id: String,
                            what: String) throws(RegistryError) -> RendererHostFrame.LayoutReply {
        guard case .layoutDone(let done) = reply, done.sequence == request.sequence else {
            if case .callFailed(_, let reason) = reply {
                throw fail(id, .protocolError, "could not make the \(what) (\(TextChecks.fromChild(reason))), stopped")
            }
            throw fail(id, .protocolError, "answered a \(what) with an unexpected frame, killed")
        }
        return done
    }

    /// What a raw call left in the guarded buffer, read here.
    private func readBack(_ done: RendererHostFrame.LayoutReply, _ buffer: ValidationFrame.RawBuffer, guardPattern: UInt8,
                          from region: SharedRegion) -> RawHostCall {
        let capacity = Int(buffer.capacity), stride = Int(buffer.stride), guardBytes = Int(buffer.guardBytes)
        let base = SharedLayoutArea.rawOffset, body = capacity * stride
        func damage(at offset: Int) -> Int {
            region.bytes(at: offset, count: guardBytes, differingFrom: guardPattern) ?? 0
        }
        let written = min(Int(done.count), capacity)
        return RawHostCall(status: done.status, count: done.count, capacity: capacity, stride: stride,
                           nodeBytes: region.read(at: base + guardBytes, count: written * stride, capacity: body) ?? [],
                           guardDamageBefore: damage(at: base), guardDamageAfter: damage(at: base + guardBytes + body),
                           actionCalls: Int(done.violations), contentInsets: done.insets, hiddenPositions: done.hiddenPositions)
    }

    /// `validate`'s thread-safety check (`ValidationFrame.concurrentLayout`):
    /// writes `inputs` into the shared region, has the child lay them out
    /// on `threads` threads at once (`callsPerThread` calls each, thread
    /// `t`'s call `c` with input `(t + c) % inputs.count`, each into its own
    /// slot of `capacity` nodes), then decodes and validates every slot here,
    /// in slot order. One deadline for the whole run: `layoutTimeoutSeconds`
    /// for each of a thread's calls (they run one after another).
    package func concurrentLayouts(renderer index: Int, _ inputs: [ConcurrentInput], threads: Int, callsPerThread: Int,
                                   capacity: Int) throws(RegistryError) -> [Result<HudLayout, RegistryError>] {
        let info = renderers[index]
        typealias Request = ValidationFrame.ConcurrentRequest
        guard (1...Request.maxThreads).contains(threads), (1...Request.maxThreads).contains(callsPerThread),
              (1...Request.maxInputs).contains(inputs.count), SharedLayoutArea.concurrentFits(slots: threads * callsPerThread, capacity: capacity) else {
            throw .invalidComplications(field: "concurrent", reason: "\(threads) threads × \(callsPerThread) calls of \(inputs.count) inputs and \(capacity) nodes do not fit a renderer host's concurrent area")
        }
        // The inputs overwrite the complications area: the next call writes the published set again.
        let (region, sequence) = try nextRequest(for: info.id, inputsOverwritten: true)
        var sizes: [ValidationFrame.ConcurrentInput] = []
        var callWriter = WireWriter()
        var complicationsAt = SharedLayoutArea.complicationsOffset, callAt = SharedLayoutArea.callOffset
        for input in inputs {
            let bytes = input.snapshot.wire
            callWriter.reset()
            input.environment.wireEncode(into: &callWriter)
            input.interaction.wireEncode(into: &callWriter)
            guard region.write(bytes, at: complicationsAt,
                                       capacity: SharedLayoutArea.complicationsOffset + SharedLayoutArea.complicationsCapacity - complicationsAt),
                  region.write(callWriter.bytes, at: callAt, capacity: SharedLayoutArea.callOffset + SharedLayoutArea.callCapacity - callAt) else {
                throw .invalidComplications(field: "concurrent", reason: "\(inputs.count) inputs do not fit a renderer host's input areas")
            }
            sizes.append(.init(complicationsBytes: UInt32(bytes.count), callBytes: UInt32(callWriter.bytes.count)))
            complicationsAt += bytes.count
            callAt += callWriter.bytes.count
        }
        let request = Request(sequence: sequence, renderer: UInt32(index), threads: UInt32(threads), callsPerThread: UInt32(callsPerThread),
                              capacity: UInt32(capacity), inputs: sizes)
        let reply = try exchange(ValidationFrame.concurrentLayout(request).frame, id: info.id, timeout: settings.layoutTimeoutSeconds * Double(callsPerThread),
                                 what: "concurrent layout deadline")
        guard case .concurrentDone(let done, let slots)? = try validation(reply, info.id), done == request.sequence, slots.count == request.slots else {
            if case .callFailed(_, let reason) = reply {
                throw fail(info.id, .protocolError, "could not make the concurrent calls (\(TextChecks.fromChild(reason))), stopped")
            }
            throw fail(info.id, .protocolError, "answered a concurrent layout request with an unexpected frame, killed")
        }
        let target = RemoteLayoutImport()
        return slots.enumerated().map { slot, done in
            let input = inputs[(slot / callsPerThread + slot % callsPerThread) % inputs.count]
            guard done.stringBytes != SharedLayoutArea.concurrentStringsOverflow else {
                return .failure(.invalidLayout(id: info.id, origin: info.origin.description, node: nil, field: "strings",
                                               reason: "need more than the \(SharedLayoutArea.concurrentStringBytes) bytes a concurrent slot holds"))
            }
            let raw = RawLayoutResult(status: done.status, count: done.count, capacity: UInt32(capacity), violations: Int(done.violations))
            let (nodes, strings) = SharedLayoutArea.concurrentSlot(slot, capacity: capacity)
            return Result { () throws(RegistryError) in
                try target.withFrame(raw, insets: done.insets, hiddenPositions: done.hiddenPositions, stringBytes: Int(done.stringBytes),
                                     from: region, nodesAt: nodes, stringsAt: strings,
                                     stringsCapacity: SharedLayoutArea.concurrentStringBytes, info: info,
                                     modes: input.snapshot.storage.modeCounts) { $0.decoded() }
            }
        }
    }

    /// Runs `script` on the plugin's entry in the child, probes
    /// `extensionIDs` with every served renderer and looks `symbols` up in
    /// the plugin's link scope (`ValidationFrame.abiFacts`); the raw results
    /// come back for the caller to judge. Starts the child if needed.
    package func abiFacts(script: [ValidationFrame.ABIStep], extensionIDs: [[UInt8]],
                          symbols: [[UInt8]] = []) throws(RegistryError) -> ValidationFrame.ABIFactsReply {
        let id = renderers.first?.id ?? "?"
        guard script.count <= ValidationFrame.maxABISteps, extensionIDs.count <= ValidationFrame.maxExtensionIDs,
              extensionIDs.allSatisfy({ $0.count <= 4096 }), symbols.count <= ValidationFrame.maxSymbols,
              symbols.reduce(0, { $0 + $1.count }) <= ValidationFrame.maxSymbolBytes else {
            throw .invalidComplications(field: "abiFacts", reason: "\(script.count) steps, \(extensionIDs.count) ids and \(symbols.count) symbols are more than one request carries")
        }
        let sequence = try nextRequest(for: id).sequence
        let request = ValidationFrame.ABIFactsRequest(sequence: sequence, script: script, extensionIDs: extensionIDs, symbols: symbols)
        let reply = try exchange(ValidationFrame.abiFacts(request).frame, id: id, timeout: settings.layoutTimeoutSeconds, what: "ABI facts deadline")
        if case .abiFactsDone(let facts)? = try validation(reply, id), facts.sequence == sequence, facts.observations.count == script.count,
           zip(facts.observations, script).allSatisfy({ $0.step == $1 }), facts.extensions.count == renderers.count,
           facts.extensions.allSatisfy({ $0.count == extensionIDs.count }), facts.symbols.count == symbols.count {
            return facts
        }
        if case .callFailed(_, let reason) = reply {
            throw fail(id, .protocolError, "could not report the ABI facts (\(TextChecks.fromChild(reason))), stopped")
        }
        throw fail(id, .protocolError, "answered an ABI facts request with an unexpected or mismatched frame, killed")
    }

    /// The validation frame `reply` carries, nil for any other frame; a
    /// malformed one ends the child as a protocol error.
    private func validation(_ reply: RendererHostFrame, _ id: String) throws(RegistryError) -> ValidationFrame? {
        do {
            return try ValidationFrame(reply)
        } catch {
            throw fail(id, .protocolError, "broke the channel's rules (\(error)), killed")
        }
    }
}

/// What one prepared call did: the raw call, and how many of the bytes of
/// its C inputs in the shared region differ after the call from the copy
/// the parent took before it.
package struct PreparedHostCall: Sendable {
    package var raw: RawHostCall
    package var inputBytes: Int
    package var changedInputBytes: Int
    package var firstChangedInputByte: Int?
}

/// What one raw call did, read by the parent from the shared region: the
/// status and count the child reported, the bytes of the nodes written
/// (min(count, capacity) × stride) and the guard bytes changed on each side.
package struct RawHostCall: Sendable {
    package var status: Int32
    package var count: UInt32
    package var capacity: Int
    package var stride: Int
    package var nodeBytes: [UInt8]
    package var guardDamageBefore: Int
    package var guardDamageAfter: Int
    package var actionCalls: Int
    /// Points the chrome takes from the content area, and the positions
    /// reported hidden, as the call returned them.
    package var contentInsets: HudInsets
    package var hiddenPositions: UInt32

    /// The same content insets (bit for bit) and hidden positions as `other`.
    func sameHeader(as other: RawHostCall) -> Bool {
        func bits(_ insets: HudInsets) -> [UInt64] { [insets.top, insets.left, insets.bottom, insets.right].map(\.bitPattern) }
        return bits(contentInsets) == bits(other.contentInsets) && hiddenPositions == other.hiddenPositions
    }
}

extension RendererHost {
    /// One input of a concurrent run.
    package struct ConcurrentInput {
        package var snapshot: ComplicationsSnapshot
        package var environment: HudEnvironment
        package var interaction: HudInteraction

        package init(_ snapshot: ComplicationsSnapshot, environment: HudEnvironment, interaction: HudInteraction) {
            self.snapshot = snapshot
            self.environment = environment
            self.interaction = interaction
        }
    }
}
