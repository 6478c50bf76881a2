import Foundation

/// A slow line to one test server: a TCP relay on 127.0.0.1 that passes what the server
/// sends at most `bytesPerSecond` (what the client sends goes at full speed), so that a
/// download's progress can be seen. One server only, and nothing else on the machine, is
/// slowed (`tc` on the loopback would slow every test running beside it).
///
///     let link = try ThrottledLink(to: server, bytesPerSecond: 256 << 10)
///     try link.mount()                       // GVFS mounts the server through the link
///     let uri = link.uri("big.pdf")          // the server's URI, with the link's port
///
/// When the server dies, the link drops the client's connection with it, as a network
/// would; `cut()` drops every connection while the server stays up.
public final class ThrottledLink: @unchecked Sendable {
    // @unchecked: `connections` and `stopped` are guarded by `lock`; the rest is immutable.
    public let server: RemoteServer
    public let bytesPerSecond: Int
    /// The link's port on 127.0.0.1.
    public let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var connections: [Int32] = []
    private var stopped = false

    public init(to server: RemoteServer, bytesPerSecond: Int) throws {
        self.server = server
        self.bytesPerSecond = max(1024, bytesPerSecond)
        let listener = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw RemoteServerError.setupFailed("socket", String(cString: strerror(errno))) }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard ready else {
            close(listener)
            throw RemoteServerError.setupFailed("relay", String(cString: strerror(errno)))
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptConnections() }
        thread.name = "throttled-link"
        thread.start()
    }

    deinit { stop() }

    /// The server's root URI, reached through the link.
    public var rootURI: String {
        server.rootURI.replacingOccurrences(of: "127.0.0.1:\(server.port)/", with: "127.0.0.1:\(port)/")
    }

    /// The URI of `relativePath` in the served folder, through the link.
    public func uri(_ relativePath: String) -> String {
        server.uri(relativePath).replacingOccurrences(of: "127.0.0.1:\(server.port)/", with: "127.0.0.1:\(port)/")
    }

    /// Mounts the server through the link in the session's GVFS (as `RemoteServer.mount`).
    public func mount(timeout: TimeInterval = 60) throws {
        try GVFSMounter.mount(rootURI, user: ServerAccount.user, password: ServerAccount.password, timeout: timeout)
    }

    /// Unmounts the link's mount; nothing when there is none.
    public func unmount(timeout: TimeInterval = 60) throws {
        try GVFSMounter.unmount(rootURI, timeout: timeout)
    }

    /// True when GVFS has a mount for the link's root.
    public var isMounted: Bool { GVFSMounter.isMounted(rootURI) }

    /// Drops every connection through the link (the server stays up).
    public func cut() {
        let open = lock.withLock { connections }
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// Unmounts, stops accepting and drops every connection.
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        try? unmount(timeout: 20)
        shutdown(listener, Int32(SHUT_RDWR))
        cut()
    }

    private func acceptConnections() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                break
            }
            let upstream = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: server.port)
            let connected = upstream >= 0 && withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            } == 0
            let accepted = lock.withLock { () -> Bool in
                guard !stopped, connected else { return false }
                connections += [client, upstream]
                return true
            }
            guard accepted else {
                close(client)
                if upstream >= 0 { close(upstream) }
                continue
            }
            let pair = Pair(client: client, upstream: upstream) { [weak self] in
                self?.lock.withLock { self?.connections.removeAll { $0 == client || $0 == upstream } }
            }
            let rate = bytesPerSecond
            Thread { pair.pump(from: upstream, to: client, bytesPerSecond: rate) }.start()
            Thread { pair.pump(from: client, to: upstream, bytesPerSecond: nil) }.start()
        }
        close(listener)
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

/// One connection through the link: two pumps; the first to end ends the other, the last
/// closes both sockets.
private final class Pair: @unchecked Sendable {
    // @unchecked: `running` is guarded by `lock`.
    let client: Int32
    let upstream: Int32
    private let closed: @Sendable () -> Void
    private let lock = NSLock()
    private var running = 2

    init(client: Int32, upstream: Int32, closed: @escaping @Sendable () -> Void) {
        self.client = client
        self.upstream = upstream
        self.closed = closed
    }

    /// How far behind its pace an idle line may fall: what it may then send at once.
    static let idleCredit: TimeInterval = 0.1

    func pump(from source: Int32, to destination: Int32, bytesPerSecond: Int?) {
        // Small pieces on the slow side, so the rate holds over short spans too.
        let chunk = bytesPerSecond.map { max(1024, min(64 << 10, $0 / 20)) } ?? (64 << 10)
        var buffer = [UInt8](repeating: 0, count: chunk)
        var start = Date()
        var sent = 0
        loop: while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, chunk) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            if let bytesPerSecond, Double(sent) / Double(bytesPerSecond) < Date().timeIntervalSince(start) - Self.idleCredit {
                // A line that stood idle banks at most `idleCredit` of speed: without this, a
                // connection kept open (a mount's) between two transfers let the second one
                // through at full speed for as long as the line had been idle.
                start = Date().addingTimeInterval(-Self.idleCredit)
                sent = 0
            }
            var written = 0
            while written < count {
                let result = buffer.withUnsafeBytes { write(destination, $0.baseAddress! + written, count - written) }
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { break loop }
                written += result
            }
            sent += count
            if let bytesPerSecond {
                // The line's pace: the time these bytes take at the rate.
                let due = Double(sent) / Double(bytesPerSecond) - Date().timeIntervalSince(start)
                if due > 0 { usleep(useconds_t(min(due, 5) * 1_000_000)) }
            }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
        let last = lock.withLock { () -> Bool in
            running -= 1
            return running == 0
        }
        if last {
            closed()
            close(client)
            close(upstream)
        }
    }
}
