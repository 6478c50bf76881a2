import CGLib
import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest

@testable import DocumentUI

/// What is local-only says so on a remote item, where a person looks for it: the Tags
/// submenu holds one disabled line that explains, and Properties shows the Tags row dimmed
/// with the same words. (The same against a mounted server is in `RemoteLocationTests`.)
final class RemoteItemLimitsTests: XCTestCase {
    private static let remote = URL(string: "sftp://127.0.0.1:2222/home/me/report.pdf")!

    func testTheTagsSubmenuOfARemoteItemSaysTagsAreLocalOnly() throws {
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_title(cast(window), "Remote Tags")
            gtk_window_set_default_size(cast(window), 480, 320)
            let controller = DocumentInteractionController(url: Self.remote)
            controller.installActions(on: window)
            let data = MenuData(types: [controller.documentType], applications: [], defaultApplication: nil, tags: [[]],
                                offeredTags: ["Invoices", "Work"], allFavorites: false)
            let menu = controller.makeTagsMenu(data)
            defer { g_object_unref(raw(menu)) }

            XCTAssertEqual(g_menu_model_get_n_items(cast(menu)), 1, "no tags to tick, no New Tag…")
            let label = Self.attribute(menu, "label")
            let action = Self.attribute(menu, "action")
            XCTAssertEqual(label, "Only files on this computer can have tags")
            XCTAssertEqual(action, "doc.tags-local-only")
            let group = try XCTUnwrap(controller.actions)
            XCTAssertEqual(g_action_group_get_action_enabled(cast(group), "tags-local-only"), 0, "shown, never enabled")

            // As a person sees it: the submenu's own model in a popover over the window.
            let button = gtk_menu_button_new()!
            gtk_menu_button_set_label(cast(button), "Tags")
            gtk_widget_set_halign(button, GTK_ALIGN_CENTER)
            gtk_widget_set_valign(button, GTK_ALIGN_START)
            gtk_menu_button_set_menu_model(cast(button), cast(menu))
            gtk_window_set_child(cast(window), button)
            gtk_window_present(cast(window))
            XCTAssertTrue(waitUntilDrawn())
            gtk_menu_button_popup(cast(button))
            XCTAssertTrue(waitUntilDrawn())
            DesktopTest.screenshot("remote-tags-menu")
            gtk_menu_button_popdown(cast(button))
        }
    }

    func testPropertiesOfARemoteItemShowTagsDimmedWithTheReason() throws {
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let controller = DocumentInteractionController(url: Self.remote)
            controller.presentProperties()
            var window: WidgetPointer?
            XCTAssertTrue(spin { window = Self.toplevel(titled: "Properties of report.pdf"); return window != nil })
            let properties = try XCTUnwrap(window)
            defer { gtk_window_destroy(cast(properties)) }
            let rows = Self.actionRows(in: properties)
            let tags = try XCTUnwrap(rows.first { $0.title == "Tags" }, "\(rows.map(\.title))")
            XCTAssertEqual(tags.subtitle, "Only files on this computer can have tags")
            XCTAssertFalse(tags.sensitive, "dimmed: nothing to do there")
            let following = try XCTUnwrap(rows.first { $0.title == "Following Moves" }, "\(rows.map(\.title))")
            XCTAssertFalse(following.sensitive)
            XCTAssertTrue(rows.contains { $0.title == "Location" && $0.subtitle == "sftp://127.0.0.1:2222/home/me/" })
            XCTAssertTrue(waitUntilDrawn())
            DesktopTest.screenshot("remote-properties")
        }
    }

    /// The first menu item's string attribute `name`.
    private static func attribute(_ menu: OpaquePointer, _ name: String) -> String? {
        guard let value = g_menu_model_get_item_attribute_value(cast(menu), 0, name, nil) else { return nil }
        defer { g_variant_unref(value) }
        return borrowString(g_variant_get_string(value, nil))
    }

    @MainActor
    private static func toplevel(titled title: String) -> WidgetPointer? {
        let list = gtk_window_list_toplevels()
        defer { g_list_free(list) }
        var node = list
        while let current = node {
            if let data = current.pointee.data {
                let window = data.assumingMemoryBound(to: GtkWidget.self)
                if borrowString(gtk_window_get_title(cast(window))) == title, gtk_widget_get_mapped(window) != 0 { return window }
            }
            node = current.pointee.next
        }
        return nil
    }

    @MainActor
    private static func actionRows(in widget: WidgetPointer) -> [(title: String, subtitle: String, sensitive: Bool)] {
        var rows: [(String, String, Bool)] = []
        func walk(_ widget: WidgetPointer) {
            let type = String(cString: g_type_name_from_instance(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)))
            if type == "AdwActionRow" {
                rows.append((borrowString(adw_preferences_row_get_title(cast(widget))) ?? "",
                             borrowString(adw_action_row_get_subtitle(cast(widget))) ?? "",
                             gtk_widget_is_sensitive(widget) != 0))
            }
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                walk(current)
                child = gtk_widget_get_next_sibling(current)
            }
        }
        walk(widget)
        return rows
    }
}
