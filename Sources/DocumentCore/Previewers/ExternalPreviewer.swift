import CGLib
import Foundation
import GObjectSupport

/// A previewer another package installed: a `.previewer` key file in
/// `$XDG_DATA_HOME/dossier/previewers` or `$XDG_DATA_DIRS/dossier/previewers`:
///
/// ```
/// [Previewer Entry]
/// Name=Example previewer
/// TryExec=example-previewer
/// Exec=example-previewer --input %i --output %o
/// MimeType=application/x-example;
/// Output=png
/// ```
///
/// `Output` is what the program writes to `%o`: `png`, `pdf`, `html` or `text`; Dossier then
/// shows that. The program runs sandboxed like a thumbnailer (no network, input read-only,
/// only its output folder writable) and is killed after a timeout.
package struct ExternalPreviewer: Sendable, Hashable {
    /// What the program writes: a PNG picture, a PDF, an HTML page or plain text.
    package enum Output: String, Sendable, CaseIterable {
        /// A PNG picture, a PDF, an HTML page, or plain text.
        case png, pdf, html, text

        var fileExtension: String { self == .text ? "txt" : rawValue }
    }

    /// The key file's name without `.previewer`; a user's file hides a system one of the same ID.
    package let id: String
    /// The name to show (the key file's `Name`, translated when it has a translation).
    package let name: String
    /// The command line (`Exec`), where `%i` becomes the input file and `%o` the output file.
    package let exec: String
    /// The types it previews (`MimeType`).
    package let types: [DocumentType]
    /// What the program writes to `%o` (`Output`).
    package let output: Output

    /// The previewers installed, the user's first (a file name the user has hides the system's).
    package static func installed(in given: [URL]? = nil) -> [ExternalPreviewer] {
        InstalledFiles.find(in: "dossier/previewers", suffix: ".previewer", folders: given).compactMap(ExternalPreviewer.init(path:))
    }

    /// Reads a `.previewer` file; nil when it is malformed or its program is not installed.
    package init?(path: String) {
        let keyFile = g_key_file_new()
        defer { g_key_file_free(keyFile) }
        let group = "Previewer Entry"
        guard g_key_file_load_from_file(keyFile, path, GKeyFileFlags(rawValue: 0), nil) != 0,
              let exec = takeString(g_key_file_get_string(keyFile, group, "Exec", nil)),
              let outputName = takeString(g_key_file_get_string(keyFile, group, "Output", nil)),
              let output = Output(rawValue: outputName.lowercased())
        else { return nil }
        if let tryExec = takeString(g_key_file_get_string(keyFile, group, "TryExec", nil)),
           takeString(g_find_program_in_path(tryExec)) == nil {
            return nil
        }
        var count: gsize = 0
        types = takeStringArray(g_key_file_get_string_list(keyFile, group, "MimeType", &count, nil)).map(DocumentType.init(mimeType:))
        guard !types.isEmpty else { return nil }
        id = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        name = takeString(g_key_file_get_locale_string(keyFile, group, "Name", nil, nil)) ?? id
        self.exec = exec
        self.output = output
    }

    /// Runs the previewer on `input`, writing into a new private folder inside `workFolder`.
    /// - Returns: the output file (the caller removes its folder when done).
    /// Stops it early when `cancellation` is set.
    package func run(on input: URL, workFolder: URL, timeout: Duration = .seconds(20),
                    cancellation: CancellationFlag? = nil) throws(PreviewerError) -> URL {
        let outputName = "preview." + output.fileExtension
        let folder = workFolder.appendingPathComponent("run-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .failed(previewer: name, reason: error.localizedDescription)
        }
        let opened: Int32
        do { opened = try WorkerInput.open(input.rawPath) } catch {
            throw .failed(previewer: name, reason: error.reason)
        }
        defer { close(opened) }
        let paths = Sandbox.paths(input: input.rawPath, outputFolder: folder.path, outputName: outputName)
        let uri = Sandbox.isAvailable ? takeString(g_filename_to_uri(paths.input, nil, nil)) ?? "" : input.absoluteString
        guard let command = Sandbox.expand(exec, input: paths.input, uri: uri, output: paths.output, size: 0) else {
            throw .failed(previewer: name, reason: tr("its Exec line cannot be read"))
        }
        let arguments = Sandbox.wrap(command, outputFolder: folder.path, paths: paths)
        switch SandboxedProcess(arguments: arguments, input: opened).run(timeout: timeout, cancellation: cancellation) {
        case .timedOut:
            throw .timedOut(previewer: name, seconds: Int(timeout.components.seconds))
        case .cancelled:
            throw .failed(previewer: name, reason: tr("Cancelled"))
        case .signalled(let signal):
            throw .failed(previewer: name, reason: tr("it crashed (signal %s)", String(signal)))
        case .exited(let code, let errors) where code != 0:
            throw .failed(previewer: name, reason: tr("it exited with status %s", String(code)) + (errors.isEmpty ? "" : ": " + errors))
        case .exited:
            break
        }
        let produced = folder.appendingPathComponent(outputName)
        guard FileManager.default.fileExists(atPath: produced.path) else {
            throw .failed(previewer: name, reason: tr("it produced nothing"))
        }
        return produced
    }
}

/// Why an external previewer gave no preview.
package enum PreviewerError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The program failed or wrote no usable output.
    case failed(previewer: String, reason: String)
    /// The program ran past its time limit and was stopped.
    case timedOut(previewer: String, seconds: Int)

    package var description: String {
        switch self {
        case .failed(let previewer, let reason): tr("The previewer %s failed: %s", previewer, reason)
        case .timedOut(let previewer, let seconds):
            tr("The previewer %s took longer than %s seconds and was stopped", previewer, String(seconds))
        }
    }

    package var errorDescription: String? { description }
}
