// SPDX-License-Identifier: MIT
import Glibc
import Testing
import HudHTTPServer
import HudSystem

/// libmicrohttpd behind `HTTPDaemon`, driven by a real TCP client on
/// 127.0.0.1: what reaches the handler, and what reaches the client.
/// (`hudhost preview`'s tests drive the same daemon through the preview
/// server: tokens, limits, deadlines, event streams.)
struct HTTPDaemonTests {
    /// Sends `request` on a new connection to `port` and reads until the
    /// server closes it (HTTP/1.0: one request per connection), within
    /// 10 s.
    static func exchange(_ port: UInt16, _ request: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0, "connect: \(String(cString: strerror(errno)))")
        var deadline = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &deadline, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            try #require(n > 0, "send: \(String(cString: strerror(errno)))")
            sent += n
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            try #require(n >= 0, "recv: \(String(cString: strerror(errno))) after \(reply.count) bytes")
            if n == 0 { break }
            reply += buffer[..<n]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    /// The reply's body: what follows the blank line after the headers.
    static func body(_ reply: String) -> Substring? {
        let parts = reply.split(separator: "\r\n\r\n", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 ? parts[1] : nil
    }

    /// Method, decoded path, query, lowercased headers and body reach the
    /// handler; its status, headers and body reach the client.
    @Test func aRequestReachesTheHandlerAndItsAnswerTheClient() throws {
        let seen = ThreadLock<HTTPRequest?>(nil)
        let daemon = try HTTPDaemon(port: 0, bodyLimit: 64, admits: { _ in true }) { request in
            seen.withLock { $0 = request }
            return HTTPResponse(status: 201, headers: [("X-Answer", "42")], body: .bytes(Array("done".utf8)))
        }
        #expect(daemon.port != 0)
        let reply = try Self.exchange(daemon.port, "POST /a%20b?x=1&y=two%20words HTTP/1.0\r\nX-Thing: Value\r\nContent-Length: 5\r\n\r\nhello")
        #expect(reply.hasPrefix("HTTP/1.") && reply.contains(" 201 "))
        #expect(reply.contains("\r\nX-Answer: 42\r\n"))
        #expect(Self.body(reply) == "done")
        let request = try #require(seen.withLock { $0 })
        #expect(request.method == "POST")
        #expect(request.path == "/a b")
        #expect(request.query == ["x": "1", "y": "two words"])
        #expect(request.headers["x-thing"] == "Value")
        #expect(request.body == Array("hello".utf8))
        #expect(!request.bodyTooLarge)
    }

    /// A body over the limit is read and dropped: the handler sees it was
    /// too large, and none of it.
    @Test func aBodyOverTheLimitIsDroppedAndSaidToBe() throws {
        let seen = ThreadLock<HTTPRequest?>(nil)
        let daemon = try HTTPDaemon(port: 0, bodyLimit: 8, admits: { _ in true }) { request in
            seen.withLock { $0 = request }
            return HTTPResponse(status: request.bodyTooLarge ? 413 : 200, body: .bytes([]))
        }
        let reply = try Self.exchange(daemon.port, "POST / HTTP/1.0\r\nContent-Length: 20\r\n\r\n" + String(repeating: "x", count: 20))
        #expect(reply.contains(" 413 "))
        let request = try #require(seen.withLock { $0 })
        #expect(request.bodyTooLarge)
        #expect(request.body.isEmpty)
    }

    /// A streamed answer arrives chunk after chunk until `next` says it
    /// ended, and `finished` runs once after that.
    @Test func aStreamArrivesWholeAndIsFinishedOnce() throws {
        let chunks = ThreadLock(["one ", "two ", "three"])
        let finishedCount = ThreadLock(0)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let signal = ends[1]
        let daemon = try HTTPDaemon(port: 0, bodyLimit: 0, admits: { _ in true }) { _ in
            HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], body: .stream(next: { _ in
                chunks.withLock { $0.isEmpty ? nil : Array($0.removeFirst().utf8) }
            }, finished: {
                finishedCount.withLock { $0 += 1 }
                var byte: UInt8 = 1
                _ = write(signal, &byte, 1)
            }))
        }
        let reply = try Self.exchange(daemon.port, "GET /events HTTP/1.0\r\n\r\n")
        #expect(Self.body(reply) == "one two three")
        var ready = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        try #require(poll(&ready, 1, 10_000) == 1, "finished did not run within 10 s")
        #expect(finishedCount.withLock { $0 } == 1)
    }
}
