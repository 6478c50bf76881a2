import CGLib
import Foundation
import GObjectSupport

/// Mounts a server through GVFS (`g_file_mount_enclosing_volume`) and unmounts it, asking the
/// person through a `MountPrompt` for what the server wants to know. Everything is GIO's
/// asynchronous calls on the main context: the main thread never waits on the network.
///
/// Cancel a mount by cancelling its task (the window went elsewhere): GIO's cancellable is
/// cancelled with it, and the call throws `.cancelled`.
@MainActor
package final class ServerConnection {
    /// The server this connection mounts.
    package let address: ServerAddress
    /// How many passwords the server may refuse before the mount ends on `.wrongPassword`.
    package var maximumPasswordAttempts = 3
    private let prompt: MountPrompt?

    /// A connection to `address`; `prompt` answers the server's questions (nil: every
    /// question is declined, so a server that needs a password fails).
    package init(address: ServerAddress, prompt: MountPrompt?) {
        self.address = address
        self.prompt = prompt
    }

    /// Whether this computer's GVFS has a backend for `scheme` (in memory: no I/O).
    package static func isSupported(_ scheme: ServerAddress.Scheme) -> Bool {
        guard let vfs = g_vfs_get_default() else { return false }
        return borrowStringArray(g_vfs_get_supported_uri_schemes(vfs)).contains(scheme.rawValue)
    }

    /// Mounts the server (success when it is mounted already) and returns the address's
    /// location, ready to list.
    package func mount() async throws(ServerConnectionError) -> URL {
        MainLoopBridge.install()
        guard Self.isSupported(address.scheme) else { throw .unsupportedScheme(address.scheme.rawValue) }
        let operation = MountOperation(prompt: prompt, maximumPasswordAttempts: maximumPasswordAttempts)
        let cancellable = Cancellable()
        let host = address.host
        let uri = address.uri
        let outcome: Result<Void, GLibError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let box = Unmanaged.passRetained(AsyncBox(continuation)).toOpaque()
                let file = g_file_new_for_uri(uri)
                defer { unref(file) }
                g_file_mount_enclosing_volume(file, GMountMountFlags(rawValue: 0), operation.pointer,
                                              cancellable.pointer, { source, result, data in
                    var error: UnsafeMutablePointer<GError>?
                    let done = g_file_mount_enclosing_volume_finish(OpaquePointer(source), result, &error) != 0
                    let box = Unmanaged<AsyncBox>.fromOpaque(data!).takeRetainedValue()
                    box.continuation.resume(returning: done || error == nil ? .success(()) : .failure(GLibError(consuming: error!)))
                }, box)
            }
        } onCancel: {
            cancellable.cancel()
        }
        operation.finish()
        switch outcome {
        case .success: return address.url
        case .failure(let error):
            if error.isIOError(G_IO_ERROR_ALREADY_MOUNTED) { return address.url }
            if cancellable.isCancelled || error.isIOError(G_IO_ERROR_CANCELLED) { throw .cancelled }
            switch operation.refusal {
            case .passwordCancelled?: throw .authenticationCancelled(host: host)
            case .tooManyPasswords?: throw .wrongPassword(host: host)
            case .questionDeclined?: throw .hostKeyDeclined(host: host)
            case nil: break
            }
            if error.isIOError(G_IO_ERROR_FAILED_HANDLED), operation.declinedLastChoice { throw .hostKeyDeclined(host: host) }
            throw ServerConnectionError.mapping(error, host: host, passwordGiven: operation.passwordAttempts > 0)
        }
    }

    /// Unmounts (or, for a drive that can, ejects) the mount holding `location`, asking
    /// `prompt` when files are still open there.
    package static func unmount(_ location: URL, prompt: MountPrompt?) async throws(MountRemovalError) {
        MainLoopBridge.install()
        let host = location.host ?? location.absoluteString
        let uri = location.absoluteString
        let found: Result<ObjectReference, GLibError> = await withCheckedContinuation { continuation in
            let box = Unmanaged.passRetained(MountBox(continuation)).toOpaque()
            let file = g_file_new_for_uri(uri)
            defer { unref(file) }
            g_file_find_enclosing_mount_async(file, G_PRIORITY_DEFAULT, nil, { source, result, data in
                var error: UnsafeMutablePointer<GError>?
                let mount = g_file_find_enclosing_mount_finish(OpaquePointer(source), result, &error)
                let box = Unmanaged<MountBox>.fromOpaque(data!).takeRetainedValue()
                if let mount {
                    box.continuation.resume(returning: .success(ObjectReference(adopting: UnsafeMutableRawPointer(mount))))
                } else {
                    box.continuation.resume(returning: .failure(error.map { GLibError(consuming: $0) }
                        ?? GLibError(domain: "", code: 0, message: tr("no mount holds it"))))
                }
            }, box)
        }
        let mount: ObjectReference
        switch found {
        case .success(let value): mount = value
        case .failure(let error): throw .failed(name: host, reason: error.message, eject: false)
        }
        try await remove(mount, prompt: prompt)
    }

    /// Ejects `mount` (a GMount) when it can be ejected, else unmounts it, asking `prompt`
    /// when files are still open there. The sidebar's eject buttons come here too.
    package static func remove(_ mount: ObjectReference, prompt: MountPrompt?) async throws(MountRemovalError) {
        MainLoopBridge.install()
        let pointer = OpaquePointer(mount.pointer)
        let name = takeString(g_mount_get_name(pointer)) ?? ""
        let eject = g_mount_can_eject(pointer) != 0
        let operation = MountOperation(prompt: prompt, maximumPasswordAttempts: 3)
        let outcome: Result<Void, GLibError> = await withCheckedContinuation { continuation in
            let box = Unmanaged.passRetained(AsyncBox(continuation)).toOpaque()
            let flags = GMountUnmountFlags(rawValue: 0)
            let op = operation.pointer
            if eject {
                g_mount_eject_with_operation(pointer, flags, op, nil, { source, result, data in
                    var error: UnsafeMutablePointer<GError>?
                    let done = g_mount_eject_with_operation_finish(OpaquePointer(source), result, &error) != 0
                    let box = Unmanaged<AsyncBox>.fromOpaque(data!).takeRetainedValue()
                    box.continuation.resume(returning: done || error == nil ? .success(()) : .failure(GLibError(consuming: error!)))
                }, box)
            } else {
                g_mount_unmount_with_operation(pointer, flags, op, nil, { source, result, data in
                    var error: UnsafeMutablePointer<GError>?
                    let done = g_mount_unmount_with_operation_finish(OpaquePointer(source), result, &error) != 0
                    let box = Unmanaged<AsyncBox>.fromOpaque(data!).takeRetainedValue()
                    box.continuation.resume(returning: done || error == nil ? .success(()) : .failure(GLibError(consuming: error!)))
                }, box)
            }
        }
        operation.finish()
        if case .failure(let error) = outcome {
            // The person said no to "files are open": no failure to report.
            if error.isIOError(G_IO_ERROR_FAILED_HANDLED) || operation.refusal != nil { throw .cancelled }
            throw .failed(name: name, reason: error.message, eject: eject)
        }
    }
}

/// Why a mount was not unmounted or ejected.
package enum MountRemovalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The person kept it (files still open there): nothing to report.
    case cancelled
    /// GVFS refused (the mount's name, GIO's reason, and whether it was an eject).
    case failed(name: String, reason: String, eject: Bool)

    package var description: String {
        switch self {
        case .cancelled: tr("The mount was kept.")
        case .failed(let name, let reason, let eject):
            eject ? tr("“%s” could not be ejected: %s", name, reason) : tr("“%s” could not be unmounted: %s", name, reason)
        }
    }
}

/// A GCancellable that a task's cancellation handler (any thread) may cancel.
final class Cancellable: @unchecked Sendable {
    // @unchecked: g_cancellable_cancel and g_cancellable_is_cancelled are thread-safe.
    let pointer: UnsafeMutablePointer<GCancellable>

    init() { pointer = g_cancellable_new()! }

    func cancel() { g_cancellable_cancel(pointer) }

    var isCancelled: Bool { g_cancellable_is_cancelled(pointer) != 0 }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }
}

/// The continuation a GIO callback resumes.
private final class AsyncBox {
    let continuation: CheckedContinuation<Result<Void, GLibError>, Never>
    init(_ continuation: CheckedContinuation<Result<Void, GLibError>, Never>) { self.continuation = continuation }
}

private final class MountBox {
    let continuation: CheckedContinuation<Result<ObjectReference, GLibError>, Never>
    init(_ continuation: CheckedContinuation<Result<ObjectReference, GLibError>, Never>) { self.continuation = continuation }
}
