import CGLib
import CImaging
import CSandbox
import DecoderWire
import Foundation
import GObjectSupport

/// A process that decodes untrusted files for the previewer and the thumbnailers, so that a
/// memory bug in a decoding library runs in a process that holds nothing: not the session, not
/// the user's files, not the D-Bus connection.
///
/// The worker is `dossier-decoder`, started under bubblewrap (no network, nothing of the file
/// system but /usr and the libraries' read-only data, no capabilities) where bubblewrap runs,
/// and in every case locking itself down before it reads any input: limits on address space,
/// CPU time and file size, and a seccomp filter that denies sockets, writing files, running
/// programs and touching other processes (`dossier_worker_lock_down`). The input comes as an
/// open, read-only file descriptor; pixels come back in sealed memfds (`SealedBlob`).
///
/// A worker serves one request at a time and is kept for the next. One that crashes, hangs past
/// its timeout or exceeds a limit is killed; that request fails with a `Failure`, and the next
/// request starts a new worker.
package final class DecoderWorker: @unchecked Sendable {
    // @unchecked: the process and its socket are reached only under `state`'s lock.

    /// How the worker is confined.
    package enum Confinement: String, Sendable {
        /// bubblewrap's namespaces, then the worker's own limits and seccomp filter.
        case bubblewrap
        /// Where bubblewrap cannot run (missing, or user namespaces off): the limits and the
        /// seccomp filter only. Still out of process; never in-process.
        case seccompOnly

        /// bubblewrap when it works on this machine (tried once, by running it), else seccomp
        /// only; the first time it is not, Dossier says so once in the log. For `dossier
        /// --version` and the tests: a worker left to choose tries bubblewrap with its own start
        /// instead, which costs a process less (`DecoderWorker.init`).
        package static var best: Confinement { bubblewrapWorks ? .bubblewrap : .seccompOnly }

        private static let bubblewrapWorks: Bool = {
            guard let bwrap = bubblewrapPath else { return false }
            let works = SandboxedProcess(arguments: [bwrap] + bubblewrapArguments(readOnly: []) + ["/usr/bin/true"])
                .run(timeout: .seconds(30)) == .exited(0, errors: "")
            if !works { noteBubblewrapCannotRun(bwrap) }
            return works
        }()

        /// bubblewrap's path, found in PATH once.
        static let bubblewrapPath: String? = takeString(g_find_program_in_path("bwrap"))

        /// The bubblewraps that could not start a worker here (in this process's life).
        private static let failed = Locked(Set<String>())

        /// What a worker left to choose uses: bubblewrap, unless it is missing or could not start
        /// a worker before.
        static func chosen(bubblewrap: String?) -> Confinement {
            guard let bubblewrap else { return .seccompOnly }
            return failed.withLock { $0.contains(bubblewrap) } ? .seccompOnly : .bubblewrap
        }

        /// Remembers that `bubblewrap` cannot run here, and says so in the log the first time.
        static func noteBubblewrapCannotRun(_ bubblewrap: String) {
            guard failed.withLock({ $0.insert(bubblewrap).inserted }) else { return }
            FileHandle.standardError.write(Data(
                "dossier: bubblewrap cannot run here: files are decoded in a separate process confined by seccomp and limits only\n".utf8))
        }
    }

    /// What one worker may use.
    package struct Limits: Sendable {
        /// Address space, in bytes (RLIMIT_AS).
        package var addressSpace: UInt64 = 4 << 30
        /// CPU time for one request, in seconds (a soft RLIMIT_CPU raised before each request).
        package var cpuSecondsPerRequest: UInt32 = 30
        /// CPU time over the worker's life, in seconds; a worker that spent it is replaced.
        package var cpuSecondsInAll: UInt32 = 600
        /// The largest memfd a result may take, in bytes (RLIMIT_FSIZE).
        package var largestResult: UInt64 = 1 << 30
        /// Wall-clock time for one request.
        package var timeout: Duration = .seconds(60)
        /// The worker's CPU priority as a nice value, 0 to 19: above 0 for work nobody watches
        /// being made (the thumbnails take 10), so that a frame's drawing goes first. Set for the
        /// worker's scheduling group too, which decides where the kernel groups by session
        /// (autogroup): a worker has a session of its own (`dossier_worker_lower_priority`).
        package var niceness: Int32 = 0

        /// The default limits: 4 GiB of address space, 30 s of CPU a request, 600 s in all, results
        /// up to 1 GiB, 60 s a request, the caller's CPU priority.
        package init() {}
    }

    /// Why a request failed.
    package enum Failure: Error, Equatable, Sendable {
        /// The decoder reported the input as bad, with its message.
        case decoder(String)
        /// The worker died during the request (a crash, a limit, or a denied call it did not survive).
        case crashed(String)
        /// The worker ran past the timeout and was killed.
        case timedOut
        /// The worker could not be started.
        case cannotStart(String)
        /// Dropped before it was sent: whoever asked no longer wanted it (`Cancellation`).
        case cancelled
    }

    /// A result: small values by name, and the large one (pixels), when there is one.
    package struct Output: Sendable {
        /// Small results by name (sizes, counts, text), as the worker sent them: check them before use.
        package let values: [String: String]
        /// The large result (pixels, a listing) in a sealed memfd, when there is one.
        package let blob: SealedBlob?
    }

    /// How the worker is confined (bubblewrap and seccomp, or seccomp and limits only): as it
    /// was asked, or for a worker left to choose, bubblewrap until a start finds it cannot run.
    package var confinement: Confinement { requested ?? Confinement.chosen(bubblewrap: bubblewrap) }
    /// What the worker may use.
    package let limits: Limits
    private let requested: Confinement?
    private let bubblewrap: String?
    private let executable: String
    private let state = Locked(Running?.none)

    private struct Running: Sendable {
        let pid: pid_t
        let socket: FileDescriptor
        let confinement: Confinement
        /// The worker said which protocol it speaks (its first packet), and it is this build's.
        var isGreeted = false
        /// The worker has answered a request: it started.
        var hasAnswered = false
    }

    /// A worker (started at its first request) confined by `confinement`, within `limits`.
    /// Left to choose (nil), it tries bubblewrap with its first start rather than by running
    /// it beforehand: a worker that bubblewrap could not start is started again with seccomp and
    /// limits only, which it says once in the log, and so are the later ones.
    /// `testFormats` starts the test decoder instead, which also misbehaves on request (the
    /// containment tests); `bubblewrap` replaces the one in PATH (the tests' bubblewrap that
    /// cannot run).
    package convenience init(confinement: Confinement? = nil, limits: Limits = Limits(), executable: String? = nil,
                            testFormats: Bool = false) {
        self.init(confinement: confinement, limits: limits, executable: executable, testFormats: testFormats,
                  bubblewrap: Confinement.bubblewrapPath)
    }

    package init(confinement: Confinement?, limits: Limits, executable: String?, testFormats: Bool, bubblewrap: String?) {
        requested = confinement
        self.limits = limits
        self.executable = executable ?? (testFormats ? Self.testExecutable : Self.defaultExecutable)
        self.bubblewrap = bubblewrap
    }

    deinit {
        state.withLock { running in
            if let worker = running { Self.stop(worker) }
            running = nil
        }
    }

    /// Starts the worker now if it is not running, so that the next request does not wait for
    /// it to load its libraries; blocks only while the process is made, which is quick.
    /// A start reads the environment on the calling thread only, and the process is made from a
    /// thread that reads none: the caller may change the environment as soon as this returns,
    /// with the worker still starting (the previewer service's start).
    package func prestart() {
        state.withLock { running in
            if running == nil { running = try? start() }
        }
    }

    /// The running worker's process (bubblewrap's, under bubblewrap), or nil when none runs: for
    /// the tests that end a worker from outside, as the kernel's OOM killer would. Waits for a
    /// request in progress.
    package var processID: pid_t? { state.withLock { $0?.pid } }

    /// Sends `request` with the file open at `input` (read-only; the caller keeps it); blocks
    /// until the worker answers, dies or times out. Not on the main thread.
    package func perform(_ request: DecoderRequest, input: FileDescriptor) throws(Failure) -> Output {
        try state.withLock { running in
            Result { () throws(Failure) -> Output in try exchange(request, input: input, running: &running) }
        }.get()
    }

    /// Sends `request` as `perform` does when the worker is running; nil, and no worker
    /// started, when it is not.
    package func performIfRunning(_ request: DecoderRequest, input: FileDescriptor) throws(Failure) -> Output? {
        try state.withLock { running in
            Result { () throws(Failure) -> Output? in
                guard running != nil else { return nil }
                return try exchange(request, input: input, running: &running)
            }
        }.get()
    }

    /// One request and its reply, with the lock held; `running` is cleared when the worker ended.
    /// A worker that bubblewrap, chosen by itself, could not start is started again without it.
    private func exchange(_ request: DecoderRequest, input: FileDescriptor, running: inout Running?) throws(Failure) -> Output {
        do {
            return try exchangeOnce(request, input: input, running: &running)
        } catch .cannotStartUnderBubblewrap(let bwrap) {
            Confinement.noteBubblewrapCannotRun(bwrap)
            return try Result { () throws(Ending) -> Output in
                try exchangeOnce(request, input: input, running: &running)
            }.mapError(\.failure).get()
        } catch {
            throw error.failure
        }
    }

    /// How an exchange ended without an answer: a failure, or a start that bubblewrap could not
    /// make (it exits with 1 before the worker runs, which the worker never does).
    private enum Ending: Error {
        case failed(Failure)
        case cannotStartUnderBubblewrap(String)

        var failure: Failure {
            switch self {
            case .failed(let failure): failure
            case .cannotStartUnderBubblewrap: .cannotStart(tr("bubblewrap cannot run here"))
            }
        }
    }

    /// The worker ended with no answer: why, and whether it was a start bubblewrap could not make.
    private func ended(_ worker: Running) -> Ending {
        let (how, status) = Self.stop(worker)
        if requested == nil, worker.confinement == .bubblewrap, !worker.hasAnswered, let bubblewrap,
           let status, status & 0x7f == 0, (status >> 8) & 0xff == 1 {
            return .cannotStartUnderBubblewrap(bubblewrap)
        }
        return .failed(.crashed(how))
    }

    private func exchangeOnce(_ request: DecoderRequest, input: FileDescriptor, running: inout Running?) throws(Ending) -> Output {
        if running == nil { running = try Result { () throws(Failure) in try start() }.mapError(Ending.failed).get() }
        guard let worker = running else { throw .failed(.cannotStart("no worker")) }
        StageTrace.mark("send \(request.name)")
        guard DecoderWire.send(request, with: input, on: worker.socket) else {
            running = nil
            throw ended(worker)
        }
        if !worker.isGreeted {
            try receiveHello(from: worker, running: &running)
        }
        guard DecoderWire.wait(on: worker.socket, timeout: limits.timeout) else {
            running = nil
            Self.stop(worker)
            throw .failed(.timedOut)
        }
        StageTrace.mark("reply \(request.name)")
        switch DecoderWire.receive(DecoderReply.self, on: worker.socket) {
        case .message(let reply, let fd):
            running?.hasAnswered = true
            if reply.isLeaving {
                running = nil
                Self.stop(worker)
            }
            let blob = fd.flatMap { SealedBlob(adopting: $0.rawValue) }
            if let error = reply.error { throw .failed(.decoder(error)) }
            if fd != nil, blob == nil { throw .failed(.decoder("the worker's result was not sealed")) }
            return Output(values: reply.values, blob: blob)
        case .end, .garbled:
            running = nil
            throw ended(worker)
        }
    }

    /// A new worker's first packet: the protocol it speaks, which must be this build's (a
    /// `dossier-decoder` left from another version is not used).
    private func receiveHello(from worker: Running, running: inout Running?) throws(Ending) {
        guard DecoderWire.wait(on: worker.socket, timeout: limits.timeout) else {
            running = nil
            Self.stop(worker)
            throw .failed(.timedOut)
        }
        switch DecoderWire.receive(DecoderHello.self, on: worker.socket) {
        case .message(let hello, let fd):
            fd?.close()
            guard hello.version == DecoderHello.currentVersion else {
                running = nil
                Self.stop(worker)
                throw .failed(.cannotStart(tr("the decoder speaks protocol %s, not %s", String(hello.version),
                                              String(DecoderHello.currentVersion))))
            }
            running?.isGreeted = true
        case .end, .garbled:
            running = nil
            throw ended(worker)
        }
    }

    /// True where GdkPixbuf hands images to glycin (gdk-pixbuf 2.44 and later, Debian testing):
    /// glycin then decodes them in sandboxed processes of its own, which it starts with a
    /// temporary file and bubblewrap, both denied inside a worker. There, GdkPixbuf is called
    /// from the process that asks, and the decoding is still out of it.
    package static let pixbufDecodesThroughGlycin: Bool = {
        g_slist_free(gdk_pixbuf_get_formats())
        return mappedLibrary(named: "libglycin-2.so.0") != nil
    }()

    // MARK: Starting and stopping

    /// The test decoder, `DossierTestDecoder`, next to the running program (the test bundle):
    /// `dossier-decoder`'s decoders and the misbehaviours the containment tests ask for.
    /// `DOSSIER_TEST_DECODER` overrides.
    static var testExecutable: String {
        if let path = ProcessInfo.processInfo.environment["DOSSIER_TEST_DECODER"] { return path }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("DossierTestDecoder").path
    }

    /// `dossier-decoder` next to the running program (the build folder, or bin/ when installed
    /// beside it), or in ../libexec/dossier; `DOSSIER_DECODER` overrides.
    static var defaultExecutable: String {
        if let path = ProcessInfo.processInfo.environment["DOSSIER_DECODER"] { return path }
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let beside = folder.appendingPathComponent("dossier-decoder").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return folder.deletingLastPathComponent().appendingPathComponent("libexec/dossier/dossier-decoder").path
    }

    private func start() throws(Failure) -> Running {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw .cannotStart(tr("the decoder %s is missing", executable))
        }
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw .cannotStart(String(cString: strerror(errno)))
        }
        defer { close(pair[1]) }
        // The real path: inside bubblewrap only the folder it is really in is bound.
        let program = URL(fileURLWithPath: executable).resolvingSymlinksInPath().path
        var command = [program, "--socket", "3", "--address-space", String(limits.addressSpace),
                       "--cpu", String(limits.cpuSecondsInAll), "--cpu-per-request", String(limits.cpuSecondsPerRequest),
                       "--largest-result", String(limits.largestResult)]
        if limits.niceness > 0 { command += ["--nice", String(min(limits.niceness, 19))] }
        // GStreamer's plugin registry, the caller's, read-only (see GStreamerRegistry).
        var environment = Self.environment
        let registry = GStreamerRegistry.path
        let confinement = confinement
        if confinement == .bubblewrap, let bubblewrap {
            command = [bubblewrap] + Self.bubblewrapArguments(readOnly: Self.foldersOutsideUsr(for: program),
                                                              files: [(registry, GStreamerRegistry.pathInWorker)]) + command
            environment.append("GST_REGISTRY_1_0=" + GStreamerRegistry.pathInWorker)
        } else {
            environment.append("GST_REGISTRY_1_0=" + registry)
        }
        let pid = Self.spawn(command, environment: environment, socket: pair[1])
        StageTrace.mark("worker spawned \(pid)")
        guard pid > 0 else {
            close(pair[0])
            throw .cannotStart(String(cString: strerror(errno)))
        }
        return Running(pid: pid, socket: FileDescriptor(rawValue: pair[0]),
                       confinement: bubblewrap == nil ? .seccompOnly : confinement)
    }

    /// Kills the worker (and, under bubblewrap, its namespace with it), reaps it and says how it
    /// ended, with its wait status when it ended by itself.
    @discardableResult
    private static func stop(_ worker: Running) -> (description: String, status: Int32?) {
        worker.socket.close()
        var status: Int32 = 0
        // A worker that is ending on its own (a crash) is given a moment to be reaped as it ends.
        for _ in 0..<100 {
            if waitpid(worker.pid, &status, WNOHANG) == worker.pid { return (describe(status), status) }
            usleep(2_000)
        }
        kill(-worker.pid, SIGKILL)
        kill(worker.pid, SIGKILL)
        while waitpid(worker.pid, &status, 0) < 0 && errno == EINTR {}
        return (tr("it was stopped"), nil)
    }

    private static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f, code = (status >> 8) & 0xff
        // bubblewrap passes a signalled worker's end on as 128 + the signal.
        let number = signal != 0 ? signal : code > 128 ? code - 128 : 0
        guard number != 0 else { return tr("it exited with status %s", String(code)) }
        return tr("it was ended by signal %s (%s)", String(number), String(cString: strsignal(number)))
    }

    /// The worker's environment: nothing of the caller's but what the libraries need to load.
    private static let environment: [String] = {
        var environment = ["PATH=/usr/bin:/bin", "LANG=C.UTF-8", "HOME=/nonexistent", "XDG_CACHE_HOME=/nonexistent",
                           "MALLOC_ARENA_MAX=2", "GIO_USE_VFS=local", "GSETTINGS_BACKEND=memory",
                           "GST_REGISTRY_UPDATE=no", "GST_REGISTRY_FORK=no"]
        let caller = ProcessInfo.processInfo.environment
        // The user's language, so that the decoders' messages are in it; a library chosen
        // for the tests (a missing one must end on an error page).
        for name in ["LD_LIBRARY_PATH", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_CTYPE", "DOSSIER_ARCHIVE_LIBRARY",
                     "DOSSIER_TRACE_STAGES", "DOSSIER_POPPLER_LIBRARY", "DOSSIER_GSTREAMER_LIBRARY"] {
            if let value = caller[name] { environment.append(name + "=" + value) }
        }
        if let lang = caller["LANG"] { environment[1] = "LANG=" + lang }
        if let locales = Localization.localeDirectory() { environment.append("DOSSIER_LOCALEDIR=" + locales) }
        return environment
    }()

    /// bubblewrap's arguments for a worker: a new namespace of every kind (no network), /usr and
    /// the libraries' data read-only, no /tmp, no home, no capabilities, a read-only root;
    /// `files` are bound read-only where they are named, when they exist.
    static func bubblewrapArguments(readOnly: [String], files: [(String, String)] = []) -> [String] {
        ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
         "--ro-bind", "/usr", "/usr",
         "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
         "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
         "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache",
         "--ro-bind-try", "/etc/fonts", "/etc/fonts",
         "--ro-bind-try", "/var/cache/fontconfig", "/var/cache/fontconfig",
         "--proc", "/proc", "--dev", "/dev", "--chdir", "/"]
            + readOnly.flatMap { ["--ro-bind", $0, $0] }
            + files.flatMap { ["--ro-bind-try", $0.0, $0.1] }
            + ["--remount-ro", "/", "--"]
    }

    /// The worker's own folder and the folders of the Swift runtime, LD_LIBRARY_PATH and
    /// Dossier's translations, when they are not under /usr (a build folder, /opt/swift).
    private static func foldersOutsideUsr(for executable: String) -> [String] {
        let folders = [URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent().path] + librariesOutsideUsr
        var seen = Set<String>()
        return folders.filter { !$0.hasPrefix("/usr/") && FileManager.default.fileExists(atPath: $0) && seen.insert($0).inserted }
    }

    /// The folders of the Swift runtime (where it is a shared library: a debug build's),
    /// LD_LIBRARY_PATH and Dossier's translations, found once.
    private static let librariesOutsideUsr: [String] = {
        var folders: [String] = []
        // The library that holds the runtime's swift_retain: found by the loader, not by reading
        // /proc/self/maps, which a release build (the runtime linked in) read to its end.
        if let runtime = dossier_object_defining("swift_retain") {
            folders.append((String(cString: runtime) as NSString).deletingLastPathComponent)
        }
        folders += (ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"] ?? "").split(separator: ":").map(String.init)
        if let locales = Localization.localeDirectory() { folders.append(locales) }
        return folders
    }()

    /// The path of a shared library this process has loaded, from /proc/self/maps (read line by
    /// line: procfs files report no size, so a whole-file read gets nothing).
    private static func mappedLibrary(named name: String) -> String? {
        mappedLibrary { $0.hasSuffix("/" + name) }
    }

    /// The path of a library mapped into this process whose file name starts with `prefix`
    /// (`libgdk_pixbuf-2.0.so` finds `libgdk_pixbuf-2.0.so.0.4200.10`).
    static func mappedLibrary(prefix: String) -> String? {
        mappedLibrary { $0.split(separator: "/").last?.hasPrefix(prefix) == true }
    }

    private static func mappedLibrary(where matches: (String) -> Bool) -> String? {
        guard let maps = fopen("/proc/self/maps", "r") else { return nil }
        defer { fclose(maps) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, maps) > 0, let line {
            let text = String(cString: line).trimmingCharacters(in: .whitespacesAndNewlines)
            if text.contains("/"), matches(text), let path = text.split(separator: " ").last { return String(path) }
        }
        return nil
    }

    /// Starts workers from one thread that lives as long as the process: bubblewrap's
    /// --die-with-parent ends the worker when the thread that started it ends, not the process.
    private static func spawn(_ command: [String], environment: [String], socket: Int32) -> pid_t {
        Spawner.shared.run { spawnWorker(command, environment, socket) }
    }
}

/// `dossier_worker_spawn` with Swift strings.
private func spawnWorker(_ command: [String], _ environment: [String], _ socket: Int32) -> pid_t {
    let argv = command.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    return dossier_worker_spawn(argv, envp, socket)
}

/// One thread kept for the life of the process, that runs what is given to it and returns the result.
private final class Spawner: @unchecked Sendable {
    // @unchecked: `pending` and `result` are reached only under `condition`'s lock.
    static let shared = Spawner()

    private let condition = NSCondition()
    private let serial = NSLock()
    private var pending: (@Sendable () -> pid_t)?
    private var result: pid_t?

    private init() {
        let thread = Thread { [unowned self] in loop() }
        thread.name = "dossier-worker-spawner"
        thread.start()
    }

    func run(_ work: @escaping @Sendable () -> pid_t) -> pid_t {
        serial.lock()
        defer { serial.unlock() }
        condition.lock()
        pending = work
        result = nil
        condition.broadcast()
        while result == nil { condition.wait() }
        let pid = result!
        condition.unlock()
        return pid
    }

    private func loop() {
        while true {
            condition.lock()
            while pending == nil { condition.wait() }
            let work = pending!
            pending = nil
            condition.unlock()
            let pid = work()
            condition.lock()
            result = pid
            condition.broadcast()
            condition.unlock()
        }
    }
}
