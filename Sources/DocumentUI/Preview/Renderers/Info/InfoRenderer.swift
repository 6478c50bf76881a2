import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Anything no other renderer shows: a page with the type's large icon, the name, the type,
/// the size and the dates. The window's Open With button is right above it.
@MainActor
package final class InfoRenderer: PreviewRenderer {
    package nonisolated static let supportedTypes: [DocumentType] = [.data, .symbolicLink, .fifo, .socket, .characterDevice,
                                                         .blockDevice]
    /// The widget that shows the item.
    package var view: Widget { Widget(gtkWidget: rootView) }
    /// The GtkWidget `view` wraps.
    let rootView: WidgetPointer

    /// Makes a renderer that shows an item's icon, name, kind, size and date.
    package init() {
        rootView = dossier_status_page_new()
    }

    package func load(_ item: PreviewItem, type: DocumentType) async throws {
        let url = item.url
        let info = await Task.detached { try? ItemInfo.inspect(url) }.value
        let page = OpaquePointer(rootView)
        let names = type.iconNames
        var icon = gtk_icon_theme_get_for_display(gdk_display_get_default())
        let available = names.first { gtk_icon_theme_has_icon(icon, $0) != 0 } ?? "text-x-generic"
        icon = nil
        adw_status_page_set_icon_name(page, available)
        adw_status_page_set_title(page, item.displayTitle)
        var lines = [type.localizedDescription]
        if let info {
            if info.kind == .regular {
                lines.append(takeString(g_format_size(guint64(max(info.size, 0)))) ?? "")
            }
            if let modified = info.modified {
                let formatter = DateFormatter()
                formatter.dateStyle = .medium
                formatter.timeStyle = .short
                lines.append(tr("Modified %s", formatter.string(from: modified)))
            }
        }
        if type.conforms(to: .image), !ImageFormats.decodes(type) {
            // A picture no decoder here reads: say so, rather than blame the file.
            if let package = ImageFormats.loaderPackage(for: type) {
                lines.append(tr("Pictures of this kind are shown once “%s” is installed.", package))
            } else {
                lines.append(tr("No picture decoder on this computer reads this kind of image."))
            }
        }
        adw_status_page_set_description(page, lines.joined(separator: "\n"))
        setAccessibleName(rootView, tr("Information about %s", item.displayTitle))
    }
}
