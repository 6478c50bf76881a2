import CGLib
import Foundation
import GObjectSupport

/// A kind of document, identified by its MIME type: the UTType of Linux, over the
/// shared-mime-info database through GIO.
///
/// A type is a value; everything it knows (description, supertypes, extensions, icons) is
/// looked up in the installed MIME database, including types that installed MIME packages
/// declare (Dossier's own `io.github.dossier.Dossier.xml` among them). Besides concrete
/// MIME types there are media families (`image/*`) and a few abstract groups
/// (`sourceCode`, `archive`, …, see `DocumentType+WellKnown.swift`) that exist only for
/// conformance checks.
public struct DocumentType: Hashable, Sendable, CustomStringConvertible, Codable {
    /// The canonical MIME type (aliases resolved, lower case), `media/*` for a family, or
    /// `x-dossier-group/<name>` for an abstract group.
    public let identifier: String

    /// The type named by a MIME type or one of its aliases (`application/x-pdf` → `application/pdf`).
    public init(mimeType: String) {
        let lowered = mimeType.trimmingCharacters(in: .whitespaces).lowercased()
        identifier = MIMEDatabase.shared.canonical(lowered)
    }

    init(uncheckedIdentifier: String) {
        identifier = uncheckedIdentifier
    }

    public var description: String { identifier }

    /// The MIME type string; for a family or group, its identifier.
    public var mimeType: String { identifier }

    /// True for a `media/*` family or an abstract group, which no file has as its own type.
    public var isAbstract: Bool { isFamily || group != nil }

    var isFamily: Bool { identifier.hasSuffix("/*") }

    /// True when an installed MIME package declares this type.
    public var isDeclared: Bool {
        isAbstract || MIMEDatabase.shared.knownTypes.contains(identifier)
            || ["inode/directory", "application/octet-stream", "text/plain"].contains(identifier)
    }

    /// True for the types that mean "nothing more is known": `application/octet-stream`.
    public var isUnknown: Bool { g_content_type_is_unknown(identifier) != 0 }

    // MARK: Conformance

    /// True when a document of this type is also a document of `other`: the same type, a
    /// declared `sub-class-of` ancestor, the implicit rules (every `text/*` is `text/plain`,
    /// every non-`inode/*` type is `application/octet-stream`), a media family (`image/*`),
    /// or an abstract group that one of those belongs to.
    public func conforms(to other: DocumentType) -> Bool {
        if self == other { return true }
        if let group = other.group {
            return group.contains(self)
        }
        if isAbstract { return false }
        return g_content_type_is_a(identifier, other.identifier) != 0
    }

    /// All types this one conforms to, nearest first (breadth-first over `sub-class-of`),
    /// ending with the implicit `text/plain` and `application/octet-stream` where they apply.
    /// Families and groups are not listed.
    public var supertypes: [DocumentType] {
        guard !isAbstract else { return [] }
        let database = MIMEDatabase.shared
        var result: [String] = []
        var seen: Set<String> = [identifier]
        var queue = [identifier]
        while !queue.isEmpty {
            let current = queue.removeFirst()
            var parents = database.parents[current] ?? []
            if parents.isEmpty {
                // Implicit rules of the spec, for types that declare no parent.
                if current.hasPrefix("text/") && current != "text/plain" {
                    parents = ["text/plain"]
                } else if !current.hasPrefix("inode/") && current != "application/octet-stream" {
                    parents = ["application/octet-stream"]
                }
            }
            for parent in parents.map(database.canonical) where seen.insert(parent).inserted {
                result.append(parent)
                queue.append(parent)
            }
        }
        // Keep the catch-all last, whatever path reached it first.
        for root in ["text/plain", "application/octet-stream"] {
            if let index = result.firstIndex(of: root) {
                result.remove(at: index)
                result.append(root)
            }
        }
        return result.map(DocumentType.init(uncheckedIdentifier:))
    }

    /// This type followed by its supertypes: the chain `dossier info` prints.
    public var conformanceChain: [DocumentType] { [self] + supertypes }

    // MARK: Description, extensions and icons

    /// The human description in the user's language ("PDF document"), from the MIME database.
    public var localizedDescription: String {
        if let group { return group.localizedName }
        if isFamily { return identifier }
        return takeString(g_content_type_get_description(identifier)) ?? identifier
    }

    /// The extension a new file of this type should get, without the dot ("pdf"), if any.
    public var preferredFilenameExtension: String? { filenameExtensions.first }

    /// Every simple extension the MIME database maps to this type, preferred first.
    public var filenameExtensions: [String] {
        isAbstract || identifier.hasPrefix("inode/") ? [] : MIMEDatabase.shared.declaredExtensions(of: identifier)
    }

    /// Icon names to try in order: the type's own icon, the generic icon of its kind, then a
    /// fallback every icon theme has.
    public var iconNames: [String] {
        var names: [String] = []
        if !isAbstract, let icon = g_content_type_get_icon(identifier) {
            if let themed = dossier_g_themed_icon(UnsafeMutableRawPointer(icon)) {
                names = borrowStringArray(g_themed_icon_get_names(themed))
            }
            unref(icon)
        }
        if !isAbstract, let generic = takeString(g_content_type_get_generic_icon_name(identifier)) {
            names.append(generic)
        }
        names.append(
            identifier == "inode/directory" ? "folder" : conforms(to: .text) ? "text-x-generic" : "application-x-generic")
        var seen = Set<String>()
        return names.filter { !$0.hasSuffix("-symbolic") && seen.insert($0).inserted }
    }

    /// The symbolic variants of `iconNames`, for header bars and lists.
    public var symbolicIconNames: [String] { iconNames.map { $0 + "-symbolic" } }
}
