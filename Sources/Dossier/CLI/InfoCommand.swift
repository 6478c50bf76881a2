import CGLib
import DocumentCore
import Foundation
import GObjectSupport

/// `dossier info [--json] PATH…`: what kind of document each item is and what opens it.
/// A path that cannot be looked at is reported and the others still are; exit status 1 then.
struct InfoCommand {
    let arguments: [String]

    func run() -> Int32 {
        guard let parsed = ParsedArguments.parse(arguments, flags: ["--json"]) else { return 2 }
        guard !parsed.operands.isEmpty else {
            Output.error(tr("Name at least one file: dossier info PATH…"))
            return 2
        }
        let registry = ApplicationRegistry()
        var failed = false
        var reports: [Report] = []
        for (index, location) in parsed.operands.enumerated() {
            do {
                let item = try ItemInfo.inspect(location)
                let report = Report(item: item, location: location, registry: registry)
                if parsed.flags.contains("--json") {
                    reports.append(report)
                } else {
                    if index > 0 { print("") }
                    print(report.text)
                }
            } catch {
                failed = true
                if parsed.flags.contains("--json") {
                    reports.append(Report(location: location, error: error.description))
                }
                Output.error(error.description)
            }
        }
        if parsed.flags.contains("--json") {
            Output.json(reports)
        }
        return failed ? 1 : 0
    }
}

/// One item's report, printed as text or encoded as JSON.
private struct Report: Encodable {
    struct App: Encodable {
        let id: String
        let name: String
    }

    let path: String
    var uri: String?
    var name: String?
    var kind: String?
    var type: String?
    var typeDescription: String?
    var typeEvidence: String?
    var conformsTo: [String]?
    var iconNames: [String]?
    var size: Int64?
    var modified: Date?
    var symlinkTarget: String?
    var defaultApplication: App?
    var otherApplications: [App]?
    var error: String?

    init(location: String, error: String) {
        path = location
        self.error = error
    }

    init(item: ItemInfo, location: String, registry: ApplicationRegistry) {
        path = item.path ?? location
        uri = item.uri
        name = item.displayName
        kind = item.kind.rawValue
        type = item.type.identifier
        typeDescription = item.type.localizedDescription
        typeEvidence = item.typeEvidence.rawValue
        conformsTo = item.type.supertypes.map(\.identifier)
        iconNames = item.type.iconNames
        size = item.size
        modified = item.modified
        symlinkTarget = item.symlinkTarget
        let apps = registry.applications(for: item.type)
        let defaultApp = registry.defaultApplication(for: item.type)
        defaultApplication = defaultApp.map { App(id: $0.id, name: $0.name) }
        otherApplications = apps.filter { $0.id != defaultApp?.id }.map { App(id: $0.id, name: $0.name) }
    }

    var text: String {
        var lines = [name ?? path]
        func add(_ label: String, _ value: String) {
            lines.append("  " + label + " " + value)
        }
        add(tr("Type:"), "\(type ?? "") — \(typeDescription ?? "")")
        add(tr("Kind:"), kindDescription)
        add(tr("Conforms to:"), ([type ?? ""] + (conformsTo ?? [])).joined(separator: " → "))
        add(tr("Icons:"), (iconNames ?? []).joined(separator: ", "))
        if kind == "regular" || kind == "symbolicLink" {
            let formatted = takeString(g_format_size(guint64(max(size ?? 0, 0)))) ?? "\(size ?? 0)"
            let bytes = Int(size ?? 0)
            add(tr("Size:"), bytes < 1000 ? formatted : trn("%s (%d byte)", "%s (%d bytes)", bytes, formatted))
        }
        if let modified {
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            add(tr("Modified:"), formatter.string(from: modified))
        }
        if let symlinkTarget {
            add(tr("Link to:"), symlinkTarget)
        }
        add(tr("Location:"), uri ?? path)
        add(tr("Default app:"), defaultApplication.map { "\($0.name) (\($0.id))" } ?? tr("none"))
        let others = (otherApplications ?? []).map { "\($0.name) (\($0.id))" }
        add(tr("Other apps:"), others.isEmpty ? tr("none") : others.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }

    private var kindDescription: String {
        switch kind {
        case "regular": tr("regular file") + " (" + evidenceDescription + ")"
        case "directory": tr("folder")
        case "symbolicLink": tr("symbolic link whose target is missing")
        case "fifo": tr("named pipe (FIFO), not read")
        case "socket": tr("socket, not read")
        case "characterDevice": tr("character device, not read")
        case "blockDevice": tr("block device, not read")
        default: tr("special file, not read")
        }
    }

    private var evidenceDescription: String {
        switch typeEvidence {
        case "content": tr("type recognised from its content")
        default: tr("type recognised from its name")
        }
    }
}
