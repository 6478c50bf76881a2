import Foundation

/// A server's main process, started with posix_spawn and reaped here with `waitpid`.
///
/// Not Foundation's `Process`: on Linux it learns that a child ended when a socket the child
/// inherited is closed, and then waits for it with a blocking `waitpid` on the one thread that
/// reaps every `Process`. sshd closes every inherited descriptor when it re-executes itself, so
/// Foundation takes it for dead and blocks in `waitpid` on a running sshd: from then on no
/// `Process` of the test (`dossier ls` run by a test, say) is ever seen to end.
final class ServerProcess: @unchecked Sendable {
    // @unchecked: `exited` is read and written under `lock`.
    let pid: pid_t
    private let lock = NSLock()
    private var exited = false

    /// Starts `program` with `arguments`, its standard output and errors appended to `log`,
    /// its standard input /dev/null.
    init(program: String, arguments: [String], log: URL) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // A process group of its own: smbd signals its group when it ends, which took the test
        // process with it; and the fixture can signal the server's whole group.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program, &actions, &attributes, argv, environ)
        guard status == 0 else { throw RemoteServerError.setupFailed(program, String(cString: strerror(status))) }
        self.pid = pid
    }

    /// True until the process has ended (and then it is reaped).
    var isRunning: Bool {
        lock.withLock {
            guard !exited else { return false }
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result == -1 && errno == ECHILD) { exited = true }
            return !exited
        }
    }

    /// Waits until the process has ended; false when it is still running after `timeout`.
    @discardableResult
    func waitForExit(timeout: TimeInterval) -> Bool {
        eventually(timeout: timeout) { !isRunning }
    }
}
