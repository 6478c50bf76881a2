import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The file operations running in a window, shown as Files shows them: a header-bar button
/// (a pie of the overall progress) whose popover lists each operation with its progress bar
/// and a Cancel button. The button appears when an operation has run for a moment, and goes
/// again a little after the last one finished.
@MainActor
final class OperationsProgress {
    /// The header-bar button (hidden while nothing runs).
    let button: WidgetPointer
    private let list: WidgetPointer
    private let overall: WidgetPointer
    private var rows: [UUID: Row] = [:]
    private var timer: guint = 0

    private struct Row {
        let progress: Progress
        let widget: WidgetPointer
        let bar: WidgetPointer
        let detail: WidgetPointer
        let cancel: WidgetPointer
        let started: Date
        /// When it ended; nil while it runs.
        var finished: Date?
    }

    init() {
        overall = gtk_progress_bar_new()!
        button = gtk_menu_button_new()!
        list = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(cast(list), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(list, "boxed-list")
        let title = makeLabel(tr("File Operations"), classes: ["heading"])
        gtk_widget_set_halign(title, GTK_ALIGN_START)
        let content = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 12, [title, list])
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(content, 12)
        }
        gtk_widget_set_size_request(content, 320, -1)
        let popover = gtk_popover_new()!
        gtk_popover_set_child(cast(popover), content)
        gtk_menu_button_set_popover(cast(button), popover)
        gtk_menu_button_set_icon_name(cast(button), "emblem-synchronizing-symbolic")
        setAccessibleName(button, tr("File Operations"))
        gtk_widget_set_tooltip_text(button, tr("Show File Operations"))
        gtk_widget_set_visible(button, 0)
        setAccessibleName(list, tr("File Operations"))
    }

    /// Shows `progress` under `title` ("Copying 3 items") until it completes or is cancelled.
    func track(_ progress: Progress, title: String) -> UUID {
        let id = UUID()
        let label = makeLabel(title)
        gtk_label_set_ellipsize(opaque(label), PANGO_ELLIPSIZE_MIDDLE)
        gtk_widget_set_halign(label, GTK_ALIGN_START)
        let detail = makeLabel("", classes: ["caption", "dim-label"])
        gtk_widget_set_halign(detail, GTK_ALIGN_START)
        let bar = gtk_progress_bar_new()!
        setAccessibleName(bar, title)
        let texts = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 6, [label, bar, detail])
        gtk_widget_set_hexpand(texts, 1)
        let cancel = gtk_button_new_from_icon_name("process-stop-symbolic")!
        gtk_widget_add_css_class(cancel, "flat")
        gtk_widget_add_css_class(cancel, "circular")
        gtk_widget_set_valign(cancel, GTK_ALIGN_CENTER)
        setAccessibleName(cancel, tr("Cancel %s", title))
        gtk_widget_set_tooltip_text(cancel, tr("Cancel"))
        connectSignal(raw(cancel), "clicked") { progress.cancel() }
        let row = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [texts, cancel])
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(row, 8)
        }
        gtk_list_box_prepend(cast(list), row)
        rows[id] = Row(progress: progress, widget: row, bar: bar, detail: detail, cancel: cancel, started: Date())
        startTimer()
        return id
    }

    /// The operation `id` ended (done, failed or cancelled).
    func finish(_ id: UUID) {
        rows[id]?.finished = Date()
        update()
    }

    /// Whether any operation is still running (for tests and the window's close).
    var isBusy: Bool { rows.values.contains { $0.finished == nil } }

    private func startTimer() {
        guard timer == 0 else { return }
        timer = MainLoopTimer.start(milliseconds: 150) { [weak self] in self?.tick() ?? false }
    }

    private func tick() -> Bool {
        update()
        if rows.isEmpty {
            timer = 0
            return false
        }
        return true
    }

    private func update() {
        let now = Date()
        for (id, row) in rows {
            let total = max(row.progress.totalUnitCount, 1)
            let fraction = min(1, Double(row.progress.completedUnitCount) / Double(total))
            // A cancelled copy stays where it stopped: a full bar would say it got done.
            gtk_progress_bar_set_fraction(cast(row.bar), row.finished != nil && !row.progress.isCancelled ? 1 : fraction)
            let text: String
            if row.progress.isCancelled {
                text = tr("Cancelled")
            } else if row.finished != nil {
                text = tr("Done")
            } else {
                text = tr("%s of %s", formattedSize(row.progress.completedUnitCount), formattedSize(total))
            }
            gtk_label_set_text(opaque(row.detail), text)
            gtk_widget_set_sensitive(row.cancel, row.finished != nil || row.progress.isCancelled ? 0 : 1)
            // A finished row stays a moment so a person sees it end, then goes.
            if let finished = row.finished, now.timeIntervalSince(finished) > 3 {
                gtk_list_box_remove(cast(list), gtk_widget_get_parent(row.widget))
                rows[id] = nil
            }
        }
        // Shown for operations that take a while: quick ones never flash the button.
        let slow = rows.values.contains { ($0.finished ?? now).timeIntervalSince($0.started) > 0.4 }
        if slow { gtk_widget_set_visible(button, 1) }
        if rows.isEmpty {
            gtk_menu_button_popdown(cast(button))
            gtk_widget_set_visible(button, 0)
        }
    }
}
