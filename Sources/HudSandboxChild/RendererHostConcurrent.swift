// SPDX-License-Identifier: MIT
import HudPluginBoundary
import HudRendererAPI
import HudConformance
import HudHarness
import HudModel
import HudRegistry
import HudSystem

// `validate`'s thread-safety check in a renderer host: the child's side of
// `ValidationFrame.concurrentLayout` (the parent's is
// `RendererHost.concurrentLayouts`). The child runs the calls and exports
// what they wrote; the parent decodes, validates and compares every slot.

extension RendererHostChild {
    /// Decodes the request's inputs from the shared region, runs the calls
    /// on `request.threads` threads started together, then exports each
    /// slot's strings; the reply carries each slot's raw result.
    /// `trap` is the action every decoded complication calls (a renderer
    /// calling one is counted, as in a layout call). Throws when the
    /// request cannot be served.
    static func serveConcurrent(_ request: ValidationFrame.ConcurrentRequest, renderer: DirectRenderer, region: SharedRegion,
                                trap: @escaping @Sendable () -> Void) throws(ConcurrentServeError) -> ValidationFrame {
        var inputs: [(snapshot: CComplications, environment: HudEnvironment, interaction: HudInteraction)] = []
        var complicationsAt = SharedLayoutArea.complicationsOffset, callAt = SharedLayoutArea.callOffset
        for (number, input) in request.inputs.enumerated() {
            let complicationsRoom = SharedLayoutArea.complicationsOffset + SharedLayoutArea.complicationsCapacity - complicationsAt
            let callRoom = SharedLayoutArea.callOffset + SharedLayoutArea.callCapacity - callAt
            guard let complicationsBytes = region.read(at: complicationsAt, count: Int(input.complicationsBytes), capacity: complicationsRoom),
                  let callBytes = region.read(at: callAt, count: Int(input.callBytes), capacity: callRoom) else {
                throw ConcurrentServeError("input \(number) does not fit the shared region's input areas")
            }
            complicationsAt += complicationsBytes.count
            callAt += callBytes.count
            do {
                let complications = try HudPhoneComplications(wire: complicationsBytes) { _ in trap }
                var wire = WireReader(callBytes)
                let environment = try HudEnvironment(wire: &wire)
                let interaction = try HudInteraction(wire: &wire)
                inputs.append((try CComplications(complications), environment, interaction))
            } catch {
                throw ConcurrentServeError("input \(number): \(error)")
            }
        }
        let threads = Int(request.threads), calls = Int(request.callsPerThread), capacity = Int(request.capacity)
        let replies = WorkerSlots<SharedRawReply>(count: request.slots)
        // Safe to share: the inputs and the renderer are only read while the
        // workers run (the renderer promised HUD_CAPABILITY_THREAD_SAFE;
        // that is what is being checked), each worker writes only its own
        // slots of the region, and this thread waits for all of them.
        let shared = UncheckedBox((renderer, inputs, region, replies))
        // The threads start together, so the calls overlap.
        ConcurrentWorkers.run(count: threads, together: true) { thread in
            let (renderer, inputs, region, replies) = shared.value
            let titles = TitleStorage()
            for call in 0..<calls {
                let input = inputs[(thread + call) % inputs.count]
                let slot = thread * calls + call
                replies[slot] = renderer.slotCall(input.snapshot, environment: input.environment, interaction: input.interaction,
                                                  slot: slot, capacity: capacity, titles: titles, in: region)
            }
        }
        var slots: [RendererHostFrame.LayoutReply] = []
        for slot in 0..<request.slots {
            guard let reply = replies[slot] else { throw ConcurrentServeError("slot \(slot) has no result") }
            var stringBytes: UInt32 = 0
            if reply.status == Int32(HUD_STATUS_OK), reply.violations == 0 {
                stringBytes = LayoutExport.exportSlot(slot, capacity: capacity, count: Int(reply.count), in: region).map { UInt32($0) }
                    ?? SharedLayoutArea.concurrentStringsOverflow
            }
            slots.append(.init(sequence: request.sequence, status: reply.status, count: reply.count, capacity: request.capacity,
                               violations: UInt32(clamping: reply.violations), stringBytes: stringBytes, insets: reply.insets,
                               hiddenPositions: reply.hiddenPositions))
        }
        return .concurrentDone(sequence: request.sequence, slots: slots)
    }

    struct ConcurrentServeError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
