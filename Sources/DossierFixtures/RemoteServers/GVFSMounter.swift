import CGLib
import Foundation

/// Mounts and unmounts through the session's real GVFS (the client in this process, gvfsd
/// and its backends D-Bus-activated on the session bus), as Files does: the asynchronous GIO
/// calls run on a thread of their own with a main context of its own, so that the caller
/// (a test on the main thread, say) only waits for their end.
enum GVFSMounter {
    /// Mounts the location enclosing `uri`, answering GVFS's password prompts with `user` and
    /// `password` (twice at most: a third prompt means the password is wrong) and its
    /// questions (an unknown host key) with the first choice. A location already mounted is
    /// not an error.
    static func mount(_ uri: String, user: String, password: String, timeout: TimeInterval) throws {
        let answers = MountAnswers(user: user, password: password)
        try PrivateLoop.run(timeout: timeout, what: "mount \(uri)") { call in
            let file = g_file_new_for_uri(uri)
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            let operation = g_mount_operation_new()!
            let box = Unmanaged.passRetained(answers).toOpaque()
            g_signal_connect_data(UnsafeMutableRawPointer(operation), "ask-password",
                                  unsafeBitCast(askPassword, to: GCallback.self), box,
                                  { data, _ in Unmanaged<MountAnswers>.fromOpaque(data!).release() }, GConnectFlags(rawValue: 0))
            g_signal_connect_data(UnsafeMutableRawPointer(operation), "ask-question",
                                  unsafeBitCast(askQuestion, to: GCallback.self), nil, nil, GConnectFlags(rawValue: 0))
            g_file_mount_enclosing_volume(file, GMountMountFlags(rawValue: 0), operation, call.cancellable, { source, result, data in
                var error: UnsafeMutablePointer<GError>?
                g_file_mount_enclosing_volume_finish(OpaquePointer(source), result, &error)
                PrivateLoop.Call.from(data).finish(error.map { GLibErrorText(consuming: $0) }, ignoring: G_IO_ERROR_ALREADY_MOUNTED)
            }, call.opaque)
            g_object_unref(operation)
        } failure: { message in RemoteServerError.mountFailed(uri, message) }
    }

    /// Unmounts the mount enclosing `uri` (forcing it: files the test left open do not keep
    /// it); nothing when there is none.
    static func unmount(_ uri: String, timeout: TimeInterval) throws {
        try PrivateLoop.run(timeout: timeout, what: "unmount \(uri)") { call in
            guard let mount = enclosingMount(uri) else { return call.finish(nil) }
            g_mount_unmount_with_operation(mount, GMountUnmountFlags(rawValue: DOSSIER_G_MOUNT_UNMOUNT_FORCE), nil, call.cancellable, { source, result, data in
                var error: UnsafeMutablePointer<GError>?
                g_mount_unmount_with_operation_finish(OpaquePointer(source), result, &error)
                PrivateLoop.Call.from(data).finish(error.map { GLibErrorText(consuming: $0) }, ignoring: G_IO_ERROR_NOT_MOUNTED)
            }, call.opaque)
            g_object_unref(UnsafeMutableRawPointer(mount))
        } failure: { message in RemoteServerError.mountFailed(uri, message) }
    }

    /// True when GVFS has a mount enclosing `uri`.
    static func isMounted(_ uri: String) -> Bool {
        guard let mount = enclosingMount(uri) else { return false }
        g_object_unref(UnsafeMutableRawPointer(mount))
        return true
    }

    private static func enclosingMount(_ uri: String) -> OpaquePointer? {
        let file = g_file_new_for_uri(uri)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        let mount = g_file_find_enclosing_mount(file, nil, &error)
        if let error { g_error_free(error) }
        return mount
    }
}

/// What the mount operation answers, and how often it was asked.
private final class MountAnswers: @unchecked Sendable {
    // @unchecked: `prompts` changes only on the mount's own loop thread.
    let user: String
    let password: String
    var prompts = 0
    init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}

// GMountOperation::ask-password (operation, message, default user, default domain, flags).
private typealias AskPassword = @convention(c) (
    UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, guint, gpointer?) -> Void
private let askPassword: AskPassword = { operation, _, _, _, _, data in
    let answers = Unmanaged<MountAnswers>.fromOpaque(data!).takeUnretainedValue()
    let operation = operation!.assumingMemoryBound(to: GMountOperation.self)
    answers.prompts += 1
    guard answers.prompts <= 2 else { return g_mount_operation_reply(operation, G_MOUNT_OPERATION_ABORTED) }
    g_mount_operation_set_username(operation, answers.user)
    g_mount_operation_set_password(operation, answers.password)
    g_mount_operation_set_domain(operation, "WORKGROUP")
    g_mount_operation_set_anonymous(operation, 0)
    g_mount_operation_set_password_save(operation, G_PASSWORD_SAVE_NEVER)
    g_mount_operation_reply(operation, G_MOUNT_OPERATION_HANDLED)
}

// GMountOperation::ask-question (operation, message, choices): the first choice, which is
// GVFS's "Log In Anyway" for an unknown host key.
private typealias AskQuestion = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, gpointer?, gpointer?) -> Void
private let askQuestion: AskQuestion = { operation, _, _, _ in
    let operation = operation!.assumingMemoryBound(to: GMountOperation.self)
    g_mount_operation_set_choice(operation, 0)
    g_mount_operation_reply(operation, G_MOUNT_OPERATION_HANDLED)
}

/// A GError's message, copied and freed, with its code for the caller to ignore.
struct GLibErrorText {
    let code: Int32
    let isIOError: Bool
    let message: String
    init(consuming error: UnsafeMutablePointer<GError>) {
        code = error.pointee.code
        isIOError = error.pointee.domain == g_io_error_quark()
        message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        g_error_free(error)
    }
}

/// One asynchronous GIO call run to its end on a thread with its own thread-default main
/// context: the call's callback and the mount operation's signals are dispatched there.
enum PrivateLoop {
    final class Call: @unchecked Sendable {
        // @unchecked: touched only on the loop's thread, then read after it joined.
        let cancellable = g_cancellable_new()
        var done = false
        var error: String?
        var opaque: gpointer { Unmanaged.passUnretained(self).toOpaque() }
        static func from(_ data: gpointer?) -> Call { Unmanaged<Call>.fromOpaque(data!).takeUnretainedValue() }

        /// Ends the call, with `error` unless it is the G_IO_ERROR code `ignoring`.
        func finish(_ error: GLibErrorText?, ignoring: GIOErrorEnum? = nil) {
            if let error, !(error.isIOError && ignoring.map({ Int32($0.rawValue) }) == error.code) {
                self.error = error.message
            }
            done = true
        }
        deinit { g_object_unref(UnsafeMutableRawPointer(cancellable)) }
    }

    static func run(timeout: TimeInterval, what: String, _ start: @escaping @Sendable (Call) -> Void,
                    failure: (String) -> RemoteServerError) throws {
        let call = Call()
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var timedOut = false
        let thread = Thread {
            let context = g_main_context_new()
            g_main_context_push_thread_default(context)
            start(call)
            let deadline = Date().addingTimeInterval(timeout)
            while !call.done {
                if Date() > deadline, !timedOut {
                    // Let GIO end the call with G_IO_ERROR_CANCELLED rather than leaving it behind.
                    timedOut = true
                    g_cancellable_cancel(call.cancellable)
                }
                // A timeout source wakes the iteration, so the deadline is looked at while GIO is silent.
                let source = g_timeout_source_new(100)
                g_source_set_callback(source, { _ in 0 }, nil, nil)
                g_source_attach(source, context)
                g_main_context_iteration(context, 1)
                g_source_destroy(source)
                g_source_unref(source)
            }
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
            finished.signal()
        }
        thread.start()
        finished.wait()
        if timedOut { throw RemoteServerError.timedOut(what) }
        if let error = call.error { throw failure(error) }
    }
}
