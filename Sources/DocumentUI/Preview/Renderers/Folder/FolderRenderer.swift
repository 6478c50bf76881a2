import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Folders as a summary page: the folder's icon and name, how many items it holds directly and
/// in all, and their total size, counted off the main thread by a bounded walk that says
/// "more than" when it stops early and never follows a link out of the folder.
///
/// A kept page shown again (the previewer keeps pages of unchanged files, and a folder's own
/// time does not change when something deeper in it does) shows its count at once and counts
/// again off the main thread, and the page follows if the count changed.
@MainActor
package final class FolderRenderer: PreviewRenderer {
    package nonisolated static let supportedTypes: [DocumentType] = [.folder]

    /// The widget that shows the item.
    package var view: Widget { Widget(gtkWidget: rootView) }
    /// The GtkWidget `view` wraps.
    let rootView: WidgetPointer
    private var shown: (item: PreviewItem, type: DocumentType)?
    private var isCounting = false
    /// True from a count until the page is next hidden: the showing it was made for.
    private var isCountFresh = false

    /// Makes a renderer that shows a folder's contents.
    package init() {
        rootView = dossier_status_page_new()
        connectSignal(raw(rootView), "map") { [weak self] in self?.countAfterFirstFrame() }
        connectSignal(raw(rootView), "unmap") { [weak self] in self?.isCountFresh = false }
    }

    package func load(_ item: PreviewItem, type: DocumentType) async throws {
        let url = item.url
        let (measured, info) = await Task.detached { (FolderSummary.measure(url.rawPath), try? ItemInfo.inspect(url)) }.value
        show(try measured.get(), info: info, of: item, type: type)
        shown = (item, type)
        isCountFresh = true
    }

    /// Counts again once the showing's first frame is on screen: the walk (a `stat` of every
    /// file of a large folder) would otherwise take a core while that frame is drawn, and on two
    /// cores delay it by frames.
    private func countAfterFirstFrame() {
        // The first tick comes before the first frame's layout; the second, after it was drawn.
        onNextFrame(of: rootView) { [weak self] in
            guard let self else { return }
            onNextFrame(of: self.rootView) { [weak self] in self?.countAgain() }
        }
    }

    /// Counts the shown folder again (on a showing after the first), off the main thread.
    private func countAgain() {
        guard let shown, !isCounting, !isCountFresh else { return }
        isCounting = true
        isCountFresh = true
        let url = shown.item.url
        Task { @MainActor [weak self] in
            let (measured, info) = await Task.detached { (FolderSummary.measure(url.rawPath), try? ItemInfo.inspect(url)) }.value
            guard let self else { return }
            self.isCounting = false
            if case .success(let summary) = measured { self.show(summary, info: info, of: shown.item, type: shown.type) }
        }
    }

    /// The description the page shows (for tests).
    var summaryText: String { borrowString(adw_status_page_get_description(OpaquePointer(rootView))) ?? "" }

    private func show(_ summary: FolderSummary, info: ItemInfo?, of item: PreviewItem, type: DocumentType) {
        let page = OpaquePointer(rootView)
        let theme = gtk_icon_theme_get_for_display(gdk_display_get_default())
        adw_status_page_set_icon_name(page, type.iconNames.first { gtk_icon_theme_has_icon(theme, $0) != 0 } ?? "folder")
        adw_status_page_set_title(page, item.displayTitle)
        var lines = [type.localizedDescription]
        lines += Self.describe(summary)
        if let modified = info?.modified {
            let formatter = DateFormatter()
            formatter.dateStyle = .medium
            formatter.timeStyle = .short
            lines.append(tr("Modified %s", formatter.string(from: modified)))
        }
        let description = lines.joined(separator: "\n")
        if description != summaryText { adw_status_page_set_description(page, description) }
        setAccessibleName(rootView, tr("Summary of folder %s", item.displayTitle))
    }

    nonisolated static func describe(_ summary: FolderSummary) -> [String] {
        var lines: [String] = []
        let size = formattedSize(summary.totalSize)
        if summary.directItems == 0 && summary.isComplete {
            lines.append(tr("Empty"))
        } else if summary.isDirectCountComplete {
            lines.append(trn("%d item", "%d items", summary.directItems))
        } else {
            lines.append(tr("More than %s items", formattedCount(summary.directItems)))
        }
        if !summary.isComplete {
            lines.append(tr("More than %s items in all, totalling more than %s", formattedCount(summary.totalItems), size))
        } else if summary.totalItems > summary.directItems {
            lines.append(trn("%s item in all, totalling %s", "%s items in all, totalling %s", summary.totalItems,
                             formattedCount(summary.totalItems), size))
        } else if summary.totalItems > 0 {
            lines.append(tr("Totalling %s", size))
        }
        if summary.unreadableFolders > 0 {
            lines.append(trn("%d folder inside could not be read", "%d folders inside could not be read", summary.unreadableFolders))
        }
        return lines
    }

}
