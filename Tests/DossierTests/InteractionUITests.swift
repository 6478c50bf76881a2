import DossierFixtures
import Foundation
import XCTest

/// The document interaction controller as a user meets it in the previewer (`dossier
/// preview`): the Open With button's menu, the app chooser, and the options menu of a
/// right-click on the item — against an isolated desktop of fake apps that record their
/// arguments (ApplicationFixture).
final class InteractionUITests: XCTestCase {
    override func setUp() async throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
    }

    /// The fixture's desktop, with the system's icons and settings schemas but none of its apps.
    private func environment(_ fixture: ApplicationFixture) throws -> [String: String] {
        for name in ["icons", "glib-2.0"] {
            let link = fixture.dataDirs.appendingPathComponent(name)
            if !FileManager.default.fileExists(atPath: link.path) {
                try FileManager.default.createSymbolicLink(at: link, withDestinationURL: URL(fileURLWithPath: "/usr/share/" + name))
            }
        }
        return [
            "XDG_CONFIG_HOME": fixture.configHome.path, "XDG_CONFIG_DIRS": fixture.configDirs.path,
            "XDG_DATA_HOME": fixture.dataHome.path, "XDG_DATA_DIRS": fixture.dataDirs.path,
            "XDG_CURRENT_DESKTOP": fixture.desktop,
        ]
    }

    /// Opens the Open With button's menu (the arrow at the right end of the split button).
    private func openTheOpenWithMenu(label: String) throws {
        // The first look-up of apps reads every desktop entry: generous on a busy machine.
        XCTAssertTrue(DesktopSession.waitForAccessible(label, timeout: 60), "the button reads '\(label)'")
        let button = try XCTUnwrap(DesktopSession.frame(of: label, inApp: "dossier"))
        DesktopSession.click(x: button.x + button.width - 10, y: button.y + button.height / 2)
        XCTAssertTrue(eventually { DesktopSession.menuItems().contains("Other Application…") }, "the menu is shown")
        DesktopSession.run(["/usr/bin/xdotool", "mousemove", "10", "1000"])  // no tooltip over the menu
    }

    func testTheOpenWithMenuListsTheDefaultThenRecommendedThenSupertypeAppsAndLaunchesOne() throws {
        let fixture = try ApplicationFixture()
        try fixture.addApp("c-editor", name: "C Editor", types: ["text/x-csrc"])
        try fixture.addApp("code-studio", name: "Code Studio", types: ["text/x-csrc"])
        try fixture.addApp("text-editor", name: "Text Editor", types: ["text/plain"])
        try fixture.addApp("viewer", name: "Viewer", types: ["image/png"])
        try fixture.writeMimeApps("config/mimeapps.list", "[Default Applications]\ntext/x-csrc=c-editor.desktop\n")
        let source = try fixture.folder.write("docs/main.c", "int main(void) { return 0; }\n")
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", source.path], environment: try environment(fixture))
        defer { app.terminate() }

        try openTheOpenWithMenu(label: "Open With C Editor")
        DesktopSession.screenshot("interaction-open-with-menu")
        XCTAssertEqual(DesktopSession.menuItems(), ["C Editor", "Code Studio", "Text Editor", "Other Application…"],
                       "default, recommended, for a supertype, then the chooser")
        // The same order as the registry reports without a display.
        let listing = try fixture.runner.json(["apps", "--json", source.path]) as? [String: Any]
        let names = (listing?["applications"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertEqual(names, ["C Editor", "Code Studio", "Text Editor"])

        XCTAssertTrue(DesktopSession.activate("Code Studio", role: "menu item"))
        XCTAssertEqual(fixture.launches(waitingFor: 1), [["code-studio", source.path]], "opened in place, by its path")
        // Opening it recorded it in the (private) recent documents.
        let recents = try String(contentsOf: fixture.dataHome.appendingPathComponent("recently-used.xbel"), encoding: .utf8)
        XCTAssertTrue(recents.contains(source.absoluteString), recents)
    }

    func testTheChoosersAlwaysUseMakesTheChosenAppTheDefault() throws {
        let fixture = try ApplicationFixture()
        try fixture.addApp("viewer", name: "Viewer", types: ["image/png"])
        try fixture.addApp("painter", name: "Painter", types: ["image/png"])
        try fixture.addApp("drawing-board", name: "Drawing Board", types: ["image/jpeg"])
        try fixture.writeMimeApps("config/mimeapps.list", "[Default Applications]\nimage/png=viewer.desktop\n")
        let picture = try fixture.folder.write("docs/picture.png", bytes: SampleFiles.png)
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", picture.path], environment: try environment(fixture))
        defer { app.terminate() }

        try openTheOpenWithMenu(label: "Open With Viewer")
        XCTAssertTrue(DesktopSession.activate("Other Application…", role: "menu item"))
        XCTAssertTrue(DesktopSession.waitForAccessible("Search Applications", timeout: 60), "the chooser is shown")
        XCTAssertTrue(DesktopSession.accessibleNames().contains { $0.hasPrefix("list item: Drawing Board") },
                      "every installed app is offered")
        let search = try XCTUnwrap(DesktopSession.centre(of: "Search Applications", inApp: "dossier"))
        DesktopSession.click(x: search.x, y: search.y)
        DesktopSession.run(["/usr/bin/xdotool", "type", "--delay", "50", "drawing"])
        XCTAssertTrue(eventually { !DesktopSession.accessibleNames().contains { $0.hasPrefix("list item: Painter") } },
                      "the search filters the apps")
        XCTAssertTrue(DesktopSession.activate("Always use for this file type", role: "check box"))
        DesktopSession.screenshot("interaction-chooser")
        XCTAssertTrue(DesktopSession.activate("Open", role: "push button"))

        XCTAssertEqual(fixture.launches(waitingFor: 1), [["drawing-board", picture.path]])
        XCTAssertTrue(eventually {
            let list = (try? String(contentsOf: fixture.configHome.appendingPathComponent("mimeapps.list"), encoding: .utf8)) ?? ""
            return list.contains("image/png=drawing-board.desktop")
        }, "the default is written to the user's mimeapps.list")
        let listing = try fixture.runner.json(["apps", "--json", "image/png"]) as? [String: Any]
        let first = (listing?["applications"] as? [[String: Any]])?.first
        XCTAssertEqual(first?["id"] as? String, "drawing-board.desktop")
        XCTAssertEqual(first?["role"] as? String, "default")
        XCTAssertTrue(DesktopSession.waitForAccessible("Open With Drawing Board"), "the button follows the new default")
        DesktopSession.screenshot("interaction-new-default")
    }

    func testARightClickOnTheItemOpensItsOptionsMenu() throws {
        let fixture = try ApplicationFixture()
        try fixture.addApp("viewer", name: "Viewer", types: ["image/png"])
        let picture = try fixture.folder.write("docs/picture.png", bytes: SampleFiles.png)
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", picture.path], environment: try environment(fixture))
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Open With Viewer", timeout: 60))

        func options() {
            DesktopSession.run(["/usr/bin/xdotool", "mousemove", "300", "110", "click", "3"])
            XCTAssertTrue(eventually { DesktopSession.menuItems().contains("Properties") }, "the options menu is shown")
        }
        options()
        DesktopSession.screenshot("interaction-options-menu")
        // The previewer offers what makes sense inside it: no Preview, Rename or Move to Trash.
        XCTAssertEqual(DesktopSession.menuItems(), ["Open", "Open With", "Copy", "Copy Path", "Tags", "Add to Favorites",
                                                    "Show in Folder", "Properties", "Print…"])

        // Copy puts the file on the clipboard the way GNOME Files does.
        XCTAssertTrue(DesktopSession.activate("Copy", role: "menu item"))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip") {
            var copied = ""
            XCTAssertTrue(eventually {
                copied = DesktopSession.run(["/usr/bin/xclip", "-o", "-selection", "clipboard", "-t", "x-special/gnome-copied-files"])
                return copied == "copy\n\(picture.absoluteString)"
            }, "gnome-copied-files: \(copied)")
            let uris = DesktopSession.run(["/usr/bin/xclip", "-o", "-selection", "clipboard", "-t", "text/uri-list"])
            XCTAssertEqual(uris, picture.absoluteString + "\r\n")
        }

        // Add to Favorites writes GTK's bookmarks file; the menu then offers to remove it.
        options()
        XCTAssertTrue(DesktopSession.activate("Add to Favorites", role: "menu item"))
        let bookmarks = fixture.configHome.appendingPathComponent("gtk-3.0/bookmarks")
        XCTAssertTrue(eventually { ((try? String(contentsOf: bookmarks, encoding: .utf8)) ?? "").contains(picture.absoluteString) })
        options()
        XCTAssertTrue(DesktopSession.menuItems().contains("Remove from Favorites"))

        // Properties: the type, the size, the location and the app that opens it.
        XCTAssertTrue(DesktopSession.activate("Properties", role: "menu item"))
        XCTAssertTrue(DesktopSession.waitForAccessible("Properties of picture.png", timeout: 60), "the properties are shown")
        XCTAssertTrue(DesktopSession.waitForAccessible("PNG image (image/png)", timeout: 60), "its type")
        var names: [String] = []
        XCTAssertTrue(eventually(timeout: 60) {
            names = DesktopSession.accessibleNames()
            return names.contains("label: \(picture.deletingLastPathComponent().path)") && names.contains("label: Viewer")
        }, "its folder and app: \(names)")
        let opensWith = try XCTUnwrap(names.firstIndex { $0.hasPrefix("list item: Opens With") }, "\(names)")
        XCTAssertEqual(names[opensWith + 2], "label: Viewer", "the app that opens it")
        DesktopSession.screenshot("interaction-properties")
    }
}

extension DesktopSession {
    /// The names of the items on the first page of the app's open popover menus (a submenu is
    /// a later page of the same popover), in their order.
    static func menuItems(app: String = "dossier") -> [String] {
        let script = """
            import pyatspi
            def items(node, depth, out):
                try:
                    if node.getRoleName() == 'menu item': out.append(node.name)
                    if depth < 40:
                        for i in range(node.childCount): items(node.getChildAtIndex(i), depth + 1, out)
                except Exception: pass
            def first_page(node, depth):
                try:
                    if node.name == 'GtkStackPage': return node
                    if depth < 40:
                        for i in range(node.childCount):
                            found = first_page(node.getChildAtIndex(i), depth + 1)
                            if found is not None: return found
                except Exception: pass
                return None
            def menus(node, depth):
                try:
                    if node.getRoleName() == 'menu':
                        page = first_page(node, 0)
                        out = []
                        items(page if page is not None else node, 0, out)
                        for name in out: print(name)
                        return
                    if depth < 40:
                        for i in range(node.childCount): menus(node.getChildAtIndex(i), depth + 1)
                except Exception: pass
            for application in pyatspi.Registry.getDesktop(0):
                if application is not None and application.name == '\(app)': menus(application, 0)
            """
        return run(["/usr/bin/python3", "-c", script]).split(separator: "\n").map(String.init)
    }
}
