// SPDX-License-Identifier: MIT
import Synchronization
import HudHTTPServer
import HudSystem

/// How libmicrohttpd's connection threads reach the one thread that owns the
/// shell (Docs/PREVIEW.md, "Threads").
///
/// The shell, the registry and the renderer hosts are not thread-safe, and a
/// renderer host child asks the kernel for SIGKILL when the *thread* that
/// spawned it exits (PR_SET_PDEATHSIG), so a connection thread must never
/// touch them. A connection thread posts its request here and blocks on its
/// own pipe; the main thread (`PreviewSession.run`) wakes on `wakeDescriptor`,
/// answers every waiting request in arrival order, and writes one byte to
/// each requester's pipe. Requests are therefore serialized: one at a time,
/// in order, on the main thread.
final class PreviewMailbox: Sendable {
    struct Letter: Sendable {
        let request: HTTPRequest
        let replyDescriptor: Int32
        let id: UInt64
    }

    // ThreadLock, not Mutex: contended by connection threads, and TSan must see it.
    private let letters = ThreadLock<[Letter]>([])
    private let answers = ThreadLock<[UInt64: HTTPResponse]>([:])
    private let nextID = Atomic<UInt64>(1)
    /// The pipe that wakes the main thread; closed with the mailbox.
    private let wake: (read: FileDescriptor, write: FileDescriptor)
    /// Readable when letters are waiting (the main thread polls it).
    var wakeDescriptor: Int32 { wake.read.rawValue }

    init() throws(SystemError) {
        switch SystemCalls.makePipe() {
        case .success(let made): wake = made
        case .failure(let error): throw error
        }
        SystemCalls.setNonBlocking(wake.read.rawValue)
        SystemCalls.setNonBlocking(wake.write.rawValue)
    }

    /// Called on a connection thread: hands `request` to the main thread and
    /// waits for its answer.
    func post(_ request: HTTPRequest) -> HTTPResponse {
        let pipe: (read: FileDescriptor, write: FileDescriptor)
        switch SystemCalls.makePipe() {
        case .success(let made): pipe = made
        case .failure(let error): return PreviewServer.error(503, "busy", "cannot wait for the preview's main thread: pipe failed: \(error)")
        }
        // Open until the answer is read: the main thread writes to it by number.
        defer {
            pipe.read.close()
            pipe.write.close()
        }
        let id = nextID.add(1, ordering: .relaxed).oldValue
        letters.withLock { $0.append(Letter(request: request, replyDescriptor: pipe.write.rawValue, id: id)) }
        _ = SystemCalls.write(wake.write.rawValue, [1])
        // Blocks until the main thread has answered (one byte on our pipe).
        _ = SystemCalls.read(pipe.read.rawValue, maximum: 1)
        return answers.withLock { $0.removeValue(forKey: id) }
            ?? PreviewServer.error(500, "no-answer", "the preview's main thread did not answer")
    }

    /// Called on the main thread: every letter waiting, oldest first.
    func takeLetters() -> [Letter] {
        while case .bytes = SystemCalls.read(wakeDescriptor, maximum: 4096) {}
        return letters.withLock { waiting in
            defer { waiting.removeAll() }
            return waiting
        }
    }

    /// Called on the main thread: answers one letter and wakes its sender.
    func answer(_ letter: Letter, with response: HTTPResponse) {
        answers.withLock { $0[letter.id] = response }
        _ = SystemCalls.write(letter.replyDescriptor, [1])
    }
}

/// Tells server-sent-event streams that the frame or state changed. The main
/// thread publishes; each stream's connection thread waits on its own pipe.
final class PreviewBroadcast: Sendable {
    /// The session's `version`, as last published.
    let version = Atomic<UInt64>(0)
    /// Each listening stream's pipe: its read end's number → its write end.
    private let listeners = ThreadLock<[Int32: FileDescriptor]>([:])
    /// A comment line is sent after this much silence, so proxies and the
    /// idle timeout keep the stream open. (A client that closes its side is
    /// noticed at once: `HTTPStreamClient.wait`.)
    static let keepAliveMilliseconds: Int32 = 15_000

    /// Called on the main thread.
    func publish(_ newVersion: UInt64) {
        version.store(newVersion, ordering: .sequentiallyConsistent)
        listeners.withLock { all in
            for writer in all.values { _ = SystemCalls.write(writer.rawValue, [1]) }
        }
    }

    /// A new stream: the HTTP body of `GET /api/stream`.
    func stream() -> HTTPResponse.Body? {
        guard case .success(let pipe) = SystemCalls.makePipe() else { return nil }
        SystemCalls.setNonBlocking(pipe.read.rawValue)
        SystemCalls.setNonBlocking(pipe.write.rawValue)
        listeners.withLock { $0[pipe.read.rawValue] = pipe.write }
        // Each stream's state is its own; `next` runs on its connection's thread only.
        let sent = Atomic<UInt64>(0)
        let started = Atomic<Bool>(false)
        let next: @Sendable (HTTPStreamClient) -> [UInt8]? = { [self] client in
            if !started.exchange(true, ordering: .relaxed) {
                let current = version.load(ordering: .sequentiallyConsistent)
                sent.store(current, ordering: .relaxed)
                return Array("retry: 1000\n\n".utf8) + Self.event(current)
            }
            while true {
                let wake = client.wait(for: pipe.read.rawValue, milliseconds: Self.keepAliveMilliseconds)
                if wake == .departed { return nil }
                while case .bytes = SystemCalls.read(pipe.read.rawValue, maximum: 4096) {}
                let current = version.load(ordering: .sequentiallyConsistent)
                if current != sent.load(ordering: .relaxed) {
                    sent.store(current, ordering: .relaxed)
                    return Self.event(current)
                }
                if wake == .timedOut { return Array(": keep-alive\n\n".utf8) }
            }
        }
        let finished: @Sendable () -> Void = { [self] in
            listeners.withLock { all in
                all.removeValue(forKey: pipe.read.rawValue)
                pipe.read.close()
                pipe.write.close()
            }
        }
        return .stream(next: next, finished: finished)
    }

    private static func event(_ version: UInt64) -> [UInt8] {
        Array("id: \(version)\nevent: frame\ndata: {\"version\":\(version)}\n\n".utf8)
    }
}
