import DocumentCore
import Foundation

/// One item the previewer shows: a file (or folder) and, optionally, the title to show for it.
public struct PreviewItem: Sendable, Hashable {
    /// The file or folder to show: a local file URL, or a remote URI (downloaded with progress first).
    public let url: URL
    /// The title to show instead of the file's name; nil shows the name.
    public let title: String?

    /// Makes an item for the file at `url`, titled `title` or, without one, the file's name.
    public init(url: URL, title: String? = nil) {
        self.url = url
        self.title = title
    }

    /// The title shown in the header: the given one, else the file's name as GLib shows it
    /// (a name that is not UTF-8 is marked so), with any invisible control in it written out
    /// (a right-to-left override cannot hide the real extension).
    public var displayTitle: String {
        title ?? VisibleName.of(url.isFileURL ? url.fileDisplayName : url.lastPathComponent)
    }
}

/// What the previewer shows, item by item: the data source of `PreviewController`.
@MainActor
public protocol PreviewDataSource: AnyObject {
    /// How many items there are.
    func numberOfItems(in controller: PreviewController) -> Int
    /// The item at `index`, from 0 to `numberOfItems(in:)` − 1.
    func previewController(_ controller: PreviewController, itemAt index: Int) -> PreviewItem
}

/// What the previewer tells its owner, and asks it.
@MainActor
public protocol PreviewDelegate: AnyObject {
    /// The previewer is about to close.
    func previewControllerWillDismiss(_ controller: PreviewController)
    /// The previewer closed (its zoom back into the item may still be running).
    func previewControllerDidDismiss(_ controller: PreviewController)
    /// The user moved to another item (the browser's selection can follow).
    func previewController(_ controller: PreviewController, didMoveTo index: Int)
    /// A link in an item was activated; return false to handle it yourself.
    func previewController(_ controller: PreviewController, shouldOpen url: URL, in item: PreviewItem) -> Bool
    /// The widget the item is shown by in the owner's window, for the zoom transition.
    func previewController(_ controller: PreviewController, sourceWidgetFor item: PreviewItem) -> Widget?
}

extension PreviewDelegate {
    /// Does nothing.
    public func previewControllerWillDismiss(_ controller: PreviewController) {}
    /// Does nothing.
    public func previewControllerDidDismiss(_ controller: PreviewController) {}
    public func previewController(_ controller: PreviewController, didMoveTo index: Int) {}
    public func previewController(_ controller: PreviewController, shouldOpen url: URL, in item: PreviewItem) -> Bool { true }
    public func previewController(_ controller: PreviewController, sourceWidgetFor item: PreviewItem) -> Widget? { nil }
}

/// A data source over a fixed list of items.
@MainActor
public final class PreviewItemList: PreviewDataSource {
    /// The items, in the order the previewer goes through them.
    public var items: [PreviewItem]

    /// Makes a data source over `items`.
    public init(_ items: [PreviewItem]) { self.items = items }

    /// The number of items in the list.
    public func numberOfItems(in controller: PreviewController) -> Int { items.count }
    /// The item at `index` in the list.
    public func previewController(_ controller: PreviewController, itemAt index: Int) -> PreviewItem { items[index] }
}
