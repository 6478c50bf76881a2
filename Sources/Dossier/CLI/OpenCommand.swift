import DocumentCore
import Foundation

/// `dossier open [--with APP_ID] PATH…`: opens each file in place in its default
/// application (files sharing an app go to it together), or all of them in APP_ID, and
/// records them in the recent documents.
struct OpenCommand {
    let arguments: [String]

    func run() -> Int32 {
        guard let parsed = ParsedArguments.parse(arguments, flags: [], valued: ["--with"]) else { return 2 }
        guard !parsed.operands.isEmpty else {
            Output.error(tr("Name at least one file: dossier open PATH…"))
            return 2
        }
        let registry = ApplicationRegistry()
        var failed = false
        var items: [ItemInfo] = []
        for location in parsed.operands {
            do {
                items.append(try ItemInfo.inspect(location))
            } catch {
                Output.error(error.description)
                failed = true
            }
        }
        // Group by application, keeping the order the files were named in.
        var groups: [(app: Application, items: [ItemInfo])] = []
        if let id = parsed.options["--with"] {
            guard let app = registry.application(id: id) else {
                Output.error(ApplicationError.unknownApplication(id: id).description)
                return 1
            }
            if !items.isEmpty { groups = [(app, items)] }
        } else {
            for item in items {
                guard let app = registry.defaultApplication(for: item.type) else {
                    Output.error(ApplicationError.noApplication(files: item.displayName, type: item.type.identifier).description)
                    failed = true
                    continue
                }
                if let index = groups.firstIndex(where: { $0.app.id == app.id }) {
                    groups[index].items.append(item)
                } else {
                    groups.append((app, [item]))
                }
            }
        }
        for group in groups {
            do {
                try registry.open(group.items.map { $0.uri }, with: group.app)
                for item in group.items {
                    print(tr("Opened '%s' with %s", item.displayName, group.app.name))
                }
                recordAsRecent(group.items)
            } catch {
                Output.error(error.description)
                failed = true
            }
        }
        return failed ? 1 : 0
    }

    /// Opened documents join the desktop's recent documents; failing that is worth a word
    /// but does not make the opening fail.
    private func recordAsRecent(_ items: [ItemInfo]) {
        let urls = items.compactMap { item in item.path.map { URL(fileURLWithPath: $0) } ?? URL(string: item.uri) }
        do {
            try RecentDocuments().record(urls, as: .opened)
        } catch {
            Output.error(error.description)
        }
    }
}
