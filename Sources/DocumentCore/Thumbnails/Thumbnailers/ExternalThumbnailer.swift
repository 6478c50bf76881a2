import CGLib
import CImaging
import Foundation
import GObjectSupport

/// A thumbnailer another package installed: a `.thumbnailer` key file in
/// `$XDG_DATA_HOME/thumbnailers` or `$XDG_DATA_DIRS/thumbnailers` (`[Thumbnailer Entry]`,
/// `TryExec`, `Exec` with `%i %o %s %u`, `MimeType`), run as GNOME runs it: under bubblewrap
/// when it is installed — no network, nothing of the system but /usr and a few files read-only,
/// the input read-only, only a private output folder writable, dying with its parent — and
/// killed after a timeout.
package struct ExternalThumbnailer: Sendable {
    package let name: String
    package let exec: String
    package let types: [String]

    /// The thumbnailers installed, the user's first; a file name the user also has hides the
    /// system's of that name.
    static func installed(in given: [URL]? = nil) -> [ExternalThumbnailer] {
        InstalledFiles.find(in: "thumbnailers", suffix: ".thumbnailer", folders: given).compactMap(ExternalThumbnailer.init(path:))
    }

    package init?(path: String) {
        let keyFile = g_key_file_new()
        defer { g_key_file_free(keyFile) }
        guard g_key_file_load_from_file(keyFile, path, GKeyFileFlags(rawValue: 0), nil) != 0,
              let exec = takeString(g_key_file_get_string(keyFile, "Thumbnailer Entry", "Exec", nil))
        else { return nil }
        if let tryExec = takeString(g_key_file_get_string(keyFile, "Thumbnailer Entry", "TryExec", nil)),
           takeString(g_find_program_in_path(tryExec)) == nil {
            return nil  // not installed
        }
        var count: gsize = 0
        let list = g_key_file_get_string_list(keyFile, "Thumbnailer Entry", "MimeType", &count, nil)
        types = takeStringArray(list).map { $0.lowercased() }
        self.exec = exec
        name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// The thumbnailer for `type`: one naming the type itself first, then one naming the
    /// nearest supertype.
    static func find(for type: DocumentType, among thumbnailers: [ExternalThumbnailer]) -> ExternalThumbnailer? {
        for candidate in type.conformanceChain.map(\.identifier) where candidate != "application/octet-stream" {
            if let match = thumbnailers.first(where: { $0.types.contains(candidate) }) { return match }
        }
        return nil
    }

    /// Runs the thumbnailer on `source`, reading its PNG from a private folder inside
    /// `workFolder` (in the cache, so nothing is written elsewhere).
    func thumbnail(of source: ThumbnailSource, edge: Int, timeout: Duration, workFolder: URL) throws(ThumbnailError) -> Pixbuf {
        let output = workFolder.appendingPathComponent("run-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        guard mkdir(workFolder.path, 0o700) == 0 || errno == EEXIST, mkdir(output.path, 0o700) == 0 else {
            throw .thumbnailerFailed(name: source.name, thumbnailer: name, reason: String(cString: strerror(errno)))
        }
        defer { try? FileManager.default.removeItem(at: output) }
        let input: Int32
        do { input = try WorkerInput.open(source.path) } catch {
            throw .thumbnailerFailed(name: source.name, thumbnailer: name, reason: error.reason)
        }
        defer { close(input) }
        let sandboxed = Sandbox.isAvailable
        let paths = Sandbox.paths(input: source.rawPath, outputFolder: output.path, outputName: "thumbnail.png")
        // A remote file's downloaded copy is handed by its own URI, not the server's.
        let inputURI = sandboxed || source.isDownloadedCopy ? takeString(g_filename_to_uri(paths.input, nil, nil)) ?? "" : source.uri
        guard let command = Sandbox.expand(exec, input: paths.input, uri: inputURI, output: paths.output, size: edge) else {
            throw .thumbnailerFailed(name: source.name, thumbnailer: name, reason: tr("its Exec line cannot be read"))
        }
        let arguments = Sandbox.wrap(command, outputFolder: output.path, paths: paths)
        switch SandboxedProcess(arguments: arguments, input: input).run(timeout: timeout) {
        case .timedOut, .cancelled:
            throw .timedOut(name: source.name, thumbnailer: name, seconds: Int(timeout.components.seconds))
        case .signalled(let signal):
            throw .thumbnailerFailed(name: source.name, thumbnailer: name, reason: tr("it crashed (signal %s)", String(signal)))
        case .exited(let code, _) where sandboxed && (129...160).contains(code):
            // bwrap passes on a crash of its child as the shell does: 128 + the signal.
            throw .thumbnailerFailed(name: source.name, thumbnailer: name, reason: tr("it crashed (signal %s)", String(code - 128)))
        case .exited(let code, let errors) where code != 0:
            let reason = tr("it exited with status %s", String(code)) + (errors.isEmpty ? "" : ": " + errors)
            throw .thumbnailerFailed(name: source.name, thumbnailer: name, reason: reason)
        case .exited:
            break
        }
        // What came back is untrusted too: decoded in a worker.
        let produced = output.appendingPathComponent("thumbnail.png").path
        return try ThumbnailWorkers.decodeOutput(atPath: produced, of: source, thumbnailer: name, edge: edge)
    }
}
