import DocumentCore
import Foundation

/// `dossier favorites [--json]` lists the favorite places (GTK's bookmarks, as GNOME Files
/// shows them); `favorites add URI|PATH [LABEL]`, `remove URI|PATH`, `rename URI|PATH LABEL`
/// and `move URI|PATH INDEX` change them.
struct FavoritesCommand {
    let arguments: [String]

    func run() -> Int32 {
        guard let parsed = ParsedArguments.parse(arguments, flags: ["--json"]) else { return 2 }
        let favorites = Favorites()
        var operands = parsed.operands[...]
        let action = operands.popFirst()
        let location = operands.popFirst().map(Self.absolute)
        do {
            switch (action, location, operands.count) {
            case (nil, _, _):
                let items = try favorites.items()
                if parsed.flags.contains("--json") {
                    Output.json(items)
                } else {
                    for item in items { print(item.label.map { "\($0)\t\(item.uri)" } ?? item.uri) }
                }
            case ("add", let location?, 0...1):
                try favorites.add(location, label: operands.first)
            case ("remove", let location?, 0):
                try favorites.remove(location)
            case ("rename", let location?, 1):
                try favorites.rename(location, to: operands.first)
            case ("move", let location?, 1):
                guard let index = operands.first.flatMap({ Int($0) }) else { return usage() }
                try favorites.move(location, to: index)
            default:
                return usage()
            }
            return 0
        } catch {
            Output.error(error.description)
            return 1
        }
    }

    private func usage() -> Int32 {
        Output.error(tr("Use: dossier favorites [--json], or dossier favorites add|remove|rename|move URI|PATH [LABEL|INDEX]"))
        return 2
    }

    /// A relative path made absolute; URIs and absolute paths as they are.
    private static func absolute(_ location: String) -> String {
        location.hasPrefix("/") || location.contains(":") ? location : FileManager.default.currentDirectoryPath + "/" + location
    }
}
