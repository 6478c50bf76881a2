import DossierFixtures
import Foundation
import XCTest

/// The browser in the real `dossier DIR` window as a user meets it, under the test's Xvfb
/// display: a 10,000-file folder, sorting from the view menu, search, a file made on disk,
/// Space and the arrows in the previewer, and Enter opening the default app of an isolated
/// desktop of fake apps (ApplicationFixture). What the window shows is read through AT-SPI
/// (the grid's cells in screen order) and kept as screenshots in `.build/test-screenshots`.
final class BrowserUITests: XCTestCase {
    private var apps: ApplicationFixture!
    private var app: Process?

    override func setUp() async throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "no session bus")
        apps = try ApplicationFixture()
    }

    override func tearDown() async throws {
        // The next test must find no running instance on the bus.
        if let app, app.isRunning {
            app.terminate()
            app.waitUntilExit()
        }
        app = nil
        apps = nil
    }

    /// The fixture's desktop (its apps, the system's icons, schemas and MIME database) with a
    /// private home, cache and state.
    private var environment: [String: String] {
        get throws {
            for name in ["icons", "glib-2.0"] {
                let link = apps.dataDirs.appendingPathComponent(name)
                if !FileManager.default.fileExists(atPath: link.path) {
                    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: URL(fileURLWithPath: "/usr/share/" + name))
                }
            }
            let home = apps.root.appendingPathComponent("home")
            for name in ["home/Documents", "cache", "state"] {
                try FileManager.default.createDirectory(at: apps.root.appendingPathComponent(name), withIntermediateDirectories: true)
            }
            return [
                "HOME": home.path,
                "XDG_CONFIG_HOME": apps.configHome.path, "XDG_CONFIG_DIRS": apps.configDirs.path,
                "XDG_DATA_HOME": apps.dataHome.path, "XDG_DATA_DIRS": apps.dataDirs.path,
                "XDG_CACHE_HOME": apps.root.appendingPathComponent("cache").path,
                "XDG_STATE_HOME": apps.root.appendingPathComponent("state").path,
                "XDG_CURRENT_DESKTOP": apps.desktop,
            ]
        }
    }

    /// Opens the browser on `folder` and waits for its window, titled `title` (the folder's name).
    private func open(_ folder: URL, title: String? = nil) throws {
        app = try DesktopSession.launch([CommandRunner.binary, folder.path], environment: try environment)
        let title = title ?? folder.lastPathComponent
        // xdotool takes a POSIX extended regular expression: its special characters escaped.
        let pattern = title.map { ".[]()*+?{}|^$\\".contains($0) ? "\\\($0)" : "\($0)" }.joined()
        XCTAssertTrue(eventually(timeout: 60) { DesktopSession.windowID(named: pattern) != nil }, "the window for \(title) opens")
    }

    /// The names of the files in the grid in reading order (folders left out), waiting for
    /// `condition` to hold of them.
    @discardableResult
    private func files(where condition: ([String]) -> Bool, timeout: TimeInterval = 60) -> [String] {
        var names: [String] = []
        _ = eventually(timeout: timeout) {
            names = DesktopSession.gridCells().filter { !$0.name.hasPrefix("Projects") }.map(\.name)
            return condition(names)
        }
        return names
    }

    func testATenThousandFileFolderOpensSortsShowsANewFileAndSearches() throws {
        let folder = try TemporaryFolder("dossier-browser-ui")
        let files = folder.url.appendingPathComponent("Ten Thousand")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        for index in 1...10_000 {
            // Sizes from 7 to 11 bytes, all modified now.
            try Data("Line \(index)\n".utf8).write(to: files.appendingPathComponent(String(format: "file%05d.txt", index)))
        }
        try Data().write(to: files.appendingPathComponent("zz-empty.txt"))
        let old = files.appendingPathComponent("file05000.txt")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 650_000_000)], ofItemAtPath: old.path)
        try FileManager.default.createDirectory(at: files.appendingPathComponent("Projects"), withIntermediateDirectories: true)
        try Data("nested".utf8).write(to: files.appendingPathComponent("Projects/plan-file09999-notes.txt"))

        // The first items are shown, in name order.
        try open(files)
        let first = self.files { $0.count >= 6 }
        XCTAssertEqual(Array(first.prefix(3)), ["file00001.txt", "file00002.txt", "file00003.txt"], "the grid shows the first files")
        var painted = 0.0
        XCTAssertTrue(eventually(timeout: 60) {
            painted = DesktopSession.variation(DesktopSession.screenshot("browser-ui-1-ten-thousand"), x: 300, y: 100, width: 600, height: 400)
            return painted > 0.05
        }, "the grid is painted (variation \(painted))")

        // The window answers the keyboard at once: Ctrl+2 shows the list, Ctrl+1 the grid again.
        let window = try XCTUnwrap(DesktopSession.frame(of: "Items", inApp: "dossier"), "the grid is in the tree")
        // Into the sidebar's empty end, left of the grid: a click on a cell cut off at the grid's
        // bottom would scroll it into view, and the first row out of it.
        DesktopSession.click(x: window.x - 60, y: window.y + window.height - 20)
        DesktopSession.key("ctrl+2")
        XCTAssertTrue(DesktopSession.waitForAccessible("Show as Grid"), "Ctrl+2 switched to the list")
        DesktopSession.screenshot("browser-ui-2-list")
        DesktopSession.key("ctrl+1")
        XCTAssertTrue(DesktopSession.waitForAccessible("Show as List"), "Ctrl+1 switched back to the grid")

        // Sort by size from the view menu: the empty file comes first; by date: the old one.
        try chooseFromViewMenu("Sort by Size")
        XCTAssertEqual(self.files { $0.first == "zz-empty.txt" }.first, "zz-empty.txt", "smallest first")
        DesktopSession.screenshot("browser-ui-3-by-size")
        try chooseFromViewMenu("Sort by Modification Date")
        XCTAssertEqual(self.files { $0.first == "file05000.txt" }.first, "file05000.txt", "oldest first")
        try chooseFromViewMenu("Sort by Name")
        XCTAssertEqual(self.files { $0.first == "file00001.txt" }.first, "file00001.txt")

        // A file made on disk appears in the open window, at its place (the view stays where it
        // was, so scroll to the top to see it).
        try Data("new".utf8).write(to: files.appendingPathComponent("file00000-new.txt"))
        DesktopSession.run(["/usr/bin/xdotool", "mousemove", String(window.x + window.width / 2), String(window.y + 100),
                            "click", "--repeat", "10", "--delay", "30", "4"])
        let top = self.files { $0.first == "file00000-new.txt" }
        XCTAssertEqual(top.first, "file00000-new.txt", "the new file is shown before the others: \(top.prefix(3))")
        DesktopSession.screenshot("browser-ui-4-new-file")

        // Typing filters the folder; the subfolder's match appears with it.
        DesktopSession.key("ctrl+f")
        XCTAssertTrue(DesktopSession.waitForAccessible("Search"))
        DesktopSession.run(["/usr/bin/xdotool", "type", "--delay", "60", "file0999"])
        let found = self.files { $0.count == 11 && $0.contains("plan-file09999-notes.txt") }
        XCTAssertEqual(found.count, 11, "ten here and one in Projects: \(found)")
        XCTAssertTrue(found.contains("plan-file09999-notes.txt"), "the subfolder's result is shown: \(found)")
        XCTAssertTrue(found.allSatisfy { $0.contains("file0999") }, "\(found)")
        DesktopSession.screenshot("browser-ui-5-search")
        DesktopSession.key("Escape")
        let all = self.files { $0.count > 11 && !$0.contains("plan-file09999-notes.txt") }
        XCTAssertGreaterThan(all.count, 11, "Escape ends the search: the whole folder is back")
        XCTAssertFalse(all.contains("plan-file09999-notes.txt"))
    }

    /// A burst of wheel clicks faster than the frames (a wheel spun; a slow frame while
    /// thumbnails arrive) moves the grid by a step a click, GTK's step (the page's height to the
    /// power ⅔), and does not fling a big folder's grid to its end.
    func testABurstOfWheelClicksMovesTheGridAStepAClickNotToTheEnd() throws {
        let folder = try TemporaryFolder("dossier-wheel-ui")
        let files = folder.url.appendingPathComponent("Three Thousand")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        for index in 0..<3_000 {
            try Data("Line \(index)\n".utf8).write(to: files.appendingPathComponent(String(format: "file%04d.txt", index)))
        }
        try open(files)
        var cells: [DesktopSession.GridCell] = []
        _ = eventually(timeout: 60) {
            cells = DesktopSession.gridCells()
            return cells.first?.name == "file0000.txt" && Set(cells.map(\.y)).count >= 3
        }
        XCTAssertEqual(cells.first?.name, "file0000.txt", "the grid shows the first files")
        let rows = Set(cells.map(\.y)).sorted()
        let rowHeight = Double(try XCTUnwrap(rows.dropFirst().first) - rows[0])
        let columns = cells.filter { $0.y == rows[0] }.count
        let grid = try XCTUnwrap(DesktopSession.frame(of: "Items", inApp: "dossier"), "the grid is in the tree")

        let clicks = 100
        let middle = (x: cells[0].x, y: grid.y + grid.height / 2)
        DesktopSession.run(["/usr/bin/xdotool", "mousemove", String(middle.x), String(middle.y),
                            "click", "--repeat", String(clicks), "--delay", "4", "5"])
        // Once the grid has come to rest, a click in its middle selects the item there (GTK 4.8
        // reports the cells' places to AT-SPI as they were before the scroll: read no places).
        XCTAssertNotNil(DesktopSession.steadyScreenshot("wheel-1-after-burst", region: grid), "the grid came to rest")
        DesktopSession.click(x: middle.x, y: middle.y)
        var selected: [String] = []
        XCTAssertTrue(eventually(timeout: 60) {
            selected = DesktopSession.gridCells(onScreenOnly: false).filter(\.selected).map(\.name)
            return selected.count == 1
        }, "the click selected one item: \(selected)")
        let index = try XCTUnwrap(selected.first.flatMap { Int($0.dropFirst(4).prefix(4)) }, "a file is selected: \(selected)")
        let step = pow(Double(grid.height), 2.0 / 3.0)
        let expected = (Double(clicks) * step + Double(grid.height) / 2) / rowHeight
        XCTAssertEqual(Double(index / columns), expected, accuracy: max(2, Double(clicks) * step / rowHeight * 0.2),
                       "\(clicks) clicks of \(Int(step)) px over rows of \(Int(rowHeight)) px: row \(index / columns) "
                       + "(\(selected[0])) in the middle, of \(3_000 / columns)")
    }

    func testSpaceRightAndEscapeInThePreviewerThenEnterOpensTheSelectionInTheDefaultApp() throws {
        try apps.addApp("text-editor", name: "Text Editor", types: ["text/plain"])
        try apps.addApp("notes", name: "Notes", types: ["text/plain"])
        try apps.writeMimeApps("config/mimeapps.list", "[Default Applications]\ntext/plain=text-editor.desktop\n")
        let folder = try TemporaryFolder("dossier-browser-ui")
        let letters = folder.url.appendingPathComponent("Letters")
        for name in ["alpha", "bravo", "charlie", "delta"] {
            try folder.write("Letters/\(name).txt", "This is \(name).\n")
        }
        try open(letters)
        XCTAssertEqual(files { $0.count == 4 }, ["alpha.txt", "bravo.txt", "charlie.txt", "delta.txt"])

        // Click bravo, press Space: the previewer shows it.
        let bravo = try XCTUnwrap(DesktopSession.gridCells().first { $0.name == "bravo.txt" })
        DesktopSession.click(x: bravo.x, y: bravo.y)
        XCTAssertTrue(eventually { DesktopSession.gridCells().first { $0.name == "bravo.txt" }?.selected == true }, "the click selects")
        DesktopSession.key("space")
        XCTAssertTrue(DesktopSession.waitForAccessible("Text of bravo.txt"), "Space previews the selected file")
        XCTAssertTrue(DesktopSession.waitForAccessible("2 of 4"), "in the folder's order")
        Thread.sleep(forTimeInterval: 0.5)  // the zoom into the previewer, for the screenshot only
        DesktopSession.screenshot("browser-ui-6-space")

        // Right: the next file in view order, and the browser's selection follows.
        let preview = try XCTUnwrap(DesktopSession.frame(of: "Text of bravo.txt", inApp: "dossier"))
        DesktopSession.click(x: preview.x + preview.width / 2, y: preview.y + preview.height / 2)
        DesktopSession.key("Right")
        XCTAssertTrue(DesktopSession.waitForAccessible("Text of charlie.txt"), "Right shows the next file")
        XCTAssertTrue(DesktopSession.waitForAccessible("3 of 4"))
        XCTAssertTrue(eventually { DesktopSession.gridCells().filter(\.selected).map(\.name) == ["charlie.txt"] },
                      "the browser selects the previewed file: \(DesktopSession.gridCells().filter(\.selected).map(\.name))")
        Thread.sleep(forTimeInterval: 0.5)  // the cross-fade, for the screenshot only
        DesktopSession.screenshot("browser-ui-7-right")

        // Escape closes the previewer.
        DesktopSession.key("Escape")
        XCTAssertTrue(eventually { !DesktopSession.accessibleNames().contains { $0.hasSuffix(": Text of charlie.txt") } },
                      "Escape closes the previewer")
        DesktopSession.screenshot("browser-ui-8-closed")

        // Enter opens the selection (charlie, where the previewer left it) in the default app,
        // by its own path, and it goes into Recents.
        let cell = try XCTUnwrap(DesktopSession.gridCells().first { $0.name == "charlie.txt" })
        DesktopSession.click(x: cell.x, y: cell.y)
        DesktopSession.key("Return")
        let charlie = letters.appendingPathComponent("charlie.txt")
        XCTAssertEqual(apps.launches(waitingFor: 1), [["text-editor", charlie.path]], "the default app got the file's path")
        XCTAssertTrue(eventually {
            ((try? String(contentsOf: self.apps.dataHome.appendingPathComponent("recently-used.xbel"), encoding: .utf8)) ?? "")
                .contains(charlie.absoluteString)
        }, "the file is in the recent documents")
        let recent = try XCTUnwrap(DesktopSession.centre(of: "Recent", inApp: "dossier"), "the sidebar has Recent")
        DesktopSession.click(x: recent.x, y: recent.y)
        XCTAssertEqual(files { $0 == ["charlie.txt"] }, ["charlie.txt"], "Recent shows the opened file")
        DesktopSession.screenshot("browser-ui-9-recents")
    }

    /// A right-to-left override in a name would make "invoice‮fdp.exe" read "invoiceexe.pdf":
    /// the browser's cell and the previewer's page write the control out.
    func testANameCannotHideItsExtensionBehindARightToLeftOverride() throws {
        let folder = try TemporaryFolder("dossier-browser-ui")
        let name = "invoice\u{202E}fdp.exe", shown = "invoice<U+202E>fdp.exe"
        try folder.write("Mail\u{202E}/\(name)", "MZ not really a program\n")
        try open(folder.url.appendingPathComponent("Mail\u{202E}"), title: "Mail<U+202E>")
        XCTAssertTrue(DesktopSession.waitForAccessible("Mail<U+202E>"), "the path bar shows the folder's control")
        XCTAssertEqual(files { $0.count == 1 }, [shown], "the cell shows the control")
        let cell = try XCTUnwrap(DesktopSession.gridCells().first { $0.name == shown })
        DesktopSession.click(x: cell.x, y: cell.y)
        DesktopSession.key("space")
        XCTAssertTrue(DesktopSession.waitForAccessible("Information about \(shown)"), "the previewer's page too")
        DesktopSession.screenshot("browser-name-override")
    }

    func testANameThatIsNotUTF8IsListedThumbnailedAndPreviewed() throws {
        let folder = try TemporaryFolder("dossier-browser-ui")
        try folder.write("Latin1/readme.txt", "plain\n")
        // A Latin-1 "café.txt", the byte made by the shell's printf.
        let made = OtherProgram.output(of: ["/bin/sh", "-c", #"cd "$0" && printf 'caf\351 au lait\n' > "$(printf 'caf\351.txt')" && echo made"#,
                                            folder.url.appendingPathComponent("Latin1").path])
        XCTAssertEqual(made, "made\n")
        // And a file whose name is that name's text, with a real U+FFFD: another file.
        try folder.write("Latin1/caf\u{FFFD}.txt", "not the Latin-1 one\n")
        let shown = "caf\u{FFFD}.txt (invalid encoding)"
        try open(folder.url.appendingPathComponent("Latin1"))
        XCTAssertEqual(files { $0.count == 3 }, ["caf\u{FFFD}.txt", shown, "readme.txt"],
                       "both listed, the Latin-1 one marked as GLib marks it")
        // Its thumbnail, under the MD5 of its escaped URI, as the thumbnail spec keys it.
        let uri = "file://" + folder.url.appendingPathComponent("Latin1").path + "/caf%E9.txt"
        let thumbnails = apps.root.appendingPathComponent("cache/thumbnails")
        let name = Self.md5(uri) + ".png"
        XCTAssertTrue(eventually(timeout: 60) {
            ["normal", "large", "x-large"].contains { FileManager.default.fileExists(atPath: thumbnails.path + "/\($0)/" + name) }
        }, "thumbnailed as \(uri)")
        let cell = try XCTUnwrap(DesktopSession.gridCells().first { $0.name == shown })
        DesktopSession.click(x: cell.x, y: cell.y)
        DesktopSession.key("space")
        XCTAssertTrue(DesktopSession.waitForAccessible("Text of \(shown)"), "Space previews it")
        DesktopSession.screenshot("browser-name-latin1")
    }

    /// The hex MD5 of `text`'s UTF-8, as the thumbnail spec names files.
    private static func md5(_ text: String) -> String {
        OtherProgram.output(of: ["/bin/sh", "-c", #"printf %s "$0" | md5sum"#, text]).prefix(32).description
    }

    /// A new user's first keys, with no mouse at all: the window opens with the keyboard on its
    /// items, so Space with nothing selected stays put (rather than pressing the path bar's
    /// "Computer" and showing `/`), the first Right selects the first item and Space previews it.
    /// Typing searches; Escape gives the keys back to the items; Tab leaves them for the path
    /// bar and Shift+Tab for the sidebar; after going up a folder the items have the keys again.
    func testAFreshWindowTakesTheKeysOnItsItemsRightThenSpacePreviews() throws {
        let folder = try TemporaryFolder("dossier-keyboard-ui")
        let letters = folder.url.appendingPathComponent("Letters")
        for name in ["alpha", "bravo", "charlie", "delta"] {
            try folder.write("Letters/\(name).txt", "This is \(name).\n")
        }
        try open(letters)
        XCTAssertEqual(files { $0.count == 4 }, ["alpha.txt", "bravo.txt", "charlie.txt", "delta.txt"])
        // The grid ("table") or one of its cells ("table cell"): GTK focuses the first once laid out.
        XCTAssertTrue(eventually { DesktopSession.focused()?.hasPrefix("table") == true },
                      "the items have the keys: \(DesktopSession.focused())")
        DesktopSession.screenshot("keyboard-1-opened")

        // Space with nothing selected: nothing happens. The Right after it is the barrier: keys
        // arrive in order, so once Right has selected, Space has done all it was going to.
        DesktopSession.key("space")
        DesktopSession.key("Right")
        XCTAssertTrue(eventually { DesktopSession.gridCells().filter(\.selected).map(\.name) == ["alpha.txt"] },
                      "the first Right selects the first item: \(DesktopSession.gridCells().filter(\.selected).map(\.name))")
        XCTAssertNotNil(DesktopSession.windowID(named: "Letters"), "Space left the window on its folder")
        XCTAssertEqual(files { $0.count == 4 }, ["alpha.txt", "bravo.txt", "charlie.txt", "delta.txt"])
        XCTAssertFalse(DesktopSession.accessibleNames().contains { $0.contains("Text of ") }, "no previewer was opened")
        DesktopSession.screenshot("keyboard-2-right")

        DesktopSession.key("space")
        XCTAssertTrue(DesktopSession.waitForAccessible("Text of alpha.txt"), "Space previews the first item")
        XCTAssertTrue(DesktopSession.waitForAccessible("1 of 4"))
        DesktopSession.screenshot("keyboard-3-space")
        DesktopSession.key("Escape")
        XCTAssertTrue(eventually { !DesktopSession.accessibleNames().contains { $0.contains("Text of alpha.txt") } },
                      "Escape closes the previewer")

        // Typing searches; Escape ends the search and the items have the keys again.
        DesktopSession.run(["/usr/bin/xdotool", "type", "--delay", "100", "char"])
        XCTAssertEqual(files { $0 == ["charlie.txt"] }, ["charlie.txt"], "typing searches")
        XCTAssertEqual(DesktopSession.focused(), "entry: Search")
        DesktopSession.key("Escape")
        XCTAssertTrue(eventually { DesktopSession.focused()?.hasPrefix("table") == true },
                      "Escape gives the keys back to the items: \(DesktopSession.focused())")
        XCTAssertEqual(files { $0.count == 4 }.count, 4)

        // Tab leaves the items for the path bar, and Shift+Tab from the items for the sidebar.
        DesktopSession.key("Tab")
        XCTAssertTrue(eventually { DesktopSession.focused() == "push button: Computer" },
                      "Tab reaches the header: \(DesktopSession.focused())")
        DesktopSession.key("shift+Tab")
        XCTAssertTrue(eventually { DesktopSession.focused()?.hasPrefix("table") == true },
                      "Shift+Tab comes back to the items: \(DesktopSession.focused())")
        DesktopSession.key("shift+Tab")
        XCTAssertTrue(eventually { DesktopSession.focused()?.hasPrefix("list item") == true },
                      "Shift+Tab reaches the sidebar: \(DesktopSession.focused())")
        DesktopSession.screenshot("keyboard-4-sidebar")

        // Alt+Up: the enclosing folder, with the keys on its items and the folder left selected.
        DesktopSession.key("alt+Up")
        XCTAssertTrue(eventually(timeout: 60) { DesktopSession.windowID(named: folder.url.lastPathComponent) != nil },
                      "Alt+Up shows the enclosing folder")
        XCTAssertTrue(eventually { DesktopSession.focused()?.hasPrefix("table") == true },
                      "after navigating, the items have the keys: \(DesktopSession.focused())")
        XCTAssertTrue(eventually { DesktopSession.gridCells().filter(\.selected).map(\.name) == ["Letters"] },
                      "the folder it came from is selected: \(DesktopSession.gridCells().map { ($0.name, $0.selected) })")
        DesktopSession.screenshot("keyboard-5-up")

        // Enter goes back in, and the keys are on the items again: Down selects the first.
        DesktopSession.key("Return")
        XCTAssertTrue(eventually(timeout: 60) { DesktopSession.windowID(named: "Letters") != nil }, "Enter opens the folder")
        XCTAssertEqual(files { $0.count == 4 }.count, 4)
        DesktopSession.key("Down")
        XCTAssertTrue(eventually { DesktopSession.gridCells().filter(\.selected).map(\.name) == ["alpha.txt"] },
                      "the first arrow after a navigation selects the first item")
    }

    /// Opens the view menu and picks `item` in it.
    private func chooseFromViewMenu(_ item: String) throws {
        let button = try XCTUnwrap(DesktopSession.centre(of: "View Options", inApp: "dossier"), "the view menu button")
        DesktopSession.click(x: button.x, y: button.y)
        var role: String?
        XCTAssertTrue(eventually { role = DesktopSession.menuItemRoles()[item]; return role != nil },
                      "the view menu lists \(item): \(DesktopSession.menuItemRoles())")
        XCTAssertTrue(DesktopSession.activate(item, role: role ?? "menu item"), "\(item) is chosen")
    }
}

extension DesktopSession {
    /// The role and name of the node with the keyboard focus in the app ("table: Items").
    static func focused(app: String = "dossier") -> String? {
        let script = """
            import pyatspi
            def walk(node, depth):
                try:
                    if node.getState().contains(pyatspi.STATE_FOCUSED):
                        print(node.getRoleName() + ': ' + node.name)
                        return True
                    if depth < 40:
                        for i in range(node.childCount):
                            if walk(node.getChildAtIndex(i), depth + 1): return True
                except Exception: pass
                return False
            for application in pyatspi.Registry.getDesktop(0):
                if application is not None and application.name == '\(app)' and walk(application, 0): break
            """
        let line = run(["/usr/bin/python3", "-c", script]).split(separator: "\n").first.map(String.init)
        return line?.isEmpty == false ? line : nil
    }

    /// A cell of the browser's grid: the item's name, whether it is selected, and its centre.
    struct GridCell {
        let name: String
        let selected: Bool
        let x: Int
        let y: Int
    }

    /// The cells of the grid ("Items") on screen, in reading order: top to bottom, left to right;
    /// with `onScreenOnly` false, every cell GTK keeps, on screen or not (GTK 4.8 reports the
    /// cells' places to AT-SPI as they were before a scroll: after one, read no places).
    static func gridCells(app: String = "dossier", onScreenOnly: Bool = true) -> [GridCell] {
        let script = """
            import pyatspi
            def find(node, depth):
                try:
                    if node.name == 'Items' and node.getRoleName() in ('grid', 'table', 'list', 'tree table'): return node
                    if depth < 40:
                        for i in range(node.childCount):
                            found = find(node.getChildAtIndex(i), depth + 1)
                            if found is not None: return found
                except Exception: pass
                return None
            def first_label(node, depth):
                try:
                    if node.getRoleName() == 'label' and node.name: return node.name
                    if depth < 6:
                        for i in range(node.childCount):
                            name = first_label(node.getChildAtIndex(i), depth + 1)
                            if name: return name
                except Exception: pass
                return None
            for application in pyatspi.Registry.getDesktop(0):
                if application is not None and application.name == '\(app)':
                    grid = find(application, 0)
                    if grid is None: continue
                    view = grid.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                    for i in range(grid.childCount):
                        try:
                            cell = grid.getChildAtIndex(i)
                            box = cell.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                            # Only the cells on screen (GTK keeps more around the view).
                            if box.width <= 0 or box.height <= 0: continue
                            middle = box.y + box.height // 2
                            if \(onScreenOnly ? "True" : "False") and (middle < view.y or middle > view.y + view.height): continue
                            name = first_label(cell, 0)
                            if not name: continue
                            selected = cell.getState().contains(pyatspi.STATE_SELECTED)
                            print('%d\\t%d\\t%d\\t%s' % (box.x + box.width // 2, box.y + box.height // 2, 1 if selected else 0, name))
                        except Exception: pass
                    break
            """
        let cells = run(["/usr/bin/python3", "-c", script]).split(separator: "\n").compactMap { line -> GridCell? in
            let parts = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, let x = Int(parts[0]), let y = Int(parts[1]) else { return nil }
            return GridCell(name: String(parts[3]), selected: parts[2] == "1", x: x, y: y)
        }
        return cells.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    /// The role of each menu item in the app's open menus ("menu item", "radio menu item"…).
    static func menuItemRoles(app: String = "dossier") -> [String: String] {
        let script = """
            import pyatspi
            def walk(node, depth):
                try:
                    if 'menu item' in node.getRoleName() and node.name: print(node.getRoleName() + '\\t' + node.name)
                    if depth < 40:
                        for i in range(node.childCount): walk(node.getChildAtIndex(i), depth + 1)
                except Exception: pass
            for application in pyatspi.Registry.getDesktop(0):
                if application is not None and application.name == '\(app)': walk(application, 0)
            """
        var roles: [String: String] = [:]
        for line in run(["/usr/bin/python3", "-c", script]).split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { roles[String(parts[1])] = String(parts[0]) }
        }
        return roles
    }
}
