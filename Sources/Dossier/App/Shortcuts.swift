import CGLib
import CGtk
import DocumentCore
import DocumentUI
import Foundation
import GObjectSupport
import GtkSupport

/// Every keyboard shortcut of the browser window, in one list: it registers the accelerators
/// and fills the shortcuts window (Ctrl+?), so the two cannot disagree.
@MainActor
enum Shortcuts {
    struct Shortcut {
        let title: String
        /// A detailed action name (`browser.view-mode::list`).
        let action: String
        let accelerators: [String]
        /// Bare keys (Space, Enter) and Ctrl+A act only when the focused widget did not use
        /// the key first, so they never steal it from a text field.
        var bubbles = false
    }

    struct Group {
        let title: String
        let shortcuts: [Shortcut]
    }

    static var groups: [Group] {
        [
            Group(title: tr("Windows"), shortcuts: [
                Shortcut(title: tr("New window"), action: "win.new-window", accelerators: ["<Control>n"]),
                Shortcut(title: tr("Close window"), action: "window.close", accelerators: ["<Control>w"]),
                Shortcut(title: tr("Quit"), action: "app.quit", accelerators: ["<Control>q"]),
                Shortcut(title: tr("Show or hide the sidebar"), action: "win.show-sidebar", accelerators: ["F9"]),
                Shortcut(title: tr("Keyboard shortcuts"), action: "win.show-help-overlay", accelerators: ["<Control>question"]),
            ]),
            Group(title: tr("Navigation"), shortcuts: [
                Shortcut(title: tr("Back"), action: "browser.back", accelerators: ["<Alt>Left"]),
                Shortcut(title: tr("Forward"), action: "browser.forward", accelerators: ["<Alt>Right"]),
                Shortcut(title: tr("Enclosing folder"), action: "browser.up", accelerators: ["<Alt>Up"]),
                Shortcut(title: tr("Search"), action: "browser.search", accelerators: ["<Control>f"]),
                Shortcut(title: tr("Type a location or server address"), action: "browser.enter-location", accelerators: ["<Control>l"]),
                Shortcut(title: tr("Connect to a server"), action: "browser.connect-to-server", accelerators: ["<Control>k"]),
                Shortcut(title: tr("Reload (connect to the server again)"), action: "browser.retry", accelerators: ["F5", "<Control>r"]),
            ]),
            Group(title: tr("View"), shortcuts: [
                Shortcut(title: tr("Grid view"), action: "browser.view-mode::grid", accelerators: ["<Control>1"]),
                Shortcut(title: tr("List view"), action: "browser.view-mode::list", accelerators: ["<Control>2"]),
                Shortcut(title: tr("Zoom in"), action: "browser.zoom-in", accelerators: ["<Control>plus", "<Control>equal"]),
                Shortcut(title: tr("Zoom out"), action: "browser.zoom-out", accelerators: ["<Control>minus"]),
                Shortcut(title: tr("Reset zoom"), action: "browser.zoom-reset", accelerators: ["<Control>0"]),
                Shortcut(title: tr("Show hidden files"), action: "browser.show-hidden", accelerators: ["<Control>h"]),
            ]),
            Group(title: tr("Items"), shortcuts: [
                Shortcut(title: tr("Preview the selection"), action: "browser.preview", accelerators: ["space"], bubbles: true),
                Shortcut(title: tr("Open the selection"), action: "browser.open", accelerators: ["Return"], bubbles: true),
                Shortcut(title: tr("Select all"), action: "browser.select-all", accelerators: ["<Control>a"], bubbles: true),
                Shortcut(title: tr("Print the selected item"), action: "browser.print", accelerators: ["<Control>p"]),
                Shortcut(title: tr("Show the item menu"), action: "browser.options-menu", accelerators: ["Menu", "<Shift>F10"],
                         bubbles: true),
            ]),
            Group(title: tr("Editing"), shortcuts: [
                Shortcut(title: tr("Rename"), action: "browser.rename", accelerators: ["F2"], bubbles: true),
                Shortcut(title: tr("Move to the Trash"), action: "browser.trash", accelerators: ["Delete"], bubbles: true),
                Shortcut(title: tr("Copy"), action: "browser.copy", accelerators: ["<Control>c"], bubbles: true),
                Shortcut(title: tr("Cut"), action: "browser.cut", accelerators: ["<Control>x"], bubbles: true),
                Shortcut(title: tr("Paste"), action: "browser.paste", accelerators: ["<Control>v"], bubbles: true),
                Shortcut(title: tr("Undo"), action: "browser.undo", accelerators: ["<Control>z"], bubbles: true),
                Shortcut(title: tr("New folder"), action: "browser.new-folder", accelerators: ["<Control><Shift>n"]),
            ]),
        ]
    }

    /// Registers the application's accelerators (those that cannot steal a key from a text
    /// field; the others are the browser widget's, see `attach(to:)`).
    static func install(on application: UnsafeMutablePointer<GtkApplication>) {
        for group in groups {
            for shortcut in group.shortcuts where !shortcut.bubbles {
                withCStrings(shortcut.accelerators) { gtk_application_set_accels_for_action(application, shortcut.action, $0) }
            }
        }
    }

    /// Makes the `browser.` shortcuts work wherever the focus is in the window. Application
    /// accelerators are activated on the window itself, which does not see the action group
    /// the browser puts on its own widget; shortcut controllers on that widget, managed by the
    /// window, do. The bare keys bubble: a text field that uses them gets them first.
    static func attach(to browserWidget: WidgetPointer) {
        for bubbles in [false, true] {
            let controller = gtk_shortcut_controller_new()!
            gtk_shortcut_controller_set_scope(controller, GTK_SHORTCUT_SCOPE_MANAGED)
            gtk_event_controller_set_propagation_phase(controller, bubbles ? GTK_PHASE_BUBBLE : GTK_PHASE_CAPTURE)
            for group in groups {
                for shortcut in group.shortcuts where shortcut.action.hasPrefix("browser.") && shortcut.bubbles == bubbles {
                    var name: UnsafeMutablePointer<gchar>?
                    var target: OpaquePointer?
                    guard g_action_parse_detailed_name(shortcut.action, &name, &target, nil) != 0, let name else { continue }
                    defer { g_free(name) }
                    for accelerator in shortcut.accelerators {
                        guard let trigger = gtk_shortcut_trigger_parse_string(accelerator) else { continue }
                        let item = gtk_shortcut_new(trigger, gtk_named_action_new(name))
                        if let target { gtk_shortcut_set_arguments(item, target) }
                        gtk_shortcut_controller_add_shortcut(controller, item)
                    }
                    if let target { g_variant_unref(target) }
                }
            }
            gtk_widget_add_controller(browserWidget, controller)
        }
    }

    /// The shortcuts window, built from GtkBuilder XML written from `groups`.
    static func makeWindow() -> OpaquePointer? {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <interface>
              <object class="GtkShortcutsWindow" id="shortcuts">
                <property name="modal">1</property>
                <child>
                  <object class="GtkShortcutsSection">
                    <property name="section-name">browser</property>
                    <property name="max-height">12</property>

            """
        for group in groups {
            xml += "        <child><object class=\"GtkShortcutsGroup\"><property name=\"title\">\(escaped(group.title))</property>\n"
            for shortcut in group.shortcuts {
                xml += "          <child><object class=\"GtkShortcutsShortcut\">"
                xml += "<property name=\"title\">\(escaped(shortcut.title))</property>"
                xml += "<property name=\"accelerator\">\(escaped(shortcut.accelerators.joined(separator: " ")))</property>"
                xml += "</object></child>\n"
            }
            xml += "        </object></child>\n"
        }
        xml += """
                  </object>
                </child>
              </object>
            </interface>
            """
        let builder = gtk_builder_new_from_string(xml, -1)!
        defer { g_object_unref(raw(builder)) }
        guard let object = gtk_builder_get_object(builder, "shortcuts") else { return nil }
        g_object_ref(object)
        return OpaquePointer(object)
    }

    /// Calls `body` with a NULL-terminated C array of the strings.
    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<gchar>?>) -> R) -> R {
        let copies = strings.map { UnsafePointer(strdup($0)) } + [nil]
        defer { copies.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
