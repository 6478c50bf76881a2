import CGLib
import CGtk
import DocumentCore
import DocumentUI
import Foundation
import GObjectSupport
import GtkSupport

/// `dossier preview PATH|URI…`: the previewer on those items (the `qlmanage -p` of Linux);
/// Left/Right move between them. Ends when the window is closed. Remote items (`sftp://…`)
/// are downloaded on demand, with their progress shown.
struct PreviewCommand {
    let arguments: [String]

    @MainActor
    func run() -> Int32 {
        guard let parsed = ParsedArguments.parse(arguments, flags: []) else { return 2 }
        guard !parsed.operands.isEmpty else {
            Output.error(tr("Name at least one file: dossier preview PATH…"))
            return 2
        }
        // Missing paths are reported; the others are still shown.
        var failed = false
        var items: [PreviewItem] = []
        for argument in parsed.operands {
            let url = RemoteFiles.location(ofArgument: argument)
            // A remote item is asked about and downloaded by the previewer, with its progress.
            if RemoteFiles.isRemote(url) {
                items.append(PreviewItem(url: url))
                continue
            }
            var status = stat()
            if url.rawPath.withCString({ lstat($0, &status) }) != 0 {
                Output.error(ItemError.notFound(name: VisibleName.of(url.fileDisplayName)).description)
                failed = true
            } else {
                items.append(PreviewItem(url: url))
            }
        }
        guard !items.isEmpty else { return 1 }
        let environment = ProcessInfo.processInfo.environment
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else {
            Output.error(tr("No display: the previewer needs a graphical session (dossier info works without one)."))
            return 1
        }
        TemporaryFiles.keepInCache()
        let status = PreviewApplication(items: items).run()
        return failed ? 1 : status
    }
}

/// A libadwaita application whose one window is the previewer.
@MainActor
final class PreviewApplication {
    let items: [PreviewItem]
    private let controller = PreviewController()
    private let list: PreviewItemList

    init(items: [PreviewItem]) {
        self.items = items
        list = PreviewItemList(items)
    }

    func run() -> Int32 {
        let application = adw_application_new("io.github.dossier.Dossier.Preview", GApplicationFlags(rawValue: DOSSIER_G_APPLICATION_NON_UNIQUE))!
        defer { g_object_unref(UnsafeMutableRawPointer(application)) }
        controller.dataSource = list
        connectSignal(UnsafeMutableRawPointer(application), "activate") { [self] () -> Void in
            let app = UnsafeMutableRawPointer(application).assumingMemoryBound(to: GtkApplication.self)
            controller.visibilityDidChange = { visible in
                if !visible { g_application_quit(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self)) }
            }
            controller.present(application: AppInstance(gtkApplication: app))
        }
        // GTK and its styles, the light way (`Display.loadStyles`), and the main-queue bridge,
        // before the application starts.
        guard Display.initialize() else { return GraphicalCommand.displayCannotBeOpened() }
        return g_application_run(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self), 0, nil)
    }
}
