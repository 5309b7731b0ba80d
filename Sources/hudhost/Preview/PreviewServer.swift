// SPDX-License-Identifier: MIT
import HudRegistry
import HudHTTPServer
import Synchronization
import HudSystem

/// The HTTP side of `hudhost preview`: checks every request's Host header
/// and token, serves the page and its script and style, opens event
/// streams, and hands everything that needs the shell to the main thread
/// (`PreviewMailbox`). Runs on libmicrohttpd's connection threads, so it
/// holds only immutable, `Sendable` values.
final class PreviewServer: Sendable {
    /// The per-run secret in the page's URL (128 random bits, hex).
    let token: String
    let mailbox: PreviewMailbox
    let broadcast: PreviewBroadcast
    /// Bodies above this are answered 413 (an events script or settings
    /// document is a few hundred bytes).
    static let bodyLimit = 64 * 1024
    /// The paths served, and the methods each accepts.
    static let routes: [String: [String]] = [
        "/": ["GET", "HEAD"], "/preview.js": ["GET", "HEAD"], "/preview.css": ["GET", "HEAD"], "/preview-worker.js": ["GET", "HEAD"],
        "/api/state": ["GET", "HEAD"], "/api/frame.svg": ["GET", "HEAD"], "/api/frame.png": ["GET", "HEAD"], "/api/stream": ["GET"],
        "/api/events": ["POST"], "/api/settings": ["POST"],
    ]

    /// The port, set once the daemon listens (the Host check needs it);
    /// 0 until then, which no Host header matches.
    private let listeningPort = Atomic<UInt16>(0)
    /// Run once, when the page is first served with the token (`--open`
    /// removes its launcher file then).
    let onFirstPage = ThreadLock<(@Sendable () -> Void)?>(nil)

    init(token: String, mailbox: PreviewMailbox, broadcast: PreviewBroadcast) {
        self.token = token
        self.mailbox = mailbox
        self.broadcast = broadcast
    }

    /// Called once, when the daemon knows its port, before the URL is printed.
    func listening(on port: UInt16) { listeningPort.store(port, ordering: .sequentiallyConsistent) }

    /// A fresh token from the kernel's random source.
    static func makeToken() -> String? {
        guard let high = SystemCalls.randomUInt64(), let low = SystemCalls.randomUInt64() else { return nil }
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Headers on every answer: nothing is cached (the token is in URLs),
    /// no MIME sniffing, no referrer leaves the page.
    static let commonHeaders: [(String, String)] = [
        ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
    ]

    /// The page runs only its own script and style, loads only from this
    /// server, and cannot be framed.
    static let pagePolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// Answers one request (on a connection thread).
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        // DNS rebinding: a page elsewhere that got its name to resolve to
        // 127.0.0.1 still sends its own name as Host.
        let host = request.headers["host"] ?? ""
        let port = listeningPort.load(ordering: .sequentiallyConsistent)
        guard port != 0, ["127.0.0.1:\(port)", "localhost:\(port)"].contains(host.lowercased()) else {
            return Self.error(403, "bad-host", "Host '\(host)' is not this server; use http://127.0.0.1:\(port)/ (requests under another name are refused against DNS rebinding)")
        }
        // A request that changes state from a page of another origin (the
        // token leaked into its hands) is refused: browsers send Origin on
        // every cross-origin request and on every POST.
        if request.method != "GET", let origin = request.headers["origin"],
           !["http://127.0.0.1:\(port)", "http://localhost:\(port)"].contains(origin.lowercased()) {
            return Self.error(403, "bad-origin", "Origin '\(TextChecks.escapingControls(origin))' is not this server's; only the preview page itself may change its state")
        }
        guard let given = Self.givenToken(request) else {
            return Self.error(401, "no-token", "this preview needs its access token: open the URL hudhost preview printed (…/?token=…)")
        }
        guard Self.constantTimeEqual(given, token) else {
            return Self.error(403, "bad-token", "wrong access token: open the URL this run of hudhost preview printed")
        }
        guard let methods = Self.routes[request.path] else {
            return Self.error(404, "unknown-path", "no such page or endpoint: \(request.path); endpoints: \(Self.routes.keys.sorted().joined(separator: ", "))")
        }
        guard methods.contains(request.method) else {
            var response = Self.error(405, "method-not-allowed", "\(request.path) takes \(methods.joined(separator: " or ")), not \(request.method)")
            response.headers.append(("Allow", methods.joined(separator: ", ")))
            return response
        }
        if request.bodyTooLarge {
            return Self.error(413, "body-too-large", "the body is over \(Self.bodyLimit) bytes; an events script or settings document is much smaller")
        }
        switch request.path {
        case "/":
            if let first = onFirstPage.withLock({ action in defer { action = nil }; return action }) { first() }
            return HTTPResponse(status: 200, headers: Self.commonHeaders + [("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", Self.pagePolicy)],
                                body: .bytes(Array(PreviewAssets.page(token: token).utf8)))
        case "/preview.js":
            return HTTPResponse(status: 200, headers: Self.commonHeaders + [("Content-Type", "text/javascript; charset=utf-8")], body: .bytes(Array(PreviewAssets.script.utf8)))
        case "/preview-worker.js":
            return HTTPResponse(status: 200, headers: Self.commonHeaders + [("Content-Type", "text/javascript; charset=utf-8"), ("Content-Security-Policy", Self.pagePolicy)],
                                body: .bytes(Array(PreviewAssets.worker.utf8)))
        case "/preview.css":
            return HTTPResponse(status: 200, headers: Self.commonHeaders + [("Content-Type", "text/css; charset=utf-8")], body: .bytes(Array(PreviewAssets.style.utf8)))
        case "/api/stream":
            guard let body = broadcast.stream() else { return Self.error(503, "busy", "cannot open an event stream now") }
            return HTTPResponse(status: 200, headers: Self.commonHeaders + [("Content-Type", "text/event-stream"), ("X-Accel-Buffering", "no")], body: body)
        default:
            return mailbox.post(request)
        }
    }

    /// The token a request carries (`?token=` or `X-Hud-Token`), if any.
    private static func givenToken(_ request: HTTPRequest) -> String? {
        guard let given = request.query["token"] ?? request.headers["x-hud-token"], !given.isEmpty else { return nil }
        return given
    }

    /// Whether `request` carries this run's token: its connection then
    /// holds a place the server keeps for the token's holder
    /// (`HTTPDaemon`'s `admits`). Called on a connection thread.
    func admits(_ request: HTTPRequest) -> Bool {
        guard let given = Self.givenToken(request) else { return false }
        return Self.constantTimeEqual(given, token)
    }

    /// Compares without stopping at the first difference.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for (p, q) in zip(x, y) { difference |= p ^ q }
        return difference == 0
    }

    static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, headers: commonHeaders + [("Content-Type", "application/json")],
                     body: .bytes(Array((value.serialized(pretty: false) + "\n").utf8)))
    }

    /// `{"schemaVersion":1,"error":{"code":…,"message":…}}` with `status`.
    static func error(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
        json(status, .object([("schemaVersion", .number(1)), ("error", .object([("code", .string(code)), ("message", .string(message))]))]))
    }
}
