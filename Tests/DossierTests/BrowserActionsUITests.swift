import DossierFixtures
import Foundation
import XCTest

/// The browser's actions on items, as a user does them in a real `dossier DIR` window under
/// the test's display: the options menu, inline rename and undo, the Trash, duplicate, copy
/// and paste between windows (through the X clipboard, as Files exchanges files), and New
/// Document from the Templates folder, in the grid (a hidden list view would also be in the
/// accessibility tree, at the grid's place).
final class BrowserActionsUITests: XCTestCase {
    private var fixture: BrowserFixture!
    private var app: Process?

    override func setUp() async throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "no session bus")
        fixture = try BrowserFixture()
    }

    override func tearDown() async throws {
        if let app, app.isRunning {
            app.terminate()
            app.waitUntilExit()
        }
        app = nil
        fixture = nil
    }

    /// Opens `folder` in a window, and waits for `item`.
    private func open(_ folder: URL, showing item: String) throws {
        app = try DesktopSession.launch([CommandRunner.binary, folder.path], environment: fixture.environment)
        XCTAssertTrue(DesktopSession.waitForAccessible(folder.lastPathComponent), "the window opened")
        DesktopSession.click(x: 640, y: 500)
        XCTAssertTrue(DesktopSession.waitForAccessible(item), "\(item) is shown")
    }

    /// Clicks the row showing `name` (selecting it).
    private func clickItem(_ name: String, button: Int = 1) throws {
        let centre = try XCTUnwrap(DesktopSession.centre(of: name, inApp: "dossier"), "\(name) is on screen")
        DesktopSession.run(["/usr/bin/xdotool", "mousemove", String(centre.x), String(centre.y), "click", String(button)])
        Thread.sleep(forTimeInterval: 0.3)  // paces the input; what the click does, the caller waits for
    }

    private func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    private func names() -> [String] { DesktopSession.accessibleNames() }

    func testRenameInlineShowsProblemsRenamesAndCtrlZUndoes() throws {
        let folder = try fixture.folder("Renaming")
        try Data("q3\n".utf8).write(to: folder.appendingPathComponent("report.txt"))
        try Data("n\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try open(folder, showing: "report.txt")

        try clickItem("notes.txt")
        DesktopSession.key("F2")
        XCTAssertTrue(DesktopSession.waitForAccessible("Rename File"), "the rename popover opened")
        // The base name is selected: typing replaces "notes" and keeps ".txt".
        DesktopSession.run(["/usr/bin/xdotool", "type", "--delay", "40", "report"])
        XCTAssertTrue(DesktopSession.waitForAccessible("A file or folder named “report.txt” already exists."),
                      "a taken name is explained: \(names().filter { $0.hasPrefix("label") })")
        DesktopSession.screenshot("actions-rename-taken")
        DesktopSession.key("Escape")
        XCTAssertTrue(eventually { !self.names().contains { $0.hasSuffix(": Rename File") } }, "Escape cancels")
        XCTAssertTrue(exists(folder.appendingPathComponent("notes.txt")), "nothing was renamed")

        try clickItem("report.txt")
        DesktopSession.key("F2")
        XCTAssertTrue(DesktopSession.waitForAccessible("Rename File"))
        DesktopSession.run(["/usr/bin/xdotool", "type", "--delay", "40", "summary"])
        DesktopSession.screenshot("actions-rename-typing")
        DesktopSession.key("Return")
        let renamed = folder.appendingPathComponent("summary.txt")
        XCTAssertTrue(eventually { self.exists(renamed) }, "Enter renamed the file, keeping its extension")
        XCTAssertFalse(exists(folder.appendingPathComponent("report.txt")))
        // The toast and its button from one reading of the tree: a toast goes after 5 s, and on a
        // loaded machine a second reading may come after that.
        var names: [String] = []
        XCTAssertTrue(eventually(timeout: 60) {
            names = self.names()
            return names.contains { $0.contains(": “report.txt” renamed to “summary.txt”") }
        }, "a toast says so")
        XCTAssertTrue(names.contains { $0.contains(": Undo") }, "with an Undo button: \(names)")
        DesktopSession.screenshot("actions-renamed-toast")

        DesktopSession.key("ctrl+z")
        XCTAssertTrue(eventually { self.exists(folder.appendingPathComponent("report.txt")) && !self.exists(renamed) },
                      "Ctrl+Z renamed it back")
        XCTAssertTrue(DesktopSession.waitForAccessible("report.txt"))
    }

    func testTheOptionsMenuListsTheActionsAndDuplicates() throws {
        let folder = try fixture.folder("Menus")
        try Data("draft\n".utf8).write(to: folder.appendingPathComponent("letter.txt"))
        try open(folder, showing: "letter.txt")

        try clickItem("letter.txt", button: 3)
        XCTAssertTrue(DesktopSession.waitForAccessible("Duplicate"), "the options menu opened")
        let shown = names()
        for entry in ["Open", "Open With", "Preview", "Rename…", "Duplicate", "Move to Trash", "Copy", "Copy Path", "Tags",
                      "Add to Favorites", "Properties"] {
            XCTAssertTrue(shown.contains { $0.hasSuffix(": " + entry) }, "the menu has \(entry): \(shown)")
        }
        XCTAssertFalse(shown.contains { $0.hasSuffix(": Show in Folder") }, "not for an item of the folder shown")
        DesktopSession.screenshot("actions-options-menu")

        XCTAssertTrue(DesktopSession.activate("Duplicate"))
        let copy = folder.appendingPathComponent("letter (copy).txt")
        XCTAssertTrue(eventually { self.exists(copy) }, "Duplicate made “letter (copy).txt”")
        // Written in place: the name is there before all of the text.
        XCTAssertTrue(eventually(timeout: 60) { (try? String(contentsOf: copy, encoding: .utf8)) == "draft\n" },
                      "with the file's text: \((try? String(contentsOf: copy, encoding: .utf8)) ?? "unreadable")")
        XCTAssertTrue(DesktopSession.waitForAccessible("“letter.txt” duplicated"), "a toast says so")
        XCTAssertTrue(DesktopSession.waitForAccessible("letter (copy).txt"), "the copy is listed")
        DesktopSession.screenshot("actions-duplicated")
        DesktopSession.key("ctrl+z")
        XCTAssertTrue(eventually { !self.exists(copy) }, "undo moved the copy to the Trash")
    }

    func testDeleteAndTheMenuTrashAndRecentlyDeletedRestores() throws {
        let folder = try fixture.folder("Trashing")
        let first = folder.appendingPathComponent("first.txt")
        let second = folder.appendingPathComponent("second.txt")
        try Data("1\n".utf8).write(to: first)
        try Data("2\n".utf8).write(to: second)
        try open(folder, showing: "first.txt")

        try clickItem("first.txt")
        DesktopSession.key("Delete")
        XCTAssertTrue(eventually { !self.exists(first) }, "Delete moved it to the Trash")
        XCTAssertTrue(DesktopSession.waitForAccessible("“first.txt” moved to the Trash"), "a toast says so")
        DesktopSession.screenshot("actions-trashed-toast")

        try clickItem("second.txt", button: 3)
        XCTAssertTrue(DesktopSession.waitForAccessible("Move to Trash"))
        XCTAssertTrue(DesktopSession.activate("Move to Trash"))
        XCTAssertTrue(eventually { !self.exists(second) }, "the menu's Move to Trash moved it")
        let trash = fixture.root.url.appendingPathComponent("data/Trash/files")
        XCTAssertTrue(exists(trash.appendingPathComponent("first.txt")) && exists(trash.appendingPathComponent("second.txt")))

        let deleted = try XCTUnwrap(DesktopSession.centre(of: "Recently Deleted", inApp: "dossier"))
        DesktopSession.click(x: deleted.x, y: deleted.y)
        XCTAssertTrue(DesktopSession.waitForAccessible("first.txt"), "the Trash lists it")
        try clickItem("first.txt")
        DesktopSession.screenshot("actions-recently-deleted")
        let restore = try XCTUnwrap(DesktopSession.centre(of: "Restore", inApp: "dossier"))
        DesktopSession.click(x: restore.x, y: restore.y)
        XCTAssertTrue(eventually { self.exists(first) }, "Restore put it back")
    }

    func testCopyInOneWindowAndPasteInAnother() throws {
        let source = try fixture.folder("Source")
        let target = try fixture.folder("Target")
        try Data("moving day\n".utf8).write(to: source.appendingPathComponent("plan.txt"))
        try Data("x\n".utf8).write(to: target.appendingPathComponent("existing.txt"))
        try open(source, showing: "plan.txt")
        let first = try XCTUnwrap(DesktopSession.windowID(named: "Source"))
        DesktopSession.run(["/usr/bin/xdotool", "windowsize", "--sync", first, "620", "700"])
        DesktopSession.run(["/usr/bin/xdotool", "windowmove", "--sync", first, "0", "0"])

        let handOff = try fixture.runner.run([target.path])
        XCTAssertEqual(handOff.status, 0, handOff.errors)
        XCTAssertTrue(eventually { DesktopSession.windowID(named: "Target") != nil }, "the second window opened")
        let second = try XCTUnwrap(DesktopSession.windowID(named: "Target"))
        DesktopSession.run(["/usr/bin/xdotool", "windowsize", "--sync", second, "620", "700"])
        DesktopSession.run(["/usr/bin/xdotool", "windowmove", "--sync", second, "650", "0"])
        DesktopSession.run(["/usr/bin/xdotool", "windowfocus", "--sync", second])
        DesktopSession.click(x: 650 + 400, y: 600)
        XCTAssertTrue(DesktopSession.waitForAccessible("existing.txt"), "the second window lists the target")

        // Without a window manager the window shown last keeps the keyboard: give it back.
        DesktopSession.run(["/usr/bin/xdotool", "windowfocus", "--sync", first])
        try clickItem("plan.txt")
        DesktopSession.key("ctrl+c")
        let expected = ["copy", source.appendingPathComponent("plan.txt").absoluteString]
        var copied: [String] = []
        XCTAssertTrue(eventually(timeout: 60) {
            copied = DesktopSession.run(["/usr/bin/xclip", "-selection", "clipboard", "-t", "x-special/gnome-copied-files", "-o"])
                .split(separator: "\n").map(String.init)
            return copied == expected
        }, "the clipboard holds the file as Files writes it: \(copied)")

        // The second window: click beside its items and paste.
        DesktopSession.run(["/usr/bin/xdotool", "windowfocus", "--sync", second])
        DesktopSession.click(x: 650 + 400, y: 600)
        DesktopSession.key("ctrl+v")
        let pasted = target.appendingPathComponent("plan.txt")
        XCTAssertTrue(eventually { self.exists(pasted) }, "Ctrl+V copied the file into the second window's folder")
        XCTAssertTrue(exists(source.appendingPathComponent("plan.txt")), "a copy, not a move")
        XCTAssertTrue(DesktopSession.waitForAccessible("“plan.txt” copied"))
        DesktopSession.screenshot("actions-pasted-second-window")

        // Pasting again keeps both: the second copy gets a free name.
        DesktopSession.key("ctrl+v")
        XCTAssertTrue(eventually { self.exists(target.appendingPathComponent("plan (copy).txt")) }, "names are kept unique")
    }

    func testNewDocumentCopiesATemplateAndStartsRenamingIt() throws {
        try fixture.home.write("Templates/Meeting Notes.md", "# Meeting\n")
        let folder = try fixture.folder("Fresh")
        try Data("x\n".utf8).write(to: folder.appendingPathComponent("old.txt"))
        try open(folder, showing: "old.txt")

        let new = try XCTUnwrap(DesktopSession.centre(of: "New", inApp: "dossier"), "the header has a New menu")
        DesktopSession.click(x: new.x, y: new.y)
        XCTAssertTrue(DesktopSession.waitForAccessible("New Document"))
        XCTAssertTrue(DesktopSession.activate("New Document"))
        XCTAssertTrue(DesktopSession.waitForAccessible("Meeting Notes"), "the submenu lists the template")
        DesktopSession.screenshot("actions-new-document-menu")
        XCTAssertTrue(DesktopSession.activate("Meeting Notes"))
        let made = folder.appendingPathComponent("Meeting Notes.md")
        XCTAssertTrue(eventually { self.exists(made) }, "the template was copied in")
        XCTAssertTrue(eventually(timeout: 60) { (try? String(contentsOf: made, encoding: .utf8)) == "# Meeting\n" },
                      "with the template's text: \((try? String(contentsOf: made, encoding: .utf8)) ?? "unreadable")")
        XCTAssertTrue(DesktopSession.waitForAccessible("Rename File"), "and its name is being edited")
        DesktopSession.run(["/usr/bin/xdotool", "type", "--delay", "40", "Monday"])
        DesktopSession.screenshot("actions-new-document-rename")
        DesktopSession.key("Return")
        XCTAssertTrue(eventually { self.exists(folder.appendingPathComponent("Monday.md")) }, "typed name, extension kept")
    }
}
