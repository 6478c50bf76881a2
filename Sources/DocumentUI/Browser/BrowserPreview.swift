import CGtk
import DocumentCore
import Foundation
import GtkSupport

/// Space in the browser: several selected items preview as a list of their own; one selected
/// item previews in the folder's view order, so Left/Right walk the folder and the browser's
/// selection follows. The thumbnail on screen is the zoom's source.
@MainActor
final class BrowserPreview: PreviewDataSource, PreviewDelegate {
    let controller = PreviewController()
    private let model: BrowserListModel
    /// The items previewed when several were selected; nil previews the folder in order.
    private var fixedItems: [PreviewItem]?
    /// Selects and reveals a position of the model (the previewer moved).
    var follow: ((Int) -> Void)?
    /// The widget that shows an item in the browser, for the zoom.
    var sourceWidget: ((URL) -> WidgetPointer?)?

    init(model: BrowserListModel) {
        self.model = model
        controller.dataSource = self
        controller.delegate = self
    }

    /// Previews `positions` (in view order) of the model, transient for `parent`.
    func present(positions: [Int], transientFor parent: UnsafeMutablePointer<GtkWindow>?) {
        guard !positions.isEmpty else { return }
        if positions.count == 1 {
            fixedItems = nil
            controller.reloadData()
            controller.currentIndex = positions[0]
        } else {
            fixedItems = positions.filter { $0 < model.count }.map { PreviewItem(url: model[$0].url, title: model[$0].name) }
            controller.reloadData()
            controller.currentIndex = 0
        }
        controller.present(transientFor: parent)
    }

    /// Previews files given by URL (not necessarily shown), as a list.
    func present(urls: [URL], transientFor parent: UnsafeMutablePointer<GtkWindow>?) {
        guard !urls.isEmpty else { return }
        fixedItems = urls.map { PreviewItem(url: $0) }
        controller.reloadData()
        controller.currentIndex = 0
        controller.present(transientFor: parent)
    }

    var isPresented: Bool { controller.isPresented }

    // MARK: PreviewDataSource

    func numberOfItems(in controller: PreviewController) -> Int { fixedItems?.count ?? model.count }

    func previewController(_ controller: PreviewController, itemAt index: Int) -> PreviewItem {
        if let fixedItems { return fixedItems[index] }
        let item = model[index]
        return PreviewItem(url: item.url, title: item.trashed == nil ? nil : item.name)
    }

    // MARK: PreviewDelegate

    func previewController(_ controller: PreviewController, didMoveTo index: Int) {
        guard fixedItems == nil else { return }
        follow?(index)
    }

    func previewController(_ controller: PreviewController, sourceWidgetFor item: PreviewItem) -> Widget? {
        sourceWidget?(item.url).map { Widget(gtkWidget: $0) }
    }
}
