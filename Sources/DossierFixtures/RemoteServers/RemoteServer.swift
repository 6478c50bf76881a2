import Foundation

/// A real file server on 127.0.0.1 for the remote-location tests: OpenSSH's sshd (SFTP),
/// Samba's smbd (SMB) or Apache with mod_dav (WebDAV), started by the test on a free high
/// port with its own configuration in a temporary folder, serving `folder`, a local folder
/// the test fills. `mount()` mounts it through the session's real GVFS, answering the
/// password prompt with the throw-away account (`ServerAccount`).
///
///     let server = try RemoteServer.start(.sftp)
///     try server.folder.write("notes.txt", "hello")     // `folder` is a TemporaryFolder
///     try server.mount()
///     let uri = server.uri("notes.txt")                 // sftp://dossier-remote-test@127.0.0.1:PORT/tmp/…/notes.txt
///     server.kill()                                     // "the server is gone"
///     try server.restart()                              // back, same port and folder
///
/// The servers run as root and act as the test account, which may read what the test
/// writes; call `openToServer()` after writing folders the client must write into.
/// `stop()` (or the object going away) unmounts, ends the server and removes its files;
/// only processes this fixture started are ever signalled.
public final class RemoteServer: @unchecked Sendable {
    // @unchecked: the mutable state (the process, the mounted flag) is guarded by `lock`.

    /// The three protocols the tests cover.
    public enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        case sftp, smb, dav
        public var description: String { rawValue }
    }

    public let kind: Kind
    /// The port on 127.0.0.1; the same after `restart()`.
    public private(set) var port: UInt16
    /// The local folder the server serves; the test writes its files here.
    public let folder: TemporaryFolder
    /// The server's configuration, keys, logs and state.
    private let state: TemporaryFolder
    private let lock = NSLock()
    private var process: Process?
    private var launch: ServerLaunch?
    private var log: URL { state.url.appendingPathComponent("server.log") }
    private var mounted = false

    /// Starts a `kind` server on a free port serving a fresh, empty folder, and waits until it
    /// accepts connections (`timeout` is a safety net, not a timing).
    public static func start(_ kind: Kind, timeout: TimeInterval = 60) throws -> RemoteServer {
        try ServerAccount.ensure()
        let server = try RemoteServer(kind: kind)
        var lastError: Error?
        // A port another program took between picking and binding: try another.
        for _ in 0..<3 {
            do {
                try server.launchServer(timeout: timeout)
                return server
            } catch let error as RemoteServerError {
                lastError = error
                server.port = try LoopbackPort.free()
            }
        }
        throw lastError ?? RemoteServerError.notListening(kind, server.port, "")
    }

    private init(kind: Kind) throws {
        self.kind = kind
        folder = try TemporaryFolder("dossier-\(kind)-share")
        state = try TemporaryFolder("dossier-\(kind)-server")
        port = try LoopbackPort.free()
        // The servers act as the test account: it must be able to write into the share.
        chmod(folder.url.path, 0o777)
    }

    /// The URI of the served folder's root, as GVFS spells it: `sftp://dossier-remote-test@127.0.0.1:PORT/<folder's path>/`,
    /// `smb://127.0.0.1:PORT/share/`, `dav://127.0.0.1:PORT/share/`.
    public var rootURI: String {
        switch kind {
        case .sftp: return "sftp://\(ServerAccount.user)@127.0.0.1:\(port)\(Self.escapedPath(folder.url.path))/"
        case .smb: return "smb://127.0.0.1:\(port)/share/"
        case .dav: return "dav://127.0.0.1:\(port)/share/"
        }
    }

    /// The URI of `relativePath` inside the served folder (`"a/b.pdf"`, no leading slash),
    /// percent-escaped.
    public func uri(_ relativePath: String) -> String {
        rootURI + Self.escapedPath(relativePath)
    }

    /// The local file behind `relativePath` inside the served folder.
    public func localURL(_ relativePath: String) -> URL {
        folder.url.appendingPathComponent(relativePath)
    }

    /// Lets the server's account write everything under the served folder (what the test
    /// wrote as root is only readable by it until then).
    public func openToServer() {
        let enumerator = FileManager.default.enumerator(atPath: folder.url.path)
        while let relative = enumerator?.nextObject() as? String {
            let path = folder.url.appendingPathComponent(relative).path
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFLNK else { continue }
            chmod(path, (info.st_mode & S_IFMT) == S_IFDIR ? 0o777 : 0o666)
        }
    }

    /// True while the server's main process runs.
    public var isRunning: Bool { lock.withLock { process?.isRunning ?? false } }

    /// The server's log so far (sshd's, smbd's or Apache's own messages), for failure messages.
    public var serverLog: String {
        var text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        if kind == .dav, let errors = try? String(contentsOf: state.url.appendingPathComponent("apache/error.log"), encoding: .utf8) {
            text += errors
        }
        return text
    }

    // MARK: Mounting through GVFS

    /// Mounts the server's root through GVFS (`g_file_mount_enclosing_volume`) in this
    /// process's session bus, answering the password prompt with the test account. Returns
    /// when the mount is ready; an error when GVFS refuses it.
    public func mount(timeout: TimeInterval = 60) throws {
        try GVFSMounter.mount(rootURI, user: ServerAccount.user, password: ServerAccount.password, timeout: timeout)
        lock.withLock { mounted = true }
    }

    /// Unmounts the server's mount through GVFS; nothing when it is not mounted.
    public func unmount(timeout: TimeInterval = 60) throws {
        try GVFSMounter.unmount(rootURI, timeout: timeout)
        lock.withLock { mounted = false }
    }

    /// True when GVFS has a mount for the server's root.
    public var isMounted: Bool { GVFSMounter.isMounted(rootURI) }

    // MARK: Life

    /// Ends the server at once (SIGKILL to it and every process it started, connections
    /// included), as a crash or a pulled cable would: for the "server gone" tests. The mount,
    /// if any, stays until GVFS notices.
    public func kill() {
        lock.withLock {
            if let process { Self.end(process, state: state.url, signal: SIGKILL) }
            process = nil
        }
    }

    /// Freezes the server (SIGSTOP to it and every process it started): connections stay
    /// open and nothing answers, as with a server that hangs. `resume()`, `kill()` or `stop()`
    /// end it.
    public func suspend() { signalTree(SIGSTOP) }

    /// Lets a suspended server run again.
    public func resume() { signalTree(SIGCONT) }

    private func signalTree(_ signal: Int32) {
        lock.withLock {
            guard let process else { return }
            for pid in ProcessTree.tree(under: process.processIdentifier) where pid != getpid() { Foundation.kill(pid, signal) }
        }
    }

    /// Starts the server again, on the same port with the same folder and configuration.
    public func restart(timeout: TimeInterval = 60) throws {
        kill()
        try launchServer(timeout: timeout)
    }

    /// Unmounts (when mounted) and ends the server. Also done when the object goes away.
    public func stop() {
        if lock.withLock({ mounted }) { try? unmount(timeout: 20) }
        lock.withLock {
            if let process { Self.end(process, state: state.url, signal: SIGTERM) }
            process = nil
        }
    }

    deinit { stop() }

    private func launchServer(timeout: TimeInterval) throws {
        let launch = try lock.withLock {
            if let launch = self.launch, launchPort == self.port { return launch }
            let made = try ServerLaunch.prepare(kind, port: self.port, share: folder.url, state: state.url)
            self.launch = made
            launchPort = self.port
            return made
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launch.program)
        process.arguments = launch.arguments
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        lock.withLock { self.process = process }
        let port = self.port
        let up = eventually(timeout: timeout) { !process.isRunning || LoopbackPort.accepts(port) }
        guard up, process.isRunning else {
            lock.withLock {
                Self.end(process, state: state.url, signal: SIGKILL)
                self.process = nil
            }
            throw RemoteServerError.notListening(kind, port, serverLog)
        }
    }
    private var launchPort: UInt16 = 0

    /// Signals the server's process tree, then every process whose command line names the
    /// server's own temporary folder (helpers a server detaches, such as Samba's
    /// samba-dcerpcd), and waits for the main process to end (SIGKILL after 20 s of SIGTERM).
    private static func end(_ process: Process, state: URL, signal: Int32) {
        let pids = ProcessTree.tree(under: process.processIdentifier) + processes(naming: state.path)
        for pid in Set(pids) where pid != getpid() {
            Foundation.kill(pid, signal)
            // A suspended server (`suspend()`) acts on SIGTERM only once it runs again.
            Foundation.kill(pid, SIGCONT)
        }
        if !eventually(timeout: 20, { !process.isRunning }) {
            for pid in ProcessTree.tree(under: process.processIdentifier) { Foundation.kill(pid, SIGKILL) }
        }
        process.waitUntilExit()
    }

    private static func processes(naming path: String) -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
            guard let pid = pid_t(name), let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline") else { return nil }
            return String(decoding: data, as: UTF8.self).contains(path) ? pid : nil
        }
    }

    private static func escapedPath(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ";?#")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
