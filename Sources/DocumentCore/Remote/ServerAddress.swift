import Foundation

/// A server a person typed, checked: one of the protocols GVFS mounts (`sftp://`, `smb://`,
/// `dav://`, `davs://`, `ftp://`, `nfs://`), a host, an optional user and port, and a folder.
/// A password typed into the address is dropped: it is asked for, never kept in a URI.
public struct ServerAddress: Hashable, Sendable, CustomStringConvertible {
    /// The protocols Dossier connects to (through GVFS's backends).
    public enum Scheme: String, CaseIterable, Sendable {
        /// SSH file transfer, Windows shares (SMB), WebDAV over HTTP and over HTTPS, FTP, and NFS.
        case sftp, smb, dav, davs, ftp, nfs

        /// Other spellings GVFS takes for the same backends.
        static let aliases: [String: Scheme] = ["ssh": .sftp, "webdav": .dav, "webdavs": .davs]
    }

    /// The protocol.
    public let scheme: Scheme
    /// The user name typed before `@`, if any.
    public let user: String?
    /// The host name or address (an IPv6 address without its brackets).
    public let host: String
    /// The port typed after the host; nil for the protocol's usual one.
    public let port: Int?
    /// The folder on the server, starting with "/".
    public let path: String

    /// The hint shown where an address is typed.
    public static var schemesHint: String {
        Scheme.allCases.map { $0.rawValue + "://" }.joined(separator: ", ")
    }

    /// Reads `text` as a server address; throws with what to type instead when it is not one.
    public init(parsing text: String) throws(ServerAddressError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .empty }
        guard trimmed.count <= 2048 else { throw .malformed(String(trimmed.prefix(80)) + "…") }
        guard trimmed.unicodeScalars.allSatisfy({ !CharacterSet.controlCharacters.contains($0) && $0 != " " }) else {
            throw .malformed(trimmed)
        }
        guard let separator = trimmed.range(of: "://") else {
            // "host", "user@host", "host:22/folder": no protocol to guess from.
            throw .missingScheme(trimmed)
        }
        let schemeName = trimmed[..<separator.lowerBound].lowercased()
        guard let scheme = Scheme(rawValue: schemeName) ?? Scheme.aliases[schemeName] else {
            throw .unsupportedScheme(schemeName)
        }
        guard let components = URLComponents(string: trimmed) else { throw .malformed(trimmed) }
        guard var host = components.percentEncodedHost, !host.isEmpty else { throw .missingHost(trimmed) }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        host = host.removingPercentEncoding ?? host
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._:%"))
        guard host.unicodeScalars.allSatisfy({ allowed.contains($0) }) else { throw .malformed(trimmed) }
        if let port = components.port, !(1...65535).contains(port) { throw .badPort(trimmed) }
        self.scheme = scheme
        self.user = components.user.flatMap { $0.isEmpty ? nil : $0 }
        self.host = host
        self.port = components.port
        let path = components.path
        self.path = path.isEmpty ? "/" : (path.hasPrefix("/") ? path : "/" + path)
    }

    /// Makes an address from its parts, without checking them; `path` gains a leading "/" when it has none.
    public init(scheme: Scheme, user: String? = nil, host: String, port: Int? = nil, path: String = "/") {
        self.scheme = scheme
        self.user = user
        self.host = host
        self.port = port
        self.path = path.hasPrefix("/") ? path : "/" + path
    }

    /// The address as GIO takes it, with no password.
    public var uri: String {
        var text = scheme.rawValue + "://"
        if let user {
            text += user.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@"))) ?? user
            text += "@"
        }
        text += host.contains(":") ? "[\(host)]" : host
        if let port { text += ":\(port)" }
        text += path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        return text
    }

    /// `uri` as a URL (the browser's location).
    public var url: URL { URL(string: uri) ?? URL(string: scheme.rawValue + "://localhost/")! }

    /// Server and folder as a person reads them: "user@host:2222/folder".
    public var description: String {
        var text = user.map { $0 + "@" } ?? ""
        text += host
        if let port { text += ":\(port)" }
        if path != "/" { text += path }
        return text
    }

    /// The same server without the folder: what a mount is made of.
    public var server: ServerAddress {
        ServerAddress(scheme: scheme, user: user, host: host, port: port, path: "/")
    }

    /// Whether `url` is on one of the protocols Dossier connects to (and not a local file).
    public static func isServerLocation(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return Scheme(rawValue: scheme) != nil || Scheme.aliases[scheme] != nil
    }
}

/// Why a typed address is not one Dossier can connect to.
public enum ServerAddressError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Nothing was typed.
    case empty
    /// No protocol: "host" or "user@host".
    case missingScheme(String)
    /// The protocol is not one Dossier connects to (the protocol as typed).
    case unsupportedScheme(String)
    /// The address names no host.
    case missingHost(String)
    /// The port is not a number from 1 to 65535.
    case badPort(String)
    /// The address cannot be read as one: spaces, control characters, a host with other characters
    /// than a name or an address has, or more than 2048 characters.
    case malformed(String)

    public var description: String {
        switch self {
        case .empty:
            tr("Type a server address, for example sftp://user@example.com or smb://nas/share.")
        case .missingScheme(let text):
            tr("“%s” has no protocol. Type it first, for example sftp://%s or smb://%s.", text, text, text)
        case .unsupportedScheme(let scheme):
            tr("Dossier cannot connect to “%s://” addresses. Use one of %s.", scheme, ServerAddress.schemesHint)
        case .missingHost(let text):
            tr("“%s” names no server. Type the server after the protocol, for example sftp://example.com.", text)
        case .badPort(let text):
            tr("The port in “%s” is not between 1 and 65535.", text)
        case .malformed(let text):
            tr("“%s” is not a server address (spaces and control characters cannot be part of one).", text)
        }
    }

    public var errorDescription: String? { description }
}
