// SPDX-License-Identifier: MIT
// Every libmicrohttpd call of the project, in one file (Docs/ARCHITECTURE.md,
// "Where unsafe code lives"). The rest of hudhost sees Swift values only:
// `HTTPRequest` in, `HTTPResponse` out, and `HTTPDaemon` to start and stop.
//
// Threads. The daemon runs one internal polling thread (accepting) and one
// thread per connection (MHD_USE_THREAD_PER_CONNECTION). Every callback in
// this file runs on a connection's thread; the `handler` closure is called
// on it too, so it must be `@Sendable` and may block (a server-sent-event
// stream waits there for the next frame). Nothing here touches the caller's
// state: serializing access to it is the handler's job.
//
// Pointers and owners.
// - `handler_cls` of the access handler and `completed_cls` of the
//   completion callback: an `Unmanaged<HandlerBox>` retained by `HTTPDaemon`
//   (`handlerBox`) for the daemon's whole life, released in `deinit` only
//   after `MHD_stop_daemon` has returned (no callback can run then).
// - `*con_cls`: per request, an `Unmanaged<RequestContext>` retained on the
//   request's first callback and released in `requestCompleted`, which MHD
//   calls exactly once per request (finished, failed or timed out).
// - `url`, `method`, `upload_data`, header keys and values: MHD's, valid
//   during the callback only; copied into Swift strings and arrays at once.
// - A buffer response is made with MHD_RESPMEM_MUST_COPY: MHD copies the
//   bytes, so the Swift array may go away when the call returns.
// - A streamed response's `crc_cls`: an `Unmanaged<StreamContext>` retained
//   when the response is made, released in `streamFinished`, which MHD calls
//   once when it drops the response (stream ended or client gone).
// - `buf` of the content reader: MHD's, `max` bytes, valid during the call.
// - `hud_mhd_server *` (the daemon and its connection guard, shim.h):
//   owned by `HTTPDaemon`, stopped and freed in `deinit`.
// - A stream's `MHD_Connection *` (`StreamContext.connection`, handed to
//   `next` in an `HTTPStreamClient`): MHD's, valid while the stream lives
//   (the connection outlives its responses); used on its own thread only.
//
// Loading. hudhost does not link libmicrohttpd: `HTTPDaemon.init` first
// calls `hud_mhd_load()` (Sources/CMicroHTTPD/shim.c), which opens
// libmicrohttpd.so.12 with dlopen once per process; if that fails, the
// daemon is not started and the error names the library and its Debian
// package (`HTTPDaemonError.libraryUnavailable`).
import CMicroHTTPD
import Glibc

/// One HTTP request as libmicrohttpd parsed it.
package struct HTTPRequest: Sendable {
    /// `GET`, `POST`, …, as sent.
    package var method: String
    /// The path, without the query (percent-decoded by MHD).
    package var path: String
    /// Query arguments (first value of each name).
    package var query: [String: String]
    /// Header fields by lowercased name (first value of each name).
    package var headers: [String: String]
    /// The body, at most the daemon's `bodyLimit` bytes.
    package var body: [UInt8]
    /// True when the body was longer than `bodyLimit` (the rest was read and dropped).
    package var bodyTooLarge: Bool
}

/// What to answer.
package struct HTTPResponse: Sendable {
    package enum Body: Sendable {
        case bytes([UInt8])
        /// Chunks produced on the connection's thread until `next` returns
        /// nil; `next` may block, best in `HTTPStreamClient.wait`, which
        /// also sees the client leave. `finished` runs once when MHD drops
        /// the stream (ended, or the client went away).
        case stream(next: @Sendable (HTTPStreamClient) -> [UInt8]?, finished: @Sendable () -> Void)
    }

    package var status: Int
    package var headers: [(String, String)]
    package var body: Body

    package init(status: Int, headers: [(String, String)] = [], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

package enum HTTPDaemonError: Error, Sendable, CustomStringConvertible {
    /// libmicrohttpd could not be loaded; `reason` is dlerror()'s text.
    case libraryUnavailable(library: String, package: String, reason: String)
    /// The daemon did not start on 127.0.0.1:`port`.
    case cannotListen(port: UInt16, reason: String)

    package var description: String {
        switch self {
        case .libraryUnavailable(let library, let package, let reason):
            "cannot load \(library), the HTTP server library preview needs (\(reason)); install the \(package) package (apt-get install \(package))"
        case .cannotListen(let port, let reason):
            "cannot listen on 127.0.0.1:\(port): \(reason)"
        }
    }
}

/// What a streamed response's producer waits with, on its connection's
/// thread (valid during `next` only).
@safe package struct HTTPStreamClient {
    fileprivate let connection: OpaquePointer

    package enum Wake: Sendable, Equatable {
        /// `descriptor` became readable.
        case woken
        /// Nothing within the time given.
        case timedOut
        /// The client closed its side: end the stream.
        case departed
    }

    /// Waits up to `milliseconds` for `descriptor` to be readable or the
    /// client to go.
    package func wait(for descriptor: Int32, milliseconds: Int32) -> Wake {
        switch unsafe hud_mhd_wait_for_wake(descriptor, connection, milliseconds) {
        case 1: .woken
        case 0: .timedOut
        default: .departed
        }
    }
}

/// A running libmicrohttpd daemon on 127.0.0.1; stopped when released.
@safe package final class HTTPDaemon: @unchecked Sendable {
    // @unchecked: `server` is written once in `init` and read only by
    // `deinit` (MHD's own calls on it are thread-safe); `handlerBox` is
    // immutable. Nothing else is stored.
    private let server: OpaquePointer
    private let handlerBox: Unmanaged<HandlerBox>
    /// The port the daemon listens on.
    package let port: UInt16

    /// The library `loadLibrary` opens (libmicrohttpd.so.12).
    package static let libraryName: String = HUD_MHD_LIBRARY

    /// Loads libmicrohttpd if this process has not yet (once; later calls
    /// return the first answer). `HTTPDaemon.init` calls it; `doctor` may too.
    package static func loadLibrary() -> Result<Void, HTTPDaemonError> {
        if hud_mhd_load() == 1 { return .success(()) }
        return unsafe .failure(.libraryUnavailable(library: HUD_MHD_LIBRARY, package: HUD_MHD_PACKAGE,
                                            reason: String(cString: hud_mhd_load_error())))
    }

    /// Starts listening on 127.0.0.1:`port` (0: a free port), after loading
    /// libmicrohttpd (`loadLibrary`).
    ///
    /// Each request, headers and body, must arrive whole within
    /// `requestDeadlineSeconds` of the connection's opening or of its
    /// previous answer (trickling a byte at a time does not extend it); at
    /// most `unadmittedLimit` of the `connectionLimit` connections may be
    /// ones on which `admits` accepted no request yet: one more, and the
    /// oldest of those is closed, so the rest stays for admitted clients.
    package init(port: UInt16, bodyLimit: Int, connectionLimit: UInt32 = 64, unadmittedLimit: UInt32 = 32,
                 requestDeadlineSeconds: Double = 10, idleTimeoutSeconds: UInt32 = 60,
                 admits: @escaping @Sendable (HTTPRequest) -> Bool,
                 handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws(HTTPDaemonError) {
        if case .failure(let error) = Self.loadLibrary() { throw error }
        let box = unsafe Unmanaged.passRetained(HandlerBox(handler: handler, admits: admits, bodyLimit: bodyLimit))
        errno = 0
        guard let started = unsafe hud_mhd_start_loopback(port, connectionLimit, unadmittedLimit, requestDeadlineSeconds, idleTimeoutSeconds,
                                                   accessHandler, box.toOpaque(), requestCompleted, box.toOpaque()) else {
            let code = errno
            unsafe box.release()
            let reason = unsafe code == 0 ? "libmicrohttpd could not start" : String(cString: strerror(code))
            throw .cannotListen(port: port, reason: reason)
        }
        unsafe server = unsafe started
        unsafe handlerBox = unsafe box
        self.port = unsafe hud_mhd_bound_port(started)
    }

    deinit {
        unsafe hud_mhd_stop(server)
        unsafe handlerBox.release()
    }
}

/// The handler and limits, shared by all connection threads (immutable).
private final class HandlerBox: Sendable {
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    let admits: @Sendable (HTTPRequest) -> Bool
    let bodyLimit: Int
    init(handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse, admits: @escaping @Sendable (HTTPRequest) -> Bool, bodyLimit: Int) {
        self.handler = handler
        self.admits = admits
        self.bodyLimit = bodyLimit
    }
}

/// One request's body as it arrives. Used by its connection's thread only.
private final class RequestContext {
    var body: [UInt8] = []
    var tooLarge = false
}

/// One streamed response's state. Used by its connection's thread only.
@safe private final class StreamContext {
    let next: @Sendable (HTTPStreamClient) -> [UInt8]?
    let finished: @Sendable () -> Void
    /// The stream's connection (MHD's; it outlives the stream).
    let connection: OpaquePointer
    var pending: [UInt8] = []
    var offset = 0
    init(next: @escaping @Sendable (HTTPStreamClient) -> [UInt8]?, finished: @escaping @Sendable () -> Void, connection: OpaquePointer) {
        self.next = next
        self.finished = finished
        unsafe self.connection = unsafe connection
    }
}

/// Collects key/value pairs from hud_mhd_get_connection_values.
private final class ValueCollector {
    var values: [String: String] = [:]
    let lowercase: Bool
    init(lowercase: Bool) { self.lowercase = lowercase }
}

private let collectValue: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls = unsafe cls, let key = unsafe key else { return .YES }
    let collector = unsafe Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
    var name = unsafe String(cString: key)
    if collector.lowercase { name = name.lowercased() }
    if collector.values[name] == nil { collector.values[name] = unsafe value.map { unsafe String(cString: $0) } ?? "" }
    return .YES
}

private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercase: Bool) -> [String: String] {
    let collector = ValueCollector(lowercase: lowercase)
    withExtendedLifetime(collector) {
        _ = unsafe hud_mhd_get_connection_values(connection, kind, collectValue, Unmanaged.passUnretained(collector).toOpaque())
    }
    return collector.values
}

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadDataSize, conCls in
    guard let cls = unsafe cls, let connection = unsafe connection, let uploadDataSize = unsafe uploadDataSize, let conCls = unsafe conCls else { return .NO }
    let box = unsafe Unmanaged<HandlerBox>.fromOpaque(cls).takeUnretainedValue()
    // First call for this request: headers only. Make its context.
    guard let existing = unsafe conCls.pointee else {
        unsafe conCls.pointee = unsafe Unmanaged.passRetained(RequestContext()).toOpaque()
        return .YES
    }
    let context = unsafe Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()
    // A piece of the body: keep it (up to the limit) and ask for more.
    if unsafe uploadDataSize.pointee > 0 {
        let count = unsafe uploadDataSize.pointee
        if let uploadData = unsafe uploadData, !context.tooLarge {
            if context.body.count + count > box.bodyLimit {
                context.tooLarge = true
                context.body = []
            } else {
                unsafe uploadData.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
                    unsafe context.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
                }
            }
        }
        unsafe uploadDataSize.pointee = 0
        return .YES
    }
    // The whole request is in: answer it.
    let request = unsafe HTTPRequest(
        method: method.map { unsafe String(cString: $0) } ?? "",
        path: unsafe url.map { unsafe String(cString: $0) } ?? "/",
        query: unsafe values(connection, .GET_ARGUMENT_KIND, lowercase: false),
        headers: unsafe values(connection, .HEADER_KIND, lowercase: true),
        body: context.body, bodyTooLarge: context.tooLarge)
    context.body = []
    unsafe hud_mhd_request_answering(connection, box.admits(request) ? 1 : 0)
    let response = box.handler(request)
    let made: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
        unsafe made = unsafe bytes.withUnsafeBytes { raw in
            unsafe hud_mhd_create_copied_response(raw.count, raw.baseAddress)
        }
    case .stream(let next, let finished):
        let stream = unsafe Unmanaged.passRetained(StreamContext(next: next, finished: finished, connection: connection))
        unsafe made = unsafe hud_mhd_create_streamed_response(4096, readStream, stream.toOpaque(), streamFinished)
        if unsafe made == nil {
            // MHD did not take it: nothing will call streamFinished.
            unsafe stream.takeRetainedValue().finished()
        }
    }
    guard let made = unsafe made else { return .NO }
    for (name, value) in response.headers {
        _ = unsafe hud_mhd_add_response_header(made, name, value)
    }
    let queued = unsafe hud_mhd_queue_response(connection, UInt32(response.status), made)
    unsafe hud_mhd_destroy_response(made)  // the connection keeps its own reference
    return queued
}

private let requestCompleted: MHD_RequestCompletedCallback = { _, _, conCls, _ in
    guard let conCls = unsafe conCls, let existing = unsafe conCls.pointee else { return }
    unsafe Unmanaged<RequestContext>.fromOpaque(existing).release()
    unsafe conCls.pointee = nil
}

private let readStream: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls = unsafe cls, let buffer = unsafe buffer, max > 0 else { return hud_mhd_end_of_stream() }
    let stream = unsafe Unmanaged<StreamContext>.fromOpaque(cls).takeUnretainedValue()
    while stream.offset >= stream.pending.count {
        // Blocks until the producer has something (or ends the stream).
        guard let chunk = unsafe stream.next(HTTPStreamClient(connection: stream.connection)) else { return hud_mhd_end_of_stream() }
        stream.pending = chunk
        stream.offset = 0
    }
    let count = min(max, stream.pending.count - stream.offset)
    unsafe stream.pending.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return }
        unsafe memcpy(buffer, base + stream.offset, count)
    }
    stream.offset += count
    return count
}

private let streamFinished: MHD_ContentReaderFreeCallback = { cls in
    guard let cls = unsafe cls else { return }
    unsafe Unmanaged<StreamContext>.fromOpaque(cls).takeRetainedValue().finished()
}
