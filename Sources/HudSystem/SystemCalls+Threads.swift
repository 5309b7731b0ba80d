// SPDX-License-Identifier: MIT
import Glibc

// The libc layer (SystemCalls.swift): threads and locks.

// MARK: - Threads

/// Moves non-Sendable values into worker threads that only read them.
/// `@unchecked Sendable`: the workers never mutate the boxed values (the
/// renderer context's caches are filled before the workers start).
package final class UncheckedBox<T>: @unchecked Sendable {
    package let value: T
    package init(_ value: T) { self.value = value }
}

/// One slot per worker or work item, each written by exactly one thread
/// and read only after `ConcurrentWorkers.run` has joined every thread.
/// Workers use it instead of a `Mutex`: on Linux a contended
/// `Synchronization.Mutex` is taken in the kernel (a PI futex), which
/// ThreadSanitizer cannot see, so it reports races that are not there and
/// the TSan run in CI (Docs/RELIABILITY.md) could not stay clean.
/// `@unchecked Sendable`: writes go to disjoint slots; reads happen after
/// `pthread_join`, which orders
/// them after every write.
@safe package final class WorkerSlots<Value>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Value?>

    package init(count: Int) {
        unsafe storage = .allocate(capacity: max(count, 0))
        unsafe storage.initialize(repeating: nil)
    }

    deinit {
        _ = unsafe storage.deinitialize()
        unsafe storage.deallocate()
    }

    package subscript(index: Int) -> Value? {
        get { unsafe storage[index] }
        set { unsafe storage[index] = newValue }
    }
}

/// Runs `body(index)` on `count` new threads at once and waits for all.
/// With `together`, no thread begins `body` before every thread exists:
/// they wait at a gate (a mutex and a condition, so the waiting costs no
/// CPU; spinning eight threads on two cores burnt a fifth of a
/// validation) that opens once the last one is made, so their calls
/// overlap. A thread that cannot be made runs its part on the caller's
/// thread, after the gate opened.
package enum ConcurrentWorkers {
    package static func run(count: Int, together: Bool = false, _ body: @escaping @Sendable (Int) -> Void) {
        let gate = together ? StartGate() : nil
        var threads: [pthread_t] = []
        var unstarted: [Int] = []
        for index in 0..<count {
            let box = unsafe Unmanaged.passRetained(UncheckedBox({
                gate?.pass()
                body(index)
            }))
            var thread = pthread_t()
            let status = unsafe pthread_create(&thread, nil, { raw in
                let work = unsafe Unmanaged<UncheckedBox<() -> Void>>.fromOpaque(raw!).takeRetainedValue()
                work.value()
                return nil
            }, unsafe box.toOpaque())
            if status == 0 {
                threads.append(thread)
            } else {
                unsafe box.release()
                unstarted.append(index)
            }
        }
        gate?.open()
        for index in unstarted { body(index) }
        for thread in threads { pthread_join(thread, nil) }
    }

    /// Closed until `open()`; `pass()` waits while it is closed.
    @safe private final class StartGate: @unchecked Sendable {
        // Behind pointers of their own, initialized once and never moved.
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let opened = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        /// Read and written with `mutex` held.
        private var isOpen = false

        init() {
            unsafe pthread_mutex_init(mutex, nil)
            unsafe pthread_cond_init(opened, nil)
        }

        deinit {
            unsafe pthread_cond_destroy(opened)
            unsafe pthread_mutex_destroy(mutex)
            unsafe opened.deallocate()
            unsafe mutex.deallocate()
        }

        func pass() {
            unsafe pthread_mutex_lock(mutex)
            while !isOpen { unsafe pthread_cond_wait(opened, mutex) }
            unsafe pthread_mutex_unlock(mutex)
        }

        func open() {
            unsafe pthread_mutex_lock(mutex)
            isOpen = true
            unsafe pthread_cond_broadcast(opened)
            unsafe pthread_mutex_unlock(mutex)
        }
    }
}


/// A value behind a pthread mutex, for state that threads contend on
/// (`hudhost preview`'s request mailbox and event streams, the thunk
/// quarantine, stdout's first failure). Not
/// `Synchronization.Mutex`: contended, that one locks in the kernel where
/// ThreadSanitizer cannot see it (Docs/RELIABILITY.md), and the TSan run in
/// CI must stay clean; TSan intercepts pthread mutexes.
/// The value lives behind its own pointer, not in a stored `var`: an inout
/// access to a class's stored property is a Swift access TSan records at the
/// property's address, and for an empty value (`ThreadLock<Void>`) that
/// address is the object's header, which every caller reads
/// unlocked to find the lock, so TSan reported a race that was not there
/// (`validate -j 3`, Docs/RELIABILITY.md). Through the pointer, TSan sees
/// only the body's own loads and stores, all between lock and unlock.
/// `@unchecked Sendable`: `storage` is only touched between lock and unlock.
@safe package final class ThreadLock<Value: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let storage: UnsafeMutablePointer<Value>

    package init(_ value: consuming Value) {
        unsafe storage = .allocate(capacity: 1)
        unsafe storage.initialize(to: value)
        unsafe mutex = .allocate(capacity: 1)
        unsafe mutex.initialize(to: pthread_mutex_t())
        unsafe pthread_mutex_init(mutex, nil)
    }

    deinit {
        unsafe pthread_mutex_destroy(mutex)
        unsafe mutex.deinitialize(count: 1)
        unsafe mutex.deallocate()
        unsafe storage.deinitialize(count: 1)
        unsafe storage.deallocate()
    }

    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        unsafe pthread_mutex_lock(mutex)
        defer { unsafe pthread_mutex_unlock(mutex) }
        return unsafe try body(&storage.pointee)
    }
}
