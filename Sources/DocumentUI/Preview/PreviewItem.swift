import DocumentCore
import Foundation

/// One item the previewer shows: a file (or folder) and, optionally, the title to show for it.
public struct PreviewItem: Sendable, Hashable {
    public let url: URL
    public let title: String?

    public init(url: URL, title: String? = nil) {
        self.url = url
        self.title = title
    }

    /// The title shown in the header: the given one, else the file's name.
    public var displayTitle: String { title ?? url.lastPathComponent }
}

/// What the previewer shows, item by item: the data source of `PreviewController`.
@MainActor
public protocol PreviewDataSource: AnyObject {
    func numberOfItems(in controller: PreviewController) -> Int
    func previewController(_ controller: PreviewController, itemAt index: Int) -> PreviewItem
}

/// What the previewer tells its owner, and asks it.
@MainActor
public protocol PreviewDelegate: AnyObject {
    func previewControllerWillDismiss(_ controller: PreviewController)
    func previewControllerDidDismiss(_ controller: PreviewController)
    /// The user moved to another item (the browser's selection can follow).
    func previewController(_ controller: PreviewController, didMoveTo index: Int)
    /// A link in an item was activated; return false to handle it yourself.
    func previewController(_ controller: PreviewController, shouldOpen url: URL, in item: PreviewItem) -> Bool
    /// The widget the item is shown by in the owner's window, for the zoom transition.
    func previewController(_ controller: PreviewController, sourceWidgetFor item: PreviewItem) -> Widget?
}

extension PreviewDelegate {
    public func previewControllerWillDismiss(_ controller: PreviewController) {}
    public func previewControllerDidDismiss(_ controller: PreviewController) {}
    public func previewController(_ controller: PreviewController, didMoveTo index: Int) {}
    public func previewController(_ controller: PreviewController, shouldOpen url: URL, in item: PreviewItem) -> Bool { true }
    public func previewController(_ controller: PreviewController, sourceWidgetFor item: PreviewItem) -> Widget? { nil }
}

/// A data source over a fixed list of items.
@MainActor
public final class PreviewItemList: PreviewDataSource {
    public var items: [PreviewItem]

    public init(_ items: [PreviewItem]) { self.items = items }

    public func numberOfItems(in controller: PreviewController) -> Int { items.count }
    public func previewController(_ controller: PreviewController, itemAt index: Int) -> PreviewItem { items[index] }
}
