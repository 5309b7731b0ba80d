// SPDX-License-Identifier: MIT
package import HudModel
import CFFI
import CHudHot
import Glibc
package import HudRendererAPI
import Synchronization
import HudSystem

/// A Swift closure exposed as a plain C `void (*)(void)`: a libffi closure
/// whose user data is this object. The same pointer goes into the C view of
/// the complications (what plugins see) and is what the host's own tap
/// dispatch calls.
///
/// Lifetime: a thunk is *live* from creation until `retire()` (called when
/// the snapshot that owns it is released). A retired thunk's code stays
/// mapped in a bounded quarantine (the most recent `quarantineLimit`
/// retirements), so a late call through its pointer is caught, counted in
/// `retiredCallCount` and ignored instead of jumping into freed memory.
/// libffi's closure pages are invisible to valgrind and ASan, hence the
/// counters.
///
/// All libffi calls in the package live in this file.
@safe package final class ActionThunk {
    /// The C function pointer. Valid while live, and while quarantined.
    package let function: hud_action_fn
    private let closure: UnsafeMutableRawPointer
    private let box: Unmanaged<Box>

    /// Boxed state the trampoline reads through the closure's user data.
    /// `@unchecked Sendable`: `action` is read and written only on `owner`,
    /// the thread that made the thunk (the shell's; the ABI tags actions
    /// [main-thread]) — the trampoline refuses calls from any other thread
    /// before touching it. `retired` is atomic so any thread may test it.
    private final class Box: @unchecked Sendable {
        var action: (() -> Void)?
        let retired = Atomic<Bool>(false)
        let owner = pthread_self()
        init(_ action: @escaping () -> Void) { self.action = action }
    }

    package init(_ action: @escaping () -> Void) throws(RegistryError) {
        var code: UnsafeMutableRawPointer?
        guard let closure = unsafe ffi_closure_alloc(MemoryLayout<ffi_closure>.size, &code), let code = unsafe code else {
            throw .thunkAllocationFailed(reason: "ffi_closure_alloc returned NULL")
        }
        let box = unsafe Unmanaged.passRetained(Box(action))
        let status = unsafe ffi_prep_closure_loc(
            closure.assumingMemoryBound(to: ffi_closure.self), ActionThunk.voidCIF.pointer,
            ActionThunk.trampoline, box.toOpaque(), code)
        guard status == FFI_OK else {
            unsafe ffi_closure_free(closure)
            unsafe box.release()
            throw .thunkAllocationFailed(reason: "ffi_prep_closure_loc returned \(status.rawValue)")
        }
        unsafe self.closure = unsafe closure
        unsafe self.box = unsafe box
        self.function = unsafe unsafeBitCast(code, to: hud_action_fn.self)
        ActionThunk.counters.live.add(1, ordering: .relaxed)
        ActionThunk.counters.created.add(1, ordering: .relaxed)
    }

    /// Points a live thunk at a new closure (same C pointer). Used when a
    /// republish has equal content: plugins keep the pointers they have.
    package func rebind(_ action: @escaping () -> Void) {
        let value = unsafe box.takeUnretainedValue()
        guard !value.retired.load(ordering: .acquiring) else { return }
        value.action = action
    }

    /// Ends the thunk's life: its action will never run again. The closure
    /// memory moves to the quarantine; the oldest quarantined one is freed.
    package func retire() {
        let value = unsafe box.takeUnretainedValue()
        guard !value.retired.exchange(true, ordering: .acquiringAndReleasing) else { return }
        value.action = nil
        ActionThunk.counters.live.subtract(1, ordering: .relaxed)
        ActionThunk.quarantine.withLock { unsafe $0.push(Retired(closure: closure, box: box)) }
    }

    deinit { retire() }

    /// Calls the thunk exactly as a plugin would: through its C pointer.
    package func callThroughPointer() { function() }

    // MARK: - Counters

    /// Thunks alive now (created and not yet retired).
    package static var liveCount: Int { counters.live.load(ordering: .relaxed) }
    /// Thunks created since the process started.
    package static var createdCount: Int { counters.created.load(ordering: .relaxed) }
    /// Calls that arrived through a retired thunk (caught, not run).
    package static var retiredCallCount: Int { counters.retiredCalls.load(ordering: .relaxed) }
    /// Calls made while a renderer's layout was on the stack (not run).
    package static var callsDuringLayoutCount: Int { counters.duringLayout.load(ordering: .relaxed) }
    /// Calls from a thread other than the one that made the thunk (not run).
    package static var otherThreadCallCount: Int { counters.otherThread.load(ordering: .relaxed) }
    /// Retired thunks whose code is still mapped to catch late calls.
    package static var quarantinedCount: Int { quarantine.withLock { $0.entries.count } }

    /// How many retired thunks stay mapped.
    package static let quarantineLimit = 4096

    /// Marks the current thread as inside a renderer's layout call for the
    /// duration of `body`: an action invoked meanwhile on this thread is a
    /// contract violation, not run, counted, and returned as `violations`.
    @inline(__always)
    package static func duringLayout<T>(_ body: () -> T) -> (result: T, violations: Int) {
        let guardState = unsafe LayoutGuard.current()
        let before = unsafe guardState.pointee.violations
        unsafe guardState.pointee.depth += 1
        let result = body()
        unsafe guardState.pointee.depth -= 1
        return unsafe (result, guardState.pointee.violations - before)
    }

    /// Runs `body` with every call through a live thunk, on any thread,
    /// fatal: the process ends at once (`_exit`, i.e. exit_group) with
    /// `exitStatus`, so the parent of a sandboxed renderer host observes
    /// the violation as the child's exit status, whatever the plugin does
    /// afterwards. For `validate`'s prepared calls in the renderer host
    /// child only; the normal path keeps counting.
    package static func withFatalCalls<T>(exitStatus: Int32, _ body: () -> T) -> T {
        fatalExitStatus.store(exitStatus, ordering: .releasing)
        defer { fatalExitStatus.store(0, ordering: .releasing) }
        return body()
    }

    // MARK: - Private

    /// Non-zero while `withFatalCalls` runs: the status a thunk call exits with.
    private static let fatalExitStatus = Atomic<Int32>(0)

    private struct Counters: ~Copyable {
        let live = Atomic<Int>(0)
        let created = Atomic<Int>(0)
        let retiredCalls = Atomic<Int>(0)
        let duringLayout = Atomic<Int>(0)
        let otherThread = Atomic<Int>(0)
    }
    private static let counters = Counters()

    /// How many layout calls are on *this thread's* stack, and how many
    /// actions were attempted under them. Per thread, so a thread-safe
    /// renderer laying out on a worker never blocks an action the shell's
    /// thread runs meanwhile. The counters are a C11 `_Thread_local`
    /// (`CHudHot`): zero on every new thread, nothing to make or free, so
    /// arming and disarming the guard is a thread-pointer-relative address
    /// and two plain stores (it was `pthread_getspecific` behind a lazily
    /// created key: a `swift_once` check and a libc call per layout).
    private enum LayoutGuard {
        @inline(__always)
        static func current() -> UnsafeMutablePointer<hud_hot_layout_guard_t> {
            unsafe hud_hot_layout_guard()
        }
    }

    @safe private struct Retired: @unchecked Sendable {
        // Sendable: only touched under the quarantine lock.
        let closure: UnsafeMutableRawPointer
        let box: Unmanaged<Box>
        func free() {
            unsafe ffi_closure_free(closure)
            unsafe box.release()
        }
    }
    /// A fixed-size ring of retired thunks: pushing past the limit frees
    /// the oldest (O(1), no shifting).
    private struct Quarantine: ~Copyable {
        var entries: [Retired] = []
        var oldest = 0

        mutating func push(_ retired: Retired) {
            if entries.count < ActionThunk.quarantineLimit {
                entries.append(retired)
                return
            }
            entries[oldest].free()
            entries[oldest] = retired
            oldest = (oldest + 1) % entries.count
        }
    }
    /// ThreadLock, not Mutex: parallel layouts retire thunks at once, and a
    /// contended Mutex is invisible to ThreadSanitizer (ThreadLock's comment).
    private static let quarantine = ThreadLock<Quarantine>(Quarantine())

    /// One call interface for every `void (*)(void)`; prepared once and never
    /// mutated, so sharing it between closures and threads is safe.
    @safe private final class CIF: @unchecked Sendable {
        let pointer = UnsafeMutablePointer<ffi_cif>.allocate(capacity: 1)
        init() {
            let status = unsafe ffi_prep_cif(pointer, FFI_DEFAULT_ABI, 0, hud_cffi_type_void(), nil)
            precondition(status == FFI_OK, "ffi_prep_cif for void(void) failed: \(status.rawValue)")
        }
    }
    private static let voidCIF = CIF()

    private static let trampoline: @convention(c) (
        UnsafeMutablePointer<ffi_cif>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        UnsafeMutableRawPointer?
    ) -> Void = { _, _, _, userData in
        guard let userData = unsafe userData else { return }
        let box = unsafe Unmanaged<Box>.fromOpaque(userData).takeUnretainedValue()
        if box.retired.load(ordering: .acquiring) {
            ActionThunk.counters.retiredCalls.add(1, ordering: .relaxed)
            return
        }
        let fatal = ActionThunk.fatalExitStatus.load(ordering: .acquiring)
        if fatal != 0 { _exit(fatal) }
        let guardState = unsafe LayoutGuard.current()
        if unsafe guardState.pointee.depth > 0 {
            unsafe guardState.pointee.violations += 1
            ActionThunk.counters.duringLayout.add(1, ordering: .relaxed)
            return
        }
        guard pthread_equal(box.owner, pthread_self()) != 0 else {
            // [main-thread]: a call from another thread (e.g. a renderer's
            // worker) would race with republishing; it is dropped and counted.
            ActionThunk.counters.otherThread.add(1, ordering: .relaxed)
            return
        }
        box.action?()
    }
}

/// Public, read-only view of the thunk counters (for tests and diagnostics).
package enum ActionThunkCounters {
    /// Thunks alive now; returns to zero when every snapshot is released.
    package static var live: Int { ActionThunk.liveCount }
    /// Thunks created since start.
    package static var created: Int { ActionThunk.createdCount }
    /// Calls through retired thunks that were caught.
    package static var retiredCalls: Int { ActionThunk.retiredCallCount }
    /// Actions invoked while a renderer's layout was running (contract violations).
    package static var callsDuringLayout: Int { ActionThunk.callsDuringLayoutCount }
    /// Retired thunks kept mapped so late calls are caught.
    package static var quarantined: Int { ActionThunk.quarantinedCount }
    /// Calls made from a thread other than the shell's (not run: actions are [main-thread]).
    package static var callsFromOtherThreads: Int { ActionThunk.otherThreadCallCount }
}
