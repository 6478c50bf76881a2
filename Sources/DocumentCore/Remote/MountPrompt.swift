import Foundation

/// What a server asks for while it is mounted or unmounted, answered by the person through the
/// UI (DocumentUI's password and question dialogs): GMountOperation's `ask-password`,
/// `ask-question` and `show-processes`, as Swift.
@MainActor
package protocol MountPrompt: AnyObject {
    /// Asks for a user name, password and domain; nil when the person cancelled.
    func credentials(for request: PasswordRequest) async -> PasswordReply?
    /// Asks `question`; the index of the chosen answer, or nil when the person cancelled.
    func answer(_ question: MountQuestion) async -> Int?
    /// The server stopped asking (the mount ended or was cancelled): a dialog still open goes.
    func withdraw()
}

/// A server's request for credentials.
package struct PasswordRequest: Sendable, Equatable {
    /// The server's own words ("Enter password for ssh as user@host").
    package let message: String
    /// The user name to offer, when the server knows one.
    package let defaultUser: String
    /// The domain to offer (SMB), when the server knows one.
    package let defaultDomain: String
    /// Whether the server wants a user name.
    package let needsUser: Bool
    /// Whether the server wants a password.
    package let needsPassword: Bool
    /// Whether the server wants a domain (SMB).
    package let needsDomain: Bool
    /// The server allows connecting as a guest (anonymous FTP, a public SMB share).
    package let anonymousAllowed: Bool
    /// The password can be kept in the keyring (GVFS through libsecret).
    package let savingSupported: Bool
    /// 1 for the first request; more after the server refused what was given.
    package let attempt: Int

    /// Makes a request as GMountOperation's `ask-password` describes it.
    package init(message: String, defaultUser: String = "", defaultDomain: String = "", needsUser: Bool = false,
                needsPassword: Bool = true, needsDomain: Bool = false, anonymousAllowed: Bool = false,
                savingSupported: Bool = false, attempt: Int = 1) {
        self.message = message
        self.defaultUser = defaultUser
        self.defaultDomain = defaultDomain
        self.needsUser = needsUser
        self.needsPassword = needsPassword
        self.needsDomain = needsDomain
        self.anonymousAllowed = anonymousAllowed
        self.savingSupported = savingSupported
        self.attempt = attempt
    }
}

/// How long GVFS keeps a password (GPasswordSave): as Files offers it.
package enum PasswordRemembering: String, Sendable, CaseIterable {
    /// Forget it once connected.
    case never
    /// Until the person logs out.
    case forSession
    /// In the keyring, for good.
    case forever
}

/// What the person gave for a `PasswordRequest`.
package struct PasswordReply: Sendable, Equatable {
    /// The user name given.
    package var user: String
    /// The password given.
    package var password: String
    /// The domain given (SMB).
    package var domain: String
    /// Connect as a guest: user and password are not sent.
    package var anonymous: Bool
    /// How long GVFS keeps the password.
    package var remember: PasswordRemembering

    /// Makes a reply; the defaults give nothing and keep the password only for this connection.
    package init(user: String = "", password: String = "", domain: String = "", anonymous: Bool = false,
                remember: PasswordRemembering = .never) {
        self.user = user
        self.password = password
        self.domain = domain
        self.anonymous = anonymous
        self.remember = remember
    }
}

/// A question a server asks (an unknown host key; files still open when unmounting).
package struct MountQuestion: Sendable, Equatable {
    /// The server's own words, translated by GVFS when it has a translation.
    package let message: String
    /// The answers offered, in the server's order (for a host key: log in, then cancel).
    package let choices: [String]

    /// Makes a question with the answers offered, in the server's order.
    package init(message: String, choices: [String]) {
        self.message = message
        self.choices = choices
    }
}
