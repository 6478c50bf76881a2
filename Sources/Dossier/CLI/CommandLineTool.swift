import DocumentCore
import Foundation

/// The `dossier` command line: parses the first word and hands the rest to a command.
/// Every command works without a display.
struct CommandLineTool {
    let arguments: [String]

    @MainActor
    func run() -> Int32 {
        // No arguments (with a display), a path or a URI: the desktop application.
        if GraphicalCommand.handles(arguments), !Self.commands.contains(arguments.first ?? "") {
            return GraphicalCommand(arguments: arguments).run()
        }
        guard let first = arguments.first else {
            print(usage)
            return 0
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help", "help":
            print(usage)
            return 0
        case "-v", "--version":
            print("dossier \(dossierVersion)")
            print(DecoderWorker.Confinement.best == .bubblewrap
                ? tr("Files are decoded in a separate process, confined by bubblewrap, seccomp and limits")
                : tr("Files are decoded in a separate process, confined by seccomp and limits only: bubblewrap cannot run here"))
            return 0
        case "info": return InfoCommand(arguments: rest).run()
        case "apps": return AppsCommand(arguments: rest).run()
        case "open": return OpenCommand(arguments: rest).run()
        case "thumbnail": return ThumbnailCommand(arguments: rest).run()
        case "preview": return PreviewCommand(arguments: rest).run()
        case "previewer-service": return PreviewerServiceCommand(arguments: rest).run()
        case "trash": return TrashCommand(arguments: rest).run()
        case "restore": return RestoreCommand(arguments: rest).run()
        case "ls": return LsCommand(arguments: rest).run()
        case "bookmark": return BookmarkCommand(arguments: rest).run()
        case "recents": return RecentsCommand(arguments: rest).run()
        case "tag": return TagCommand(arguments: rest).run()
        case "favorites": return FavoritesCommand(arguments: rest).run()
        default:
            Output.error(tr("Unknown command '%s'", first))
            Output.error(tr("Run 'dossier --help' to see the commands."))
            return 2
        }
    }

    /// The command names: they win over a file of the same name in the working folder.
    static let commands: Set<String> = ["help", "info", "apps", "open", "thumbnail", "preview", "previewer-service", "trash",
                                        "restore", "ls", "bookmark", "recents", "tag", "favorites"]

    var usage: String {
        [
            tr("Usage: dossier COMMAND [OPTIONS] [PATH…]"),
            "       dossier [--sender APP_ID] [--annotation TEXT] [DIR|FILE|URI…]",
            "",
            tr("Without a command (needs a graphical session):"),
            "  dossier                          " + tr("Open a window on the folder shown last (or Home)"),
            "  dossier DIR…                     " + tr("Open a window on each folder"),
            "  dossier FILE…                    " + tr("Preview the files; Left and Right move between them"),
            "    --sender APP_ID                " + tr("Tell Dossier which application asked"),
            "    --annotation TEXT              " + tr("Hand data from the sender to Dossier along with the files"),
            "  " + tr("A running Dossier opens them in its own windows; this command then returns at once."),
            "",
            tr("Commands:"),
            "  info [--json] PATH…              " + tr("Show the type, size, dates and applications of files"),
            "  apps [--json] TYPE|PATH          " + tr("List the applications that open a type, in Open With order"),
            "  apps --set-default APP_ID TYPE   " + tr("Make APP_ID the default application for a type"),
            "  apps --all [--json]              " + tr("List every installed application"),
            "  open [--with APP_ID] [--annotation TEXT] PATH…",
            "                                   " + tr("Open files in their default application, or in APP_ID"),
            "  preview PATH…                    " + tr("Show files in the previewer; Left and Right move between them"),
            "  previewer-service [--install-user|--uninstall-user]",
            "                                   " + tr("Serve Space in Files (org.gnome.NautilusPreviewer), or make Dossier serve it"),
            "  thumbnail [--size SIZE] [--output DIR] PATH…",
            "                                   " + tr("Make thumbnails in the shared cache (or in DIR)"),
            "  trash PATH…                      " + tr("Move files to the Trash"),
            "  trash --list [--json]            " + tr("List what is in the Trash"),
            "  trash --empty                    " + tr("Delete everything in the Trash for good"),
            "  restore NAME…                    " + tr("Put items from the Trash back where they were"),
            "  ls [--all] [--json] DIR          " + tr("List a folder as the browser does: folders first, natural name order"),
            "  ls --sort date|size|kind DIR     " + tr("Sort by date modified, size or kind instead; --reverse reverses"),
            "  bookmark create PATH             " + tr("Print a bookmark to a file that finds it after it moves (base64)"),
            "  bookmark resolve DATA            " + tr("Print where a bookmarked file is now, and 'stale' if it moved"),
            "    --budget MS                    " + tr("How long to search for a moved file (default 200 ms)"),
            "  recents [--json]                 " + tr("List recent documents, Dossier's and other programs'"),
            "  recents --add|--remove PATH…     " + tr("Add documents to the recent list, or remove them"),
            "  recents --clear                  " + tr("Empty the recent documents list"),
            "  tag add|remove TAG[,TAG…] PATH…  " + tr("Add tags to files, or remove them"),
            "  tag list [--json] PATH…          " + tr("Show the tags of files"),
            "  tag find TAG FOLDER…             " + tr("List the files in folders that have a tag"),
            "  favorites [--json]               " + tr("List the favorite places (GTK bookmarks)"),
            "  favorites add URI|PATH [LABEL]   " + tr("Add a favorite place"),
            "  favorites remove URI|PATH        " + tr("Remove a favorite place"),
            "  favorites rename URI|PATH LABEL  " + tr("Give a favorite place a new label"),
            "  favorites move URI|PATH INDEX    " + tr("Move a favorite place to a position in the list"),
            "",
            tr("Options:"),
            "  -h, --help                       " + tr("Show this help"),
            "  -v, --version                    " + tr("Show the version"),
        ].joined(separator: "\n")
    }
}

/// Splits a command's arguments into flags, option values and operands; `--` ends options.
struct ParsedArguments {
    var flags: Set<String> = []
    var options: [String: String] = [:]
    var operands: [String] = []

    /// Parses `arguments`; `valued` names the options that take a value (`--with APP`).
    init(_ arguments: [String], flags knownFlags: Set<String>, valued: Set<String> = []) throws(UsageError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                operands.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if knownFlags.contains(argument) {
                flags.insert(argument)
            } else if let equals = argument.firstIndex(of: "="), valued.contains(String(argument[..<equals])) {
                options[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
            } else if valued.contains(argument) {
                guard index < arguments.count else { throw UsageError(message: tr("The option '%s' needs a value", argument)) }
                options[argument] = arguments[index]
                index += 1
            } else {
                throw UsageError(message: tr("Unknown option '%s'", argument))
            }
        }
    }
}

extension ParsedArguments {
    /// Parses `arguments`, printing what is wrong with them; nil then (exit status 2).
    static func parse(_ arguments: [String], flags: Set<String>, valued: Set<String> = []) -> ParsedArguments? {
        do {
            return try ParsedArguments(arguments, flags: flags, valued: valued)
        } catch {
            Output.error(error.message)
            return nil
        }
    }
}

struct UsageError: Error {
    let message: String
}

/// Where the commands print: results to standard output, problems to standard error.
enum Output {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data(("dossier: " + message + "\n").utf8))
    }

    /// Prints a value as pretty JSON with stable key order.
    static func json<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        if let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) {
            print(text)
        }
    }
}
