import DocumentCore
import Foundation

/// `dossier apps [--json] TYPE|PATH`: the applications for a type (a MIME type, a well-known
/// name such as `image`, an extension such as `.pdf`) or for a file, in Open With order.
/// `dossier apps --set-default APP_ID TYPE|PATH` makes APP_ID the default for that type;
/// `dossier apps --all` lists every installed application shown in menus.
struct AppsCommand {
    let arguments: [String]

    func run() -> Int32 {
        guard let parsed = ParsedArguments.parse(arguments, flags: ["--json", "--all"], valued: ["--set-default"]) else { return 2 }
        if parsed.flags.contains("--all") {
            let entries = ApplicationRegistry().allApplications().map { Entry(id: $0.id, name: $0.name, role: "installed") }
            if parsed.flags.contains("--json") {
                Output.json(entries)
            } else {
                entries.forEach { print("\($0.name) (\($0.id))") }
            }
            return 0
        }
        guard parsed.operands.count == 1, let subject = parsed.operands.first else {
            Output.error(tr("Name one type or file: dossier apps TYPE|PATH"))
            return 2
        }
        let type: DocumentType
        do {
            guard let resolved = try Self.resolve(subject) else {
                Output.error(tr("'%s' is neither a file nor a known document type", subject))
                return 1
            }
            type = resolved
        } catch {
            Output.error(error.description)
            return 1
        }
        let registry = ApplicationRegistry()
        if let id = parsed.options["--set-default"] {
            guard let app = registry.application(id: id) else {
                Output.error(ApplicationError.unknownApplication(id: id).description)
                return 1
            }
            do {
                try registry.setDefault(app, for: type)
            } catch {
                Output.error(error.description)
                return 1
            }
            print(tr("%s now opens %s by default", app.name, type.identifier))
            return 0
        }
        let defaultID = registry.defaultApplication(for: type)?.id
        let recommended = Set(registry.recommendedApplications(for: type).map(\.id))
        let entries = registry.applications(for: type).map { app in
            Entry(
                id: app.id, name: app.name,
                role: app.id == defaultID ? "default" : recommended.contains(app.id) ? "recommended" : "fallback")
        }
        if parsed.flags.contains("--json") {
            Output.json(Listing(type: type.identifier, description: type.localizedDescription, applications: entries))
        } else {
            print("\(type.identifier) — \(type.localizedDescription)")
            if entries.isEmpty {
                print("  " + tr("No applications are installed for this type."))
            }
            for entry in entries {
                let role = switch entry.role {
                case "default": tr("default")
                case "recommended": tr("recommended")
                default: tr("for a supertype")
                }
                print("  \(entry.name) (\(entry.id)) — \(role)")
            }
        }
        return 0
    }

    /// A path to an existing item wins; then a well-known name, an extension, a MIME type.
    static func resolve(_ subject: String) throws(ItemError) -> DocumentType? {
        var status = stat()
        if lstat(subject, &status) == 0 || subject.hasPrefix("file:") {
            return try ItemInfo.inspect(subject).type
        }
        if let known = DocumentType.wellKnown[subject] {
            return known
        }
        if subject.hasPrefix("."), let type = DocumentType(filenameExtension: String(subject.dropFirst())) {
            return type
        }
        let parts = subject.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !subject.contains(" ") {
            return DocumentType(mimeType: subject)
        }
        if subject.contains("/") {
            throw .notFound(name: subject)
        }
        return nil
    }

    struct Entry: Encodable {
        let id: String
        let name: String
        let role: String
    }

    struct Listing: Encodable {
        let type: String
        let description: String
        let applications: [Entry]
    }
}
