import DocumentCore
import DocumentUI
import Foundation

/// `sketchbook --show FILE`: the previewer on one sketch, as Space shows it, in a process of
/// its own. The drawing is read on another core while GTK starts (`PreviewPrefetch`), and the
/// process ends when the previewer closes.
@MainActor
final class SketchPreview: PreviewDelegate {
    private let url: URL
    private let prefetch = PreviewPrefetch()
    private let items: PreviewItemList
    private var controller: PreviewController?
    private var application: AppInstance?

    init(url: URL) {
        self.url = url
        items = PreviewItemList([PreviewItem(url: url)])
    }

    func run() -> Int32 {
        PreviewRendererRegistry.shared.register(SketchRenderer.self)
        // The renderer's reading starts before GTK does.
        prefetch.start(url)
        guard Display.initialize() else {
            FileHandle.standardError.write(Data((tr("sketchbook: no display to show windows on") + "\n").utf8))
            return 1
        }
        prefetch.readDisplay()
        prefetch.stylesAreLoaded()
        let application = AppInstance(id: SketchbookApplication.applicationID + ".Preview", unique: false)
        self.application = application
        application.onActivate { [weak self] in self?.show() }
        return application.run()
    }

    private func show() {
        guard controller == nil, let application else { return }
        let controller = PreviewController(prefetch: prefetch)
        controller.dataSource = items
        controller.delegate = self
        controller.present(application: application)
        self.controller = controller
    }

    func previewControllerDidDismiss(_ controller: PreviewController) {
        application?.quit()
    }
}
