import CGLib
import Foundation
import GObjectSupport

/// A GMountOperation whose questions go to a `MountPrompt`, counting password requests and
/// remembering why it gave up, so the mount's failure can be told in the person's terms.
@MainActor
final class MountOperation {
    /// Why the operation itself ended the mount.
    enum Refusal {
        case passwordCancelled, tooManyPasswords, questionDeclined
    }

    let object: ObjectReference
    private weak var prompt: MountPrompt?
    private let maximumPasswordAttempts: Int
    private(set) var passwordAttempts = 0
    private(set) var refusal: Refusal?
    /// The last question was answered with its last choice ("Cancel Login").
    private(set) var declinedLastChoice = false
    private var asking = false
    private var finished = false

    init(prompt: MountPrompt?, maximumPasswordAttempts: Int) {
        self.prompt = prompt
        self.maximumPasswordAttempts = maximumPasswordAttempts
        object = ObjectReference(adopting: UnsafeMutableRawPointer(g_mount_operation_new()!))
        connect()
    }

    var pointer: UnsafeMutablePointer<GMountOperation> { object.cast() }

    /// The mount ended: a dialog still open is withdrawn, late answers are dropped.
    func finish() {
        finished = true
        if asking {
            asking = false
            prompt?.withdraw()
        }
    }

    private func reply(_ result: GMountOperationResult) {
        asking = false
        g_mount_operation_reply(pointer, result)
    }

    // MARK: Requests

    private func askPassword(message: String, user: String, domain: String, flags: guint) {
        passwordAttempts += 1
        guard passwordAttempts <= maximumPasswordAttempts else {
            refusal = .tooManyPasswords
            reply(G_MOUNT_OPERATION_ABORTED)
            return
        }
        guard let prompt else {
            refusal = .passwordCancelled
            reply(G_MOUNT_OPERATION_ABORTED)
            return
        }
        let request = PasswordRequest(
            message: message, defaultUser: user, defaultDomain: domain,
            needsUser: flags & DOSSIER_G_ASK_PASSWORD_NEED_USERNAME != 0,
            needsPassword: flags & DOSSIER_G_ASK_PASSWORD_NEED_PASSWORD != 0,
            needsDomain: flags & DOSSIER_G_ASK_PASSWORD_NEED_DOMAIN != 0,
            anonymousAllowed: flags & DOSSIER_G_ASK_PASSWORD_ANONYMOUS_SUPPORTED != 0,
            savingSupported: flags & DOSSIER_G_ASK_PASSWORD_SAVING_SUPPORTED != 0,
            attempt: passwordAttempts)
        asking = true
        Task { @MainActor in
            let answer = await prompt.credentials(for: request)
            guard !self.finished, self.asking else { return }
            guard let answer else {
                self.refusal = self.passwordAttempts > 1 ? .tooManyPasswords : .passwordCancelled
                self.reply(G_MOUNT_OPERATION_ABORTED)
                return
            }
            if answer.anonymous {
                g_mount_operation_set_anonymous(self.pointer, 1)
            } else {
                g_mount_operation_set_anonymous(self.pointer, 0)
                g_mount_operation_set_username(self.pointer, answer.user)
                g_mount_operation_set_password(self.pointer, answer.password)
                g_mount_operation_set_domain(self.pointer, answer.domain)
            }
            let save: GPasswordSave = switch answer.remember {
            case .never: G_PASSWORD_SAVE_NEVER
            case .forSession: G_PASSWORD_SAVE_FOR_SESSION
            case .forever: G_PASSWORD_SAVE_PERMANENTLY
            }
            g_mount_operation_set_password_save(self.pointer, save)
            self.reply(G_MOUNT_OPERATION_HANDLED)
        }
    }

    private func askQuestion(message: String, choices: [String]) {
        guard let prompt, !choices.isEmpty else {
            refusal = .questionDeclined
            reply(G_MOUNT_OPERATION_ABORTED)
            return
        }
        asking = true
        Task { @MainActor in
            let answer = await prompt.answer(MountQuestion(message: message, choices: choices))
            guard !self.finished, self.asking else { return }
            guard let answer, choices.indices.contains(answer) else {
                self.refusal = .questionDeclined
                self.reply(G_MOUNT_OPERATION_ABORTED)
                return
            }
            self.declinedLastChoice = choices.count > 1 && answer == choices.count - 1
            g_mount_operation_set_choice(self.pointer, Int32(answer))
            self.reply(G_MOUNT_OPERATION_HANDLED)
        }
    }

    // MARK: Signals

    /// GMountOperation's own class handlers answer "unhandled" from an idle callback: a
    /// handler that answers later (a dialog) must stop the emission before they run, or GVFS
    /// gets that answer first and the mount fails while the dialog is still open.
    nonisolated private static func stopEmission(_ operation: gpointer?, _ signal: String) {
        if let operation { g_signal_stop_emission_by_name(operation, signal) }
    }

    private func connect() {
        let instance = object.pointer
        typealias AskPassword = @convention(c) (gpointer?, UnsafePointer<gchar>?, UnsafePointer<gchar>?, UnsafePointer<gchar>?, guint, gpointer?) -> Void
        let password: AskPassword = { instance, message, user, domain, flags, data in
            MountOperation.stopEmission(instance, "ask-password")
            let operation = Unmanaged<WeakOperation>.fromOpaque(data!).takeUnretainedValue()
            let text = (borrowString(message) ?? "", borrowString(user) ?? "", borrowString(domain) ?? "")
            MainActor.assumeIsolated {
                operation.value?.askPassword(message: text.0, user: text.1, domain: text.2, flags: flags)
            }
        }
        typealias AskQuestion = @convention(c) (gpointer?, UnsafePointer<gchar>?, UnsafePointer<UnsafeMutablePointer<gchar>?>?, gpointer?) -> Void
        let question: AskQuestion = { instance, message, choices, data in
            MountOperation.stopEmission(instance, "ask-question")
            let operation = Unmanaged<WeakOperation>.fromOpaque(data!).takeUnretainedValue()
            let text = borrowString(message) ?? "", list = borrowStringArray(choices)
            MainActor.assumeIsolated { operation.value?.askQuestion(message: text, choices: list) }
        }
        // show-processes (unmounting with files open): the message and the choices, the
        // processes left out (the message names the problem).
        typealias ShowProcesses = @convention(c) (gpointer?, UnsafePointer<gchar>?, gpointer?, UnsafePointer<UnsafeMutablePointer<gchar>?>?, gpointer?) -> Void
        let processes: ShowProcesses = { instance, message, _, choices, data in
            MountOperation.stopEmission(instance, "show-processes")
            let operation = Unmanaged<WeakOperation>.fromOpaque(data!).takeUnretainedValue()
            let text = borrowString(message) ?? "", list = borrowStringArray(choices)
            MainActor.assumeIsolated {
                guard let operation = operation.value, !operation.asking else { return }
                operation.askQuestion(message: text, choices: list)
            }
        }
        typealias Aborted = @convention(c) (gpointer?, gpointer?) -> Void
        let aborted: Aborted = { _, data in
            let operation = Unmanaged<WeakOperation>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated {
                guard let operation = operation.value, operation.asking else { return }
                operation.asking = false
                operation.prompt?.withdraw()
            }
        }
        let handlers: [(String, GCallback)] = [
            ("ask-password", unsafeBitCast(password, to: GCallback.self)),
            ("ask-question", unsafeBitCast(question, to: GCallback.self)),
            ("show-processes", unsafeBitCast(processes, to: GCallback.self)),
            ("aborted", unsafeBitCast(aborted, to: GCallback.self)),
        ]
        for (signal, handler) in handlers {
            dossier_g_signal_connect_data(instance, signal, handler, Unmanaged.passRetained(WeakOperation(self)).toOpaque(),
                                          { data, _ in Unmanaged<WeakOperation>.fromOpaque(data!).release() },
                                          GConnectFlags(rawValue: 0))
        }
    }
}

/// What a signal handler holds: the operation owns its GObject, not the other way round.
private final class WeakOperation {
    weak var value: MountOperation?
    init(_ value: MountOperation) { self.value = value }
}
