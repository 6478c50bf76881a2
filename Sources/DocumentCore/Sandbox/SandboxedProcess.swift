import CGLib
import Foundation
import Synchronization

/// Stops a `SandboxedProcess` early, from any thread (the preview that wanted its output is
/// gone): the helper's whole process group is killed at its next look, within milliseconds.
package final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    /// Makes a flag that is not set.
    package init() {}

    /// Sets the flag: the process group is killed at the runner's next look.
    package func cancel() { flag.store(true, ordering: .relaxed) }

    /// Whether `cancel()` was called.
    package var isCancelled: Bool { flag.load(ordering: .relaxed) }
}

/// Runs a helper program (an external thumbnailer) in its own process group, with nothing on
/// its standard input and the file it reads, if any, on descriptor `Sandbox.inputDescriptor`,
/// capturing the start of its error output, and kills the whole group when it overruns its
/// time: a hanging or crashing helper fails one file, never the caller.
package struct SandboxedProcess: Sendable {
    /// How the helper's run ended.
    package enum Outcome: Equatable, Sendable {
        /// It exited with this status; `errors` is the start of its error output.
        case exited(Int32, errors: String)
        /// A signal ended it (a crash, or a limit), with the signal's number.
        case signalled(Int32)
        /// It ran past its timeout and its process group was killed.
        case timedOut
        /// Stopped through its `CancellationFlag`.
        case cancelled
    }

    /// The program and its arguments, the program first (looked up in `PATH` when it has no "/").
    package let arguments: [String]
    /// The open file the helper inherits on `Sandbox.inputDescriptor`; the caller closes it.
    package let input: Int32?

    /// Makes a runner for the program and arguments in `arguments`, the program first, that
    /// hands the helper `input` (an open file) on `Sandbox.inputDescriptor`.
    package init(arguments: [String], input: Int32? = nil) {
        self.arguments = arguments
        self.input = input
    }

    /// Runs the program to its end, or kills its whole process group at `timeout`, or as soon
    /// as `cancellation` is set.
    package func run(timeout: Duration, cancellation: CancellationFlag? = nil) -> Outcome {
        var errorPipe: [Int32] = [0, 0]
        guard pipe(&errorPipe) == 0 else { return .exited(127, errors: String(cString: strerror(errno))) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        posix_spawn_file_actions_addclose(&actions, errorPipe[0])
        // Copied above the low descriptors first: dup2 onto the number it already has would
        // keep its close-on-exec flag, and the copy made here has it, so no other child gets it.
        let inherited = input.map { fcntl($0, F_DUPFD_CLOEXEC, 10) } ?? -1
        defer { if inherited >= 0 { close(inherited) } }
        if input != nil {
            guard inherited >= 0 else {
                let reason = String(cString: strerror(errno))
                close(errorPipe[1])
                close(errorPipe[0])
                return .exited(127, errors: reason)
            }
            posix_spawn_file_actions_adddup2(&actions, inherited, Sandbox.inputDescriptor)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        close(errorPipe[1])
        defer { close(errorPipe[0]) }
        guard spawned == 0 else { return .exited(127, errors: String(cString: strerror(spawned))) }

        // Collect a little of stderr while waiting, so a chatty helper cannot block on a full pipe.
        _ = fcntl(errorPipe[0], F_SETFL, O_NONBLOCK)
        var errors = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while true {
            let count = read(errorPipe[0], &buffer, buffer.count)
            if count > 0 && errors.count < 16 * 1024 { errors.append(contentsOf: buffer[0..<count]) }
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            let cancelled = cancellation?.isCancelled == true
            if cancelled || ContinuousClock.now >= deadline {
                kill(-pid, SIGKILL)
                waitpid(pid, &status, 0)
                return cancelled ? .cancelled : .timedOut
            }
            usleep(2_000)
        }
        kill(-pid, SIGKILL)  // anything the helper left running in its group
        let signal = status & 0x7f
        if signal != 0 { return .signalled(signal) }
        let firstLine = String(decoding: errors, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        return .exited((status >> 8) & 0xff, errors: firstLine)
    }
}
