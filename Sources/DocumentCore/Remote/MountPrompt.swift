import Foundation

/// What a server asks for while it is mounted or unmounted, answered by the person through the
/// UI (DocumentUI's password and question dialogs): GMountOperation's `ask-password`,
/// `ask-question` and `show-processes`, as Swift.
@MainActor
public protocol MountPrompt: AnyObject {
    /// Asks for a user name, password and domain; nil when the person cancelled.
    func credentials(for request: PasswordRequest) async -> PasswordReply?
    /// Asks `question`; the index of the chosen answer, or nil when the person cancelled.
    func answer(_ question: MountQuestion) async -> Int?
    /// The server stopped asking (the mount ended or was cancelled): a dialog still open goes.
    func withdraw()
}

/// A server's request for credentials.
public struct PasswordRequest: Sendable, Equatable {
    /// The server's own words ("Enter password for ssh as user@host").
    public let message: String
    /// The user name to offer, when the server knows one.
    public let defaultUser: String
    /// The domain to offer (SMB), when the server knows one.
    public let defaultDomain: String
    /// Whether the server wants a user name.
    public let needsUser: Bool
    /// Whether the server wants a password.
    public let needsPassword: Bool
    /// Whether the server wants a domain (SMB).
    public let needsDomain: Bool
    /// The server allows connecting as a guest (anonymous FTP, a public SMB share).
    public let anonymousAllowed: Bool
    /// The password can be kept in the keyring (GVFS through libsecret).
    public let savingSupported: Bool
    /// 1 for the first request; more after the server refused what was given.
    public let attempt: Int

    /// Makes a request as GMountOperation's `ask-password` describes it.
    public init(message: String, defaultUser: String = "", defaultDomain: String = "", needsUser: Bool = false,
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
public enum PasswordRemembering: String, Sendable, CaseIterable {
    /// Forget it once connected.
    case never
    /// Until the person logs out.
    case forSession
    /// In the keyring, for good.
    case forever
}

/// What the person gave for a `PasswordRequest`.
public struct PasswordReply: Sendable, Equatable {
    /// The user name given.
    public var user: String
    /// The password given.
    public var password: String
    /// The domain given (SMB).
    public var domain: String
    /// Connect as a guest: user and password are not sent.
    public var anonymous: Bool
    /// How long GVFS keeps the password.
    public var remember: PasswordRemembering

    /// Makes a reply; the defaults give nothing and keep the password only for this connection.
    public init(user: String = "", password: String = "", domain: String = "", anonymous: Bool = false,
                remember: PasswordRemembering = .never) {
        self.user = user
        self.password = password
        self.domain = domain
        self.anonymous = anonymous
        self.remember = remember
    }
}

/// A question a server asks (an unknown host key; files still open when unmounting).
public struct MountQuestion: Sendable, Equatable {
    /// The server's own words, translated by GVFS when it has a translation.
    public let message: String
    /// The answers offered, in the server's order (for a host key: log in, then cancel).
    public let choices: [String]

    /// Makes a question with the answers offered, in the server's order.
    public init(message: String, choices: [String]) {
        self.message = message
        self.choices = choices
    }
}
