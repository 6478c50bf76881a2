import CGLib
import Foundation
import GObjectSupport

extension ApplicationRegistry {
    /// How long a freshly started app is watched for failing at once (a missing program or
    /// interpreter): GIO starts apps through a small wrapper, so such a failure is not an
    /// error of the launch call itself but the wrapper's exit status.
    static let startupWatch: Duration = .milliseconds(300)

    /// Opens `locations` (paths or URIs) in `application`, in place: the app receives each
    /// file's own path or URI (`%f %F %u %U` as its `Exec` line asks; for `%u`/`%U` GIO passes
    /// local files as paths unless the entry says `X-GIO-NoFuse=true`), never a copy. An app
    /// that takes one file at a time is started once per file; a D-Bus activatable app is
    /// activated over the session bus.
    ///
    /// `environment` is added to the started app's environment (through the launch context's
    /// `setenv`): an app started by its `Exec` line sees it; a D-Bus activatable app is
    /// already running under the bus and does not.
    ///
    /// Blocks for up to 300 ms to see whether the app fails at once: call it off the main thread.
    public func open(_ locations: [String], with application: Application,
                     environment: [String: String] = [:]) throws(ApplicationError) {
        let names = locations.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
        func failure(_ reason: String) -> ApplicationError {
            .launchFailed(application: application.name, files: names, reason: reason)
        }
        if let problem = Self.problemStarting(application) {
            throw failure(problem)
        }
        var list: UnsafeMutablePointer<GList>?
        for location in locations.reversed() {
            let file = g_file_new_for_commandline_arg(location)
            list = g_list_prepend(list, g_file_get_uri(file))
            unref(file)
        }
        defer { g_list_free_full(list, g_free) }
        let context = g_app_launch_context_new()
        defer { unref(context) }
        TemporaryFiles.restore(in: context)
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
            g_app_launch_context_setenv(context, name, value)
        }

        let appInfo = application.info.appInfo
        guard let desktop = dossier_g_desktop_app_info(UnsafeMutableRawPointer(appInfo)),
              g_desktop_app_info_get_boolean(desktop, "DBusActivatable") == 0
        else {
            // D-Bus activation (or a non-desktop GAppInfo): GIO reports what it can.
            do {
                _ = try withGError { g_app_info_launch_uris(appInfo, list, context, $0) }
            } catch {
                throw failure("\(error)")
            }
            return
        }

        let started = StartedProcesses()
        let box = Unmanaged.passRetained(started)
        defer { box.release() }
        do {
            _ = try withGError { error in
                g_desktop_app_info_launch_uris_as_manager(
                    desktop, list, context, GSpawnFlags(rawValue: DOSSIER_G_SPAWN_SEARCH_PATH | DOSSIER_G_SPAWN_DO_NOT_REAP_CHILD),
                    nil, nil, { _, pid, data in
                        Unmanaged<StartedProcesses>.fromOpaque(data!).takeUnretainedValue().pids.append(pid)
                    }, box.toOpaque(), error)
            }
        } catch {
            throw failure("\(error)")
        }
        if let problem = started.watchStartup(for: Self.startupWatch) {
            throw failure(problem)
        }
    }

    /// Checks what GIO does not before starting an app: that its program, and the interpreter
    /// of a script, can still be executed. Returns why not, or nil.
    static func problemStarting(_ application: Application) -> String? {
        guard let executable = borrowString(g_app_info_get_executable(application.info.appInfo)), !executable.isEmpty else {
            return nil
        }
        guard let program = takeString(g_find_program_in_path(executable)) else {
            return tr("the program '%s' is not installed", executable)
        }
        // A script whose interpreter is gone fails inside exec, after GIO's launch returned.
        guard let handle = FileHandle(forReadingAtPath: program) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 256)) ?? Data()
        guard head.starts(with: Array("#!".utf8)) else { return nil }
        let line = String(decoding: head.dropFirst(2).prefix { $0 != 0x0a }, as: UTF8.self)
        guard let interpreter = line.split(separator: " ", omittingEmptySubsequences: true).first.map(String.init),
              interpreter.hasPrefix("/")
        else { return nil }
        if access(interpreter, X_OK) != 0 {
            return tr("its interpreter '%s' is missing", interpreter)
        }
        return nil
    }
}

/// The processes one launch started, watched briefly, then left to a GLib child watch.
private final class StartedProcesses {
    var pids: [GPid] = []

    /// Waits up to `duration` for a process to exit with a failure; returns why, or nil.
    /// Processes still running afterwards are reaped by a child watch when they end.
    func watchStartup(for duration: Duration) -> String? {
        let clock = ContinuousClock()
        let deadline = clock.now + duration
        var running = pids
        var problem: String?
        while !running.isEmpty, problem == nil, clock.now < deadline {
            for pid in running {
                var status: Int32 = 0
                guard waitpid(pid, &status, WNOHANG) == pid else { continue }
                running.removeAll { $0 == pid }
                let exitCode = (status >> 8) & 0xff
                let signal = status & 0x7f
                if signal != 0 {
                    problem = tr("it was stopped by signal %s as it started", String(signal))
                } else if exitCode != 0 {
                    problem = tr("it exited at once with status %s", String(exitCode))
                }
            }
            if !running.isEmpty { usleep(10_000) }
        }
        for pid in running {
            g_child_watch_add(pid, { pid, _, _ in g_spawn_close_pid(pid) }, nil)
        }
        return problem
    }
}
