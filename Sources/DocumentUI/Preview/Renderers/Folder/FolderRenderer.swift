import CGtk
import DocumentCore
import Foundation
import GObjectSupport

/// Folders as a summary page: the folder's icon and name, how many items it holds directly and
/// in all, and their total size, counted off the main thread by a bounded walk that says
/// "more than" when it stops early and never follows a link out of the folder.
@MainActor
public final class FolderRenderer: PreviewRenderer {
    public static let supportedTypes: [DocumentType] = [.folder]

    public let view: Widget

    public init() {
        view = dossier_status_page_new()
    }

    public func load(_ item: PreviewItem, type: DocumentType) async throws {
        let path = item.url.path
        let (measured, info) = await Task.detached { (FolderSummary.measure(path), try? ItemInfo.inspect(path)) }.value
        let summary = try measured.get()
        let page = OpaquePointer(view)
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
        adw_status_page_set_description(page, lines.joined(separator: "\n"))
        setAccessibleName(view, tr("Summary of folder %s", item.displayTitle))
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
