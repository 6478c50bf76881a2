import CGLib
import CGtk
import DocumentCore
import DocumentUI
import Foundation
import GObjectSupport
import GtkSupport

/// Dossier as a desktop application (`io.github.dossier.Dossier`): one instance per session,
/// found over D-Bus. The first launch becomes the instance; a later `dossier DIR` or
/// `dossier FILE…` hands its arguments, working directory, sender and annotation to it and
/// returns at once. Folders open in browser windows, files in the previewer (several at once
/// as one multi-item preview); `dossier` alone opens a window on the last location.
@MainActor
final class DossierApplication {
    static let applicationID = "io.github.dossier.Dossier"

    private let application: UnsafeMutablePointer<GtkApplication>
    private var windows: [BrowserWindow] = []
    private var previews: [(controller: PreviewController, items: PreviewItemList)] = []
    private lazy var state = WindowState()
    private let home = UserDirectories().home

    /// Hears of every request to open locations first (`$DOSSIER_OPEN_LOG` sets a log).
    weak var openDelegate: (any ApplicationOpenDelegate)?
    private var openLog: OpenRequestLog?
    /// Hears of apps' saves of remote files' copies (see `offerUpload`).
    private var editObservation: EditObservation?

    /// The application of the process, for callbacks from other threads.
    private(set) static weak var current: DossierApplication?

    init() {
        let flags = GApplicationFlags(rawValue: DOSSIER_G_APPLICATION_HANDLES_OPEN | DOSSIER_G_APPLICATION_HANDLES_COMMAND_LINE)
        application = UnsafeMutableRawPointer(adw_application_new(Self.applicationID, flags)!).assumingMemoryBound(to: GtkApplication.self)
        if let path = ProcessInfo.processInfo.environment["DOSSIER_OPEN_LOG"], !path.isEmpty {
            openLog = OpenRequestLog(file: URL(fileURLWithPath: path))
            openDelegate = openLog
        }
        let app = raw(application)
        connectSignal(app, "startup") { [weak self] in self?.startup() }
        connectSignal(app, "activate") { [weak self] in self?.activate() }
        connectSignal(app, "shutdown") { [weak self] in self?.state.flush() }
        connectCommandLine(app) { [weak self] commandLine in self?.handle(commandLine) ?? 1 }
        connectOpen(app) { [weak self] files in self?.open(OpenRequest(urls: urls(of: files))) }
        Self.current = self
    }

    /// Runs the application with the process's arguments until its last window closes (or,
    /// as a D-Bus service, until it has been idle for a while).
    func run(arguments: [String]) -> Int32 {
        let gapp: UnsafeMutablePointer<GApplication> = cast(application)
        // Started by D-Bus activation: stay a little while for the request that started it.
        let service = arguments.contains("--gapplication-service")
        if service { g_application_set_inactivity_timeout(gapp, 10_000) }
        // The launch that becomes the instance sets up GTK and its styles now, the light way
        // (`Display.loadStyles`); one that hands its arguments over needs no GTK at all. A
        // display that is named but cannot be opened (its server gone, or refusing) is said, not
        // crashed on: nothing of GTK may run without one.
        if service || !Self.isRunning, !Display.initialize() { return GraphicalCommand.displayCannotBeOpened() }
        MainLoopBridge.install()
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        return g_application_run(gapp, Int32(arguments.count), &argv)
    }

    /// Whether an instance already owns the application's name on the session bus (a launch
    /// then hands its arguments to it). GApplication asks again when it registers; the
    /// connection is the same shared one.
    private static var isRunning: Bool {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return false }
        defer { g_object_unref(raw(bus)) }
        var name: OpaquePointer? = g_variant_new_string(applicationID)
        let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                "NameHasOwner", g_variant_new_tuple(&name, 1), nil,
                                                GDBusCallFlags(rawValue: 0), 2000, nil, nil)
        guard let reply else { return false }
        defer { g_variant_unref(reply) }
        let owned = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(owned) }
        return g_variant_get_boolean(owned) != 0
    }

    // MARK: Signals

    private func startup() {
        Shortcuts.install(on: application)
        addAction("quit") { [weak self] in self?.quit() }
        addAction("about") { [weak self] in
            AboutDossier.present(transientFor: self.flatMap { gtk_application_get_active_window($0.application) }.map(widget))
        }
        followEditedCopies()
    }

    /// An app saved a remote file's copy Dossier handed it: the active browser window offers to
    /// upload it. Copies changed in an earlier run (Dossier quit while the app kept working)
    /// are offered once a window is there.
    private func followEditedCopies() {
        editObservation = RemoteEdits.shared.observe { edit in
            DispatchQueue.main.async { DossierApplication.current?.offerUpload(edit) }
        }
        Task { @MainActor [weak self] in
            let earlier = await Task.detached { RemoteEdits.shared.changedCopies }.value
            for edit in earlier { self?.offerUpload(edit) }
        }
    }

    private func offerUpload(_ edit: EditedCopy) {
        let active = gtk_application_get_active_window(application).map { UnsafeMutableRawPointer($0) }
        let window = windows.first { UnsafeMutableRawPointer($0.window) == active } ?? windows.last
        window?.browser.offerUpload(edit)
    }

    /// D-Bus `Activate` (a launcher): the last window comes forward, or a new one opens.
    private func activate() {
        if let window = gtk_application_get_active_window(application) {
            gtk_window_present(window)
        } else {
            openWindow(at: lastLocation)
        }
    }

    /// A launch's command line, in this process or sent by another one.
    private func handle(_ commandLine: UnsafeMutablePointer<GApplicationCommandLine>) -> Int32 {
        let arguments = Array(Self.arguments(of: commandLine).dropFirst())
        let workingDirectory = borrowString(g_application_command_line_get_cwd(commandLine))
        var request: OpenRequest
        do {
            request = try OpenRequest(arguments: arguments, workingDirectory: workingDirectory)
        } catch {
            dossier_command_line_printerr(commandLine, "dossier: " + error.message)
            return 2
        }
        request.startupID = Self.startupID(of: commandLine)
        for name in request.missing {
            dossier_command_line_printerr(commandLine, "dossier: " + ItemError.notFound(name: (name as NSString).lastPathComponent).description)
        }
        if request.urls.isEmpty, !request.missing.isEmpty { return 1 }
        open(request)
        return request.missing.isEmpty ? 0 : 1
    }

    // MARK: Opening

    /// Opens what a request names: a window per folder, one preview for all the files, or a
    /// window on the last location when it names nothing. The delegate hears of it first.
    private func open(_ request: OpenRequest) {
        if openDelegate?.applicationDidOpen(urls: request.urls, sender: request.sender, annotation: request.annotation) == true {
            return
        }
        guard !request.urls.isEmpty else {
            openWindow(at: lastLocation)
            return
        }
        let folders = request.urls.filter(OpenRequest.isFolder)
        let files = request.urls.filter { !OpenRequest.isFolder($0) }
        for folder in folders { openWindow(at: .folder(folder)) }
        if !files.isEmpty { preview(files) }
    }

    /// The location saved last, when it is still there; else Home.
    private var lastLocation: BrowserLocation {
        switch state.values.location {
        case .folder(let url)? where url.isFileURL && !FileManager.default.fileExists(atPath: url.path):
            return .folder(home)
        case let location?:
            return location
        case nil:
            return .folder(home)
        }
    }

    func openWindow(at location: BrowserLocation) {
        let window = BrowserWindow(application: application, location: location, state: state)
        window.openWindow = { [weak self] location in self?.openWindow(at: location) }
        window.didClose = { [weak self] closed in self?.windows.removeAll { $0 === closed } }
        windows.append(window)
        window.present()
    }

    /// Shows files in the previewer, Left/Right moving between them; the window goes away
    /// when it is closed.
    private func preview(_ files: [URL]) {
        let controller = PreviewController()
        let items = PreviewItemList(files.map { PreviewItem(url: $0) })
        controller.dataSource = items
        previews.append((controller, items))
        controller.visibilityDidChange = { [weak self, weak controller] visible in
            guard !visible, let self, let controller else { return }
            // After the controller has finished hiding it.
            DispatchQueue.main.async {
                if let window = controller.windowWidget { gtk_window_destroy(window.gtkWindow) }
                self.previews.removeAll { $0.controller === controller }
            }
        }
        controller.present(application: AppInstance(gtkApplication: application))
    }

    private func quit() {
        state.flush()
        for window in windows { gtk_window_close(cast(window.window)) }
        g_application_quit(cast(application))
    }

    private func addAction(_ name: String, _ handler: @escaping () -> Void) {
        let action = g_simple_action_new(name, nil)!
        connectSignal(raw(action), "activate") { (_: UnsafeMutableRawPointer?) in handler() }
        g_action_map_add_action(OpaquePointer(application), action)
        g_object_unref(raw(action))
    }

    // MARK: Command lines

    private static func arguments(of commandLine: UnsafeMutablePointer<GApplicationCommandLine>) -> [String] {
        var count: Int32 = 0
        guard let argv = g_application_command_line_get_arguments(commandLine, &count) else { return [] }
        defer { g_strfreev(argv) }
        return RawArguments.strings(argv, count: Int(count), directory: g_application_command_line_get_cwd(commandLine))
    }

    /// The launch's startup-notification ID or activation token (GTK puts it in the platform
    /// data of the command line it sends).
    private static func startupID(of commandLine: UnsafeMutablePointer<GApplicationCommandLine>) -> String? {
        guard let data = g_application_command_line_get_platform_data(commandLine) else { return nil }
        defer { g_variant_unref(data) }
        for key in ["activation-token", "desktop-startup-id"] {
            if let value = g_variant_lookup_value(data, key, nil) {
                defer { g_variant_unref(value) }
                if String(cString: g_variant_get_type_string(value)) == "s" {
                    return borrowString(g_variant_get_string(value, nil))
                }
            }
        }
        return nil
    }
}

// MARK: GApplication's `open`

/// The URLs of the files GApplication's `open` hands over (D-Bus `Open` from a launcher):
/// a local file's path, another location's URI.
private func urls(of files: [OpaquePointer]) -> [URL] {
    files.compactMap { file in
        if let path = FileSystemPath(taking: g_file_get_path(file)) {
            return path.string == nil ? path.url : path.url.standardizedFileURL
        }
        return takeString(g_file_get_uri(file)).flatMap { URL(string: $0) }
    }
}
