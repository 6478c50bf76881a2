import CGLib
import DocumentCore
import DocumentUI
import Foundation

/// Sketchbook as a desktop application: `sketchbook [FOLDER]` opens the browser on a folder
/// (`~/Sketches` by default), `sketchbook FILE.sketch…` opens editors. Every launch is its own
/// process (non-unique), so the note an opening app sets in `DOSSIER_ANNOTATION` reaches the
/// process that shows the file.
@MainActor
final class SketchbookApplication {
    static let applicationID = "io.github.dossier.Sketchbook"

    private let application: AppInstance
    private let folder: URL?
    private let files: [URL]
    private var annotation: String?
    private let autosaveDelay: DispatchTimeInterval
    private var browsers: [BrowserWindow] = []
    private var editors: [EditorWindow] = []

    init(arguments: [String]) {
        let given = arguments.map { URL(fileURLWithPath: $0).standardizedFileURL }
        var isFolder: ObjCBool = false
        if given.count == 1, FileManager.default.fileExists(atPath: given[0].path, isDirectory: &isFolder), isFolder.boolValue {
            folder = given[0]
            files = []
        } else {
            folder = nil
            files = given
        }
        let environment = ProcessInfo.processInfo.environment
        // The note is for this launch's documents only: the programs this app starts do not inherit it.
        annotation = environment[DocumentLauncher.annotationVariable]
        unsetenv(DocumentLauncher.annotationVariable)
        let seconds = environment["SKETCHBOOK_AUTOSAVE_SECONDS"].flatMap(Int.init) ?? 2
        autosaveDelay = .seconds(max(1, seconds))
        application = AppInstance(id: Self.applicationID, unique: false)
        application.onActivate { [weak self] in self?.activate() }
    }

    /// Runs until the last window closes.
    func run() -> Int32 {
        // The app's own renderer: Space in its browser draws sketches as the canvas does.
        PreviewRendererRegistry.shared.register(SketchRenderer.self)
        guard Display.initialize() else {
            FileHandle.standardError.write(Data((tr("sketchbook: no display to show windows on") + "\n").utf8))
            return 1
        }
        for (action, keys) in [("win.undo", "<Control>z"), ("win.redo", "<Shift><Control>z"), ("win.save", "<Control>s"),
                               ("win.close", "<Control>w")] {
            application.setShortcuts([keys], for: action)
        }
        return application.run()
    }

    private func activate() {
        if files.isEmpty {
            openBrowser(at: folder ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Sketches"))
        } else {
            open(files)
        }
    }

    private func openBrowser(at folder: URL) {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let browser = BrowserWindow(application: application, folder: folder, template: Self.template) { [weak self] urls in
            self?.open(urls)
        }
        browsers.append(browser)
    }

    /// Opens each sketch in its editor window (the one already open comes forward).
    private func open(_ urls: [URL]) {
        let note = annotation
        annotation = nil
        for url in urls {
            if let open = editors.first(where: { $0.document.fileURL.standardizedFileURL == url.standardizedFileURL }) {
                open.window.present()
                continue
            }
            let editor = EditorWindow(application: application, url: url, annotation: note, autosaveDelay: autosaveDelay)
            editor.didClose = { [weak self, weak editor] in self?.editors.removeAll { $0 === editor } }
            editors.append(editor)
        }
    }

    /// The blank sketch New ▸ Sketch copies: `sketchbook/templates/Sketch.sketch` in the data
    /// folders (installed with the app), else one written into the user's data folder.
    private static var template: URL? {
        var folders = [String(cString: g_get_user_data_dir())]
        if var system = g_get_system_data_dirs() {
            while let folder = system.pointee {
                folders.append(String(cString: folder))
                system += 1
            }
        }
        for folder in folders {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent("sketchbook/templates/Sketch.sketch")
            if FileManager.default.isReadableFile(atPath: candidate.path) { return candidate }
        }
        let written = URL(fileURLWithPath: folders[0]).appendingPathComponent("sketchbook/templates/Sketch.sketch")
        do {
            try FileManager.default.createDirectory(at: written.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Sketch().encoded().write(to: written, options: .atomic)
            return written
        } catch {
            return nil
        }
    }
}
