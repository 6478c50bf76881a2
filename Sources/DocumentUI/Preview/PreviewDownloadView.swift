import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// What the previewer shows while a remote item downloads into Dossier's cache: the bytes
/// done of the whole, a progress bar and a Cancel button; and, when the download fails, the
/// Retry button of the error page.
@MainActor
final class PreviewDownloadView {
    /// The status page with the progress (owned by the page's stack).
    let view: WidgetPointer
    private let bar: WidgetPointer
    private let cancelButton: WidgetPointer
    private(set) var shown: DownloadProgress?

    init(title: String, cancel: @escaping @MainActor () -> Void) {
        view = dossier_status_page_new()
        adw_status_page_set_icon_name(OpaquePointer(view), "folder-download-symbolic")
        adw_status_page_set_title(OpaquePointer(view), tr("Downloading “%s”", title))
        bar = gtk_progress_bar_new()
        setAccessibleName(bar, tr("Download of %s", title))
        gtk_widget_set_size_request(bar, 280, -1)
        gtk_widget_set_halign(bar, GTK_ALIGN_CENTER)
        cancelButton = gtk_button_new_with_label(tr("Cancel"))
        gtk_widget_add_css_class(cancelButton, "pill")
        gtk_widget_set_halign(cancelButton, GTK_ALIGN_CENTER)
        setAccessibleName(cancelButton, tr("Cancel Download"))
        connectSignal(raw(cancelButton), "clicked") { cancel() }
        adw_status_page_set_child(OpaquePointer(view), makeBox(GTK_ORIENTATION_VERTICAL, spacing: 18, [bar, cancelButton]))
        setAccessibleName(view, tr("Downloading “%s”", title))
    }

    /// Shows how far the download has come (a late report of less is ignored).
    func show(_ progress: DownloadProgress) {
        if let shown, shown.bytesDone > progress.bytesDone { return }
        shown = progress
        let text = progress.bytesExpected >= 0
            ? tr("%s of %s", formattedSize(progress.bytesDone), formattedSize(progress.bytesExpected))
            : formattedSize(progress.bytesDone)
        adw_status_page_set_description(OpaquePointer(view), text)
        gtk_progress_bar_set_fraction(cast(bar), progress.fraction)
    }

    /// Back to nothing downloaded, for a retry.
    func reset() {
        shown = nil
        adw_status_page_set_description(OpaquePointer(view), "")
        gtk_progress_bar_set_fraction(cast(bar), 0)
    }

    /// A Retry button for the error page (its owner connects `clicked`).
    static func makeRetryButton() -> WidgetPointer {
        let button = gtk_button_new_with_label(tr("Retry"))!
        gtk_widget_add_css_class(button, "pill")
        gtk_widget_add_css_class(button, "suggested-action")
        gtk_widget_set_halign(button, GTK_ALIGN_CENTER)
        setAccessibleName(button, tr("Retry"))
        return button
    }
}
