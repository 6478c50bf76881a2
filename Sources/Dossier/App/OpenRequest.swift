import CGLib
import DocumentCore
import Foundation
import GObjectSupport

/// What a launch of `dossier [--sender ID] [--annotation TEXT] [PATH|URI…]` asks the running
/// instance to open, with who asked and what they passed along.
struct OpenRequest: Sendable, Equatable {
    /// The locations named, as file URLs for local paths (resolved against the launch's
    /// working directory) and as given for other URIs. Empty: a window on the last location.
    var urls: [URL] = []
    /// The program that asked (its application ID), from `--sender`.
    var sender: String?
    /// Data the sender hands to the app that opens the files, from `--annotation`.
    var annotation: String?
    /// The startup-notification or activation token of the launch, when the desktop gave one.
    var startupID: String?
    /// Arguments naming local files that do not exist (reported; the others still open).
    var missing: [String] = []

    /// Parses a launch's arguments (without the program name).
    init(arguments: [String], workingDirectory: String?) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, flags: [], valued: ["--sender", "--annotation"])
        sender = parsed.options["--sender"].flatMap { $0.isEmpty ? nil : $0 }
        annotation = parsed.options["--annotation"]
        for operand in parsed.operands {
            if let url = Self.url(for: operand, workingDirectory: workingDirectory) {
                urls.append(url)
            } else {
                missing.append(operand)
            }
        }
    }

    /// A request for `urls` without arguments (D-Bus `Open`, a desktop launcher).
    init(urls: [URL], startupID: String? = nil) {
        self.urls = urls
        self.startupID = startupID
    }

    /// A URI as given (a local `file:` URI as a file URL); a path resolved against the
    /// working directory, nil when nothing is there.
    static func url(for argument: String, workingDirectory: String?) -> URL? {
        if takeString(g_uri_parse_scheme(argument)) != nil {
            let file = g_file_new_for_uri(argument)
            defer { unref(file) }
            if let path = FileSystemPath(taking: g_file_get_path(file)) {
                var status = stat()
                guard path.withCString({ lstat($0, &status) }) == 0 else { return nil }
                return path.string == nil ? path.url : path.url.standardizedFileURL
            }
            return URL(string: argument)
        }
        let base = workingDirectory ?? FileManager.default.currentDirectoryPath
        let path = argument.hasPrefix("/") ? argument : base + "/" + argument
        return exists(path) ? URL(fileURLWithPath: path).standardizedFileURL : nil
    }

    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// True when the location is a folder to browse rather than a file to preview (remote
    /// locations are browsed: looking at them could block).
    static func isFolder(_ url: URL) -> Bool {
        guard url.isFileURL else { return true }
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
    }
}

/// Hears of every request to open locations, before Dossier opens them: the `handleOpenURL`
/// of Linux. A second launch's arguments, a desktop launcher and D-Bus `Open` all arrive here.
@MainActor
protocol ApplicationOpenDelegate: AnyObject {
    /// `urls` are about to open; `sender` and `annotation` are what the launch passed along.
    /// Return true when the delegate took care of them, and Dossier opens nothing.
    func applicationDidOpen(urls: [URL], sender: String?, annotation: String?) -> Bool
}

/// Writes each request as a JSON line to a file (`$DOSSIER_OPEN_LOG`), so tests and scripts
/// can see what the running instance received. Opens nothing itself.
@MainActor
final class OpenRequestLog: ApplicationOpenDelegate {
    let file: URL
    private let queue = DispatchQueue(label: "dossier.open-log")

    init(file: URL) {
        self.file = file
    }

    func applicationDidOpen(urls: [URL], sender: String?, annotation: String?) -> Bool {
        struct Entry: Encodable {
            let urls: [String]
            let sender: String?
            let annotation: String?
        }
        let entry = Entry(urls: urls.map(\.absoluteString), sender: sender, annotation: annotation)
        guard var encoded = try? JSONEncoder().encode(entry) else { return false }
        encoded.append(0x0A)
        let line = encoded
        let file = file
        queue.async {
            if let handle = try? FileHandle(forWritingTo: file) {
                handle.seekToEndOfFile()
                handle.write(line)
                try? handle.close()
            } else {
                try? line.write(to: file)
            }
        }
        return false
    }
}
