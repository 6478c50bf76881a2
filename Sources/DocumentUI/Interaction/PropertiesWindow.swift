import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// What the properties window shows, read off the main thread.
struct DocumentProperties: Sendable {
    var info: ItemInfo?
    var created: Date?
    var itemCount: Int?
    var tags: [String]
    var defaultApplication: Application?

    static func read(_ url: URL, type: DocumentType) -> DocumentProperties {
        let info = try? ItemInfo.inspect(url)
        var properties = DocumentProperties(info: info, tags: [])
        if url.isFileURL {
            let attributes = url.rawPath.string.flatMap { try? FileManager.default.attributesOfItem(atPath: $0) }
            properties.created = attributes?[.creationDate] as? Date
            properties.tags = (try? TagStore().tags(of: url)) ?? []
            if info?.kind == .directory {
                properties.itemCount = url.rawPath.string.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0) }?.count
            }
        }
        properties.defaultApplication = ApplicationRegistry().defaultApplication(for: info?.type ?? type)
        return properties
    }
}

/// Properties: a libadwaita preferences window with the document's icon and name, its type,
/// size, location, dates, tags, and the app that opens it (with "Change…" for the chooser).
@MainActor
final class PropertiesWindow {
    let window: WidgetPointer
    var onClose: (() -> Void)?

    init(parent: UnsafeMutablePointer<GtkWindow>?, name: String, url: URL, type: DocumentType, icon: OpaquePointer,
         properties: DocumentProperties, showInFolder: @escaping () -> Void, changeApplication: @escaping () -> Void) {
        window = adw_preferences_window_new()!
        gtk_window_set_title(cast(window), tr("Properties of %s", VisibleName.of(name)))
        gtk_window_set_default_size(cast(window), 460, 700)
        gtk_window_set_modal(cast(window), 1)
        adw_preferences_window_set_search_enabled(cast(window), 0)
        if let parent { gtk_window_set_transient_for(cast(window), parent) }
        setAccessibleName(window, tr("Properties of %s", name))

        let page = adw_preferences_page_new()!
        let top = adw_preferences_group_new()!
        let image = gtk_image_new_from_gicon(icon)!
        gtk_image_set_pixel_size(cast(image), 96)
        let title = makeLabel(name, classes: ["title-2"], wrap: true)
        let heading = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 12, [image, title])
        adw_preferences_group_add(cast(top), heading)
        adw_preferences_page_add(cast(page), cast(top))

        let general = adw_preferences_group_new()!
        let info = properties.info
        let shownType = info?.type ?? type
        Self.addRow(general, tr("Type"), "\(shownType.localizedDescription) (\(shownType.identifier))")
        if let count = properties.itemCount {
            Self.addRow(general, tr("Contents"), trn("%s item", "%s items", count, formattedCount(count)))
        } else if let info, info.kind == .regular {
            Self.addRow(general, tr("Size"), tr("%s (%s bytes)", formattedSize(info.size), formattedCount(Int(info.size))))
        }
        let folder = url.deletingLastPathComponent()
        let locationRow = Self.addRow(general, tr("Location"), folder.parseName)
        let show = gtk_button_new_from_icon_name("folder-open-symbolic")!
        gtk_widget_add_css_class(show, "flat")
        gtk_widget_set_valign(show, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(show, tr("Show in Folder"))
        setAccessibleName(show, tr("Show in Folder"))
        connectSignal(raw(show), "clicked") { () -> Void in showInFolder() }
        adw_action_row_add_suffix(cast(locationRow), show)
        let dates = DateFormatter()
        dates.dateStyle = .long
        dates.timeStyle = .short
        if let modified = info?.modified { Self.addRow(general, tr("Modified"), dates.string(from: modified)) }
        if let created = properties.created { Self.addRow(general, tr("Created"), dates.string(from: created)) }
        if info == nil { Self.addRow(general, tr("Status"), tr("The item could not be read")) }
        adw_preferences_page_add(cast(page), cast(general))

        let more = adw_preferences_group_new()!
        if url.isFileURL {
            Self.addRow(more, tr("Tags"), properties.tags.isEmpty ? tr("None") : properties.tags.joined(separator: ", "))
        } else {
            // Local-only features say so where they would be, dimmed, rather than failing later.
            let tags = Self.addRow(more, tr("Tags"), DocumentInteractionController.tagsLocalOnly)
            gtk_widget_set_sensitive(tags, 0)
            let following = Self.addRow(more, tr("Following Moves"),
                                        tr("Recent files and bookmarks find a file again after it is moved or renamed only on this computer"))
            gtk_widget_set_sensitive(following, 0)
        }
        let appRow = Self.addRow(more, tr("Opens With"), properties.defaultApplication?.name ?? tr("No application"))
        let change = gtk_button_new_with_label(tr("Change…"))!
        gtk_widget_set_valign(change, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(change, tr("Choose the application that opens this type"))
        connectSignal(raw(change), "clicked") { () -> Void in changeApplication() }
        adw_action_row_add_suffix(cast(appRow), change)
        adw_preferences_page_add(cast(page), cast(more))

        adw_preferences_window_add(cast(window), cast(page))
        connectSignal(raw(window), "close-request", returning: { [weak self] in
            self?.onClose?()
            self?.onClose = nil
            return false
        })
    }

    func present() { gtk_window_present(cast(window)) }

    func close() { gtk_window_close(cast(window)) }

    /// A row with a title and the value as its subtitle (screen readers read the row by its
    /// title, then the value).
    @discardableResult
    private static func addRow(_ group: WidgetPointer, _ title: String, _ value: String) -> WidgetPointer {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(cast(row), title)
        adw_action_row_set_subtitle(cast(row), value)
        adw_preferences_row_set_use_markup(cast(row), 0)
        adw_preferences_group_add(cast(group), row)
        return row
    }
}

extension DocumentInteractionController {
    /// Shows the properties of the document (the first of several).
    public func presentProperties() {
        let url = url
        let type = documentType
        keptAlive["properties"] = self
        Task { @MainActor in
            let properties = await Task.detached { DocumentProperties.read(url, type: type) }.value
            let icon = makeIcon()
            self.properties?.onClose = nil
            self.properties?.close()
            let window = PropertiesWindow(
                parent: hostWindow(), name: name, url: url, type: type, icon: icon.gIcon, properties: properties,
                showInFolder: { FolderView.show(url) },
                changeApplication: { [weak self] in self?.presentApplicationChooser() })
            window.onClose = { [weak self] in
                self?.properties = nil
                self?.keptAlive["properties"] = nil
            }
            self.properties = window
            window.present()
        }
    }
}
