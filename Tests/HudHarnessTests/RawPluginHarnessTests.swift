// SPDX-License-Identifier: MIT
import Testing
import HudModel
import HudPluginBoundary
import HudHarness
import HudSystem
import HudTestSupport

/// The raw calls `validate` makes into a plugin loaded in this process
/// (`dlopen` of a real fixture): guard zones around the node buffer, input
/// digests across the call, the action guard and the raw number checks:
/// what the conformance suite's checks read. (Calls speaking as a 1.0 host
/// are ABICompatibilityTests'.)
struct RawPluginHarnessTests {
    /// A validate fixture's one renderer, opened as the validator opens a
    /// file (dlopen, the entry, the host's handshake and init; the plugin
    /// stays initialized, so its descriptor stays valid).
    struct Opened {
        let descriptor: RawDescriptor
        let info: RendererInfo

        init(_ fixture: String) async throws {
            let path = try await ValidateFixture.path(fixture)
            let entry = try #require(try RawLibrary.open(path: path).entryFunction().call())
            let loaded = try entry.loader(origin: .file(path)).load()
            info = try #require(loaded.renderers.first?.info)
            descriptor = try #require(entry.descriptor(at: 0))
        }

        /// One call on the reference inputs, every slot's action counting into `taps`.
        func call(capacity: Int = 64, taps: ThreadLock<Int> = ThreadLock(0)) throws -> RawPluginHarness.Call {
            let tap: @Sendable () -> Void = { taps.withLock { $0 += 1 } }
            let complications = HudPhoneComplications(
                topLeft: .init(icon: "chevron.left", label: "Back", action: tap),
                topRight: .init(icon: "gear", action: tap),
                center: .init(icon: "record.circle", role: .accent, label: "Record",
                              longPressModes: [.init(id: "photo", icon: "camera", label: "Photo", action: tap)], action: tap))
            return RawPluginHarness.layout(descriptor, info: info, snapshot: try CComplications(complications),
                                           environment: HudEnvironment(device: .iphone16Pro, navigationTitle: "Home"), interaction: .idle,
                                           capacity: capacity)
        }
    }

    @Test func aCorrectRendererLeavesItsGuardZonesAndInputsAloneAndIsDecoded() async throws {
        let call = try await Opened("correct").call()
        #expect(call.status == 0)
        #expect(call.count > 0)
        #expect(call.nodeBytes.count == Int(call.count) * RawPluginHarness.nodeStride)
        #expect((call.guardDamageBefore, call.guardDamageAfter) == (0, 0))
        #expect(call.changedInputs.isEmpty)
        #expect(call.actionCalls == 0)
        #expect(call.layout?.nodes.count == Int(call.count))
        #expect(RawPluginHarness.nonFiniteFields(in: call).isEmpty)
    }

    /// A renderer writing every node it counts into a buffer of one: the
    /// zone after the buffer is damaged, the one before is not, and the
    /// over-capacity result is not decoded.
    @Test func aWriteBeyondTheBufferIsCountedInTheGuardZoneAfterIt() async throws {
        let renderer = try await Opened("overflow_buffer")
        let roomy = try renderer.call()
        let short = try renderer.call(capacity: 1)
        #expect(short.count == roomy.count)
        #expect(short.count > 1)
        #expect(short.guardDamageBefore == 0)
        #expect(short.guardDamageAfter > 0)
        #expect(short.decoded == nil)
        #expect((roomy.guardDamageBefore, roomy.guardDamageAfter) == (0, 0))
    }

    @Test func anInputTheRendererChangesIsNamed() async throws {
        #expect(try await Opened("modifies_input").call().changedInputs == ["complications"])
    }

    /// An action called from inside layout() is caught and counted, never run.
    @Test func anActionCalledDuringLayoutIsCountedAndNotRun() async throws {
        let taps = ThreadLock(0)
        let call = try await Opened("calls_action").call(taps: taps)
        #expect(call.actionCalls == 1)
        #expect(taps.withLock { $0 } == 0)
    }

    /// A NaN is named with its node and field before the decoder sees it.
    @Test func aNonFiniteNumberIsNamedWithItsNodeAndField() async throws {
        let call = try await Opened("nan_frame").call()
        let problems = RawPluginHarness.nonFiniteFields(in: call)
        #expect(problems.count == 1)
        #expect(problems.first?.hasSuffix(": frame.x is nan") == true)
        #expect(problems.first?.hasPrefix("node ") == true)
    }
}
