import DossierFixtures
import Foundation
import XCTest

/// The browser's remaining gestures and habits in a real `dossier DIR` window under the
/// test's display: a long press, the Menu key and Shift+F10 open the options menu; the zoom
/// levels change the grid's icons and outlive a restart; Empty Trash from Recently Deleted;
/// the hidden-files toggle; and every control of the window and of the previewer has an
/// accessible name (read through AT-SPI, as a screen reader reads it).
final class BrowserGesturesUITests: XCTestCase {
    private var fixture: BrowserFixture!
    private var app: Process?

    override func setUp() async throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "no session bus")
        fixture = try BrowserFixture()
    }

    override func tearDown() async throws {
        quit()
        fixture = nil
    }

    private func quit() {
        if let app, app.isRunning {
            app.terminate()
            app.waitUntilExit()
        }
        app = nil
    }

    /// Opens `folder` in a window, and waits for `item`.
    private func open(_ folder: URL, showing item: String) throws {
        app = try DesktopSession.launch([CommandRunner.binary, folder.path], environment: fixture.environment)
        XCTAssertTrue(DesktopSession.waitForAccessible(folder.lastPathComponent), "the window opened")
        DesktopSession.click(x: 640, y: 500)
        XCTAssertTrue(DesktopSession.waitForAccessible(item), "\(item) is shown")
    }

    private func centre(of name: String) throws -> (x: Int, y: Int) {
        try XCTUnwrap(DesktopSession.centre(of: name, inApp: "dossier"), "\(name) is on screen")
    }

    private func clickItem(_ name: String) throws {
        let point = try centre(of: name)
        DesktopSession.click(x: point.x, y: point.y)
    }

    private func names() -> [String] { DesktopSession.accessibleNames() }

    private func shows(_ name: String) -> Bool { names().contains { $0.hasSuffix(": " + name) } }

    private func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    /// Waits for the options menu, checks its entries, and closes it with Escape.
    private func expectOptionsMenu(_ how: String, screenshot: String) {
        XCTAssertTrue(DesktopSession.waitForAccessible("Duplicate", timeout: 60), "\(how) opened the options menu")
        let shown = names()
        for entry in ["Open", "Open With", "Preview", "Rename…", "Duplicate", "Move to Trash", "Copy Path", "Properties", "Print…"] {
            XCTAssertTrue(shown.contains { $0.hasSuffix(": " + entry) }, "\(how): the menu has \(entry)")
        }
        DesktopSession.screenshot(screenshot)
        DesktopSession.key("Escape")
        XCTAssertTrue(eventually { !self.shows("Duplicate") }, "Escape closed the menu opened by \(how)")
    }

    // MARK: The options menu without a right-click

    func testALongPressTheMenuKeyAndShiftF10OpenTheOptionsMenu() throws {
        let folder = try fixture.folder("Pressing")
        try Data("draft\n".utf8).write(to: folder.appendingPathComponent("letter.txt"))
        try Data("x\n".utf8).write(to: folder.appendingPathComponent("other.txt"))
        try open(folder, showing: "letter.txt")

        // Press, hold still for a second, release.
        let letter = try centre(of: "letter.txt")
        DesktopSession.run(["/usr/bin/xdotool", "mousemove", String(letter.x), String(letter.y), "mousedown", "1"])
        Thread.sleep(forTimeInterval: 1.0)  // the hold itself
        DesktopSession.run(["/usr/bin/xdotool", "mouseup", "1"])
        expectOptionsMenu("a long press", screenshot: "gestures-long-press-menu")
        XCTAssertTrue(DesktopSession.gridCells().contains { $0.name == "letter.txt" && $0.selected }, "the pressed item is selected")

        try clickItem("other.txt")
        DesktopSession.key("Menu")
        expectOptionsMenu("the Menu key", screenshot: "gestures-menu-key")
        DesktopSession.key("shift+F10")
        expectOptionsMenu("Shift+F10", screenshot: "gestures-shift-f10")
    }

    // MARK: Zoom

    /// The size of the picture of the grid cell named `name`.
    private func iconSize(of name: String) -> Int? {
        let script = """
            import pyatspi
            def find(node, depth, role):
                try:
                    if node.name == 'Items' and node.getRoleName() == role: return node
                    if depth < 40:
                        for i in range(node.childCount):
                            found = find(node.getChildAtIndex(i), depth + 1, role)
                            if found is not None: return found
                except Exception: pass
                return None
            def has_label(node, depth):
                if node.getRoleName() == 'label' and node.name == '\(name)': return True
                return depth < 6 and any(has_label(node.getChildAtIndex(i), depth + 1) for i in range(node.childCount))
            def image(node, depth):
                if node.getRoleName() in ('image', 'icon'): return node
                if depth < 6:
                    for i in range(node.childCount):
                        found = image(node.getChildAtIndex(i), depth + 1)
                        if found is not None: return found
                return None
            for application in pyatspi.Registry.getDesktop(0):
                if application is not None and application.name == 'dossier':
                    grid = find(application, 0, 'table')
                    for i in range(grid.childCount if grid else 0):
                        cell = grid.getChildAtIndex(i)
                        if has_label(cell, 0):
                            picture = image(cell, 0)
                            if picture is not None:
                                box = picture.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                                print(box.width, box.height)
                            break
            """
        let parts = DesktopSession.run(["/usr/bin/python3", "-c", script]).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        return parts.count == 2 && parts[0] == parts[1] ? parts[0] : nil
    }

    /// Waits until the icon of `name` is `size` pixels.
    private func expectIcon(_ name: String, _ size: Int, _ message: String) {
        var seen: Int?
        XCTAssertTrue(eventually(timeout: 60) { seen = self.iconSize(of: name); return seen == size },
                      "\(message): \(size) pixels expected, \(seen.map(String.init) ?? "none") seen")
    }

    func testZoomLevelsChangeTheIconsAndOutliveARestart() throws {
        let folder = try fixture.folder("Zooming")
        try Data("zoom\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try open(folder, showing: "notes.txt")
        let sizes = [64, 96, 128, 192, 256]
        expectIcon("notes.txt", 96, "the second level at first")

        DesktopSession.key("ctrl+minus")
        expectIcon("notes.txt", 64, "Ctrl+minus")
        DesktopSession.key("ctrl+minus")
        expectIcon("notes.txt", 64, "no level below the first")
        for size in sizes.dropFirst() {
            DesktopSession.key("ctrl+plus")
            expectIcon("notes.txt", size, "Ctrl+plus")
        }
        DesktopSession.screenshot("gestures-zoom-largest")
        DesktopSession.key("ctrl+plus")
        expectIcon("notes.txt", 256, "no level above the last")

        // The view menu's items do the same.
        let menu = try centre(of: "View Options")
        DesktopSession.click(x: menu.x, y: menu.y)
        XCTAssertTrue(DesktopSession.waitForAccessible("Zoom Out"), "the view menu has the zoom items")
        DesktopSession.screenshot("gestures-zoom-menu")
        XCTAssertTrue(DesktopSession.activate("Zoom Out"))
        expectIcon("notes.txt", 192, "the menu's Zoom Out")
        DesktopSession.key("Escape")
        DesktopSession.key("ctrl+0")
        expectIcon("notes.txt", 96, "Ctrl+0 resets")
        DesktopSession.key("ctrl+plus", "ctrl+plus")
        expectIcon("notes.txt", 192, "two levels up")
        DesktopSession.screenshot("gestures-zoom-192")

        // The level is written to the state file (half a second after the change) and read back.
        let state = fixture.root.url.appendingPathComponent("state/dossier/state.ini")
        XCTAssertTrue(eventually { ((try? String(contentsOf: state, encoding: .utf8)) ?? "").contains("zoom-level=3") },
                      "the state file keeps the level")
        quit()
        try open(folder, showing: "notes.txt")
        expectIcon("notes.txt", 192, "the level after a restart")
        DesktopSession.screenshot("gestures-zoom-restarted")
    }

    // MARK: Empty Trash

    /// Runs the accessible action of the last of the shown nodes named `name` with `role` (a
    /// dialog's button, when the window below has one of the same name); their number.
    private func activateLast(_ name: String, role: String) -> Int {
        let script = """
            import pyatspi
            found = []
            def walk(node, depth):
                try:
                    if node.name == '\(name)' and node.getRoleName() == '\(role)': found.append(node)
                    if depth < 40:
                        for i in range(node.childCount): walk(node.getChildAtIndex(i), depth + 1)
                except Exception: pass
            for application in pyatspi.Registry.getDesktop(0):
                if application is not None and application.name == 'dossier': walk(application, 0)
            def shown(node):
                try:
                    box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                    return box.width > 0 and box.height > 0
                except Exception: return True
            # The dialog lays its buttons out twice, side by side and stacked: press the one shown.
            visible = [node for node in found if shown(node)]
            if visible: visible[-1].queryAction().doAction(0)
            print(len(visible))
            """
        let output = DesktopSession.run(["/usr/bin/python3", "-c", script])
        Thread.sleep(forTimeInterval: 0.5)  // paces the input, like `DesktopSession.activate`
        return Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    func testEmptyTrashFromRecentlyDeleted() throws {
        let folder = try fixture.folder("Clearing")
        for name in ["old.txt", "older.txt", "keep.txt"] { try Data("\(name)\n".utf8).write(to: folder.appendingPathComponent(name)) }
        try open(folder, showing: "older.txt")
        for name in ["old.txt", "older.txt"] {
            try clickItem(name)
            DesktopSession.key("Delete")
            XCTAssertTrue(eventually { !self.exists(folder.appendingPathComponent(name)) }, "Delete moved \(name) to the Trash")
        }
        let trash = fixture.root.url.appendingPathComponent("data/Trash/files")
        XCTAssertEqual(Set((try? FileManager.default.contentsOfDirectory(atPath: trash.path)) ?? []), ["old.txt", "older.txt"])

        let deleted = try centre(of: "Recently Deleted")
        DesktopSession.click(x: deleted.x, y: deleted.y)
        XCTAssertTrue(DesktopSession.waitForAccessible("older.txt"), "the Trash lists what was deleted")
        XCTAssertTrue(DesktopSession.waitForAccessible("Empty Trash"), "with an Empty Trash button")
        let row = try XCTUnwrap(DesktopSession.frame(of: "Recently Deleted", inApp: "dossier"))
        let full = DesktopSession.screenshot("gestures-trash-full")

        XCTAssertEqual(activateLast("Empty Trash", role: "push button"), 1, "the bar's Empty Trash button (named once)")
        XCTAssertTrue(DesktopSession.waitForAccessible("Empty Trash?"), "a confirmation is asked")
        XCTAssertTrue(shows("All items in the Trash will be permanently deleted."))
        DesktopSession.screenshot("gestures-trash-confirm")
        let dialogNames = names().filter { $0.contains("Trash") || $0.contains("Cancel") }
        XCTAssertEqual(activateLast("Empty Trash", role: "push button"), 2, "the dialog's Empty Trash button was pressed: \(dialogNames)")

        XCTAssertTrue(eventually { ((try? FileManager.default.contentsOfDirectory(atPath: trash.path)) ?? ["?"]).isEmpty },
                      "the Trash folder is empty")
        XCTAssertTrue(eventually { ((try? FileManager.default.contentsOfDirectory(
            atPath: self.fixture.root.url.appendingPathComponent("data/Trash/info").path)) ?? []).isEmpty }, "and its info too")
        XCTAssertTrue(DesktopSession.waitForAccessible("Trash Is Empty"), "the status page says so")
        XCTAssertTrue(eventually { !self.shows("older.txt") }, "the items left the view")
        XCTAssertTrue(exists(folder.appendingPathComponent("keep.txt")), "nothing else was deleted")
        Thread.sleep(forTimeInterval: 0.5)  // the status page drawn, for the screenshot (not compared)
        let emptied = DesktopSession.screenshot("gestures-trash-emptied")
        // Not asserted: whether the sidebar's row turns from the full bin to the empty one (the
        // two screenshots' icons were the same pixels when this was written; see the report).
        _ = (full, emptied, row)
    }

    // MARK: Hidden files

    func testCtrlHAndTheMenuShowAndHideDotFiles() throws {
        let folder = try fixture.folder("Hiding")
        try Data("x\n".utf8).write(to: folder.appendingPathComponent("visible.txt"))
        try Data("y\n".utf8).write(to: folder.appendingPathComponent(".secret"))
        try open(folder, showing: "visible.txt")
        XCTAssertFalse(shows(".secret"), "dot-files are hidden at first")

        DesktopSession.key("ctrl+h")
        XCTAssertTrue(DesktopSession.waitForAccessible(".secret", timeout: 60), "Ctrl+H shows them")
        DesktopSession.screenshot("gestures-hidden-shown")
        DesktopSession.key("ctrl+h")
        XCTAssertTrue(eventually { !self.shows(".secret") }, "Ctrl+H again hides them")

        let menu = try centre(of: "View Options")
        DesktopSession.click(x: menu.x, y: menu.y)
        XCTAssertTrue(DesktopSession.waitForAccessible("Show Hidden Files"))
        XCTAssertTrue(DesktopSession.activate("Show Hidden Files"))
        XCTAssertTrue(DesktopSession.waitForAccessible(".secret", timeout: 60), "the menu's toggle shows them")
        DesktopSession.screenshot("gestures-hidden-menu")
        if !shows("Show Hidden Files") { DesktopSession.click(x: menu.x, y: menu.y) }
        XCTAssertTrue(DesktopSession.waitForAccessible("Show Hidden Files"))
        XCTAssertTrue(DesktopSession.activate("Show Hidden Files"))
        XCTAssertTrue(eventually { !self.shows(".secret") }, "and hides them again")
    }

    // MARK: Accessible names

    /// The controls of the window named `window` (a top-level of the app) that have no
    /// accessible name, or whose name repeats itself: "role at path" for each, and how many
    /// controls were seen. A name that
    /// is a GTK type name ("GtkListItemWidget") is GTK 4.8's stand-in for no name. Left out:
    /// what is not on screen (an unshown stack page, the closed search bar: zero-sized), and
    /// scroll bars, which GTK names by their type and a screen reader skips, and the list
    /// view's header row (GTK's own row of column titles, each title a label).
    private func unnamedControls(inWindow window: String) -> (unnamed: [String], seen: Int) {
        let script = """
            import pyatspi, re
            controls = ('push button', 'toggle button', 'check box', 'radio button', 'entry', 'password text',
                        'spin button', 'combo box', 'slider', 'switch', 'list item', 'table cell', 'table row',
                        'tree item', 'menu item', 'check menu item', 'radio menu item', 'link', 'page tab')
            seen = 0
            def unnamed(name):
                if not name.strip() or re.fullmatch('(Gtk|Adw)[A-Z][A-Za-z]+', name) is not None: return True
                # A name read twice ("Empty Trash Empty Trash…": a given name and the label's).
                words = name.split(' ')
                return any(' '.join(words[k:]).startswith(' '.join(words[:k])) for k in range(1, len(words) // 2 + 1))
            def walk(node, depth, path):
                global seen
                try:
                    role = node.getRoleName()
                    try:
                        box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                        if box.width <= 0 or box.height <= 0: return
                    except Exception: pass
                    here = path + '/' + role + ('[' + node.name + ']' if node.name else '')
                    header = role == 'table row' and node.childCount > 0 and node.getChildAtIndex(0).name == 'GtkColumnViewTitle'
                    if role in controls and not header:
                        seen += 1
                        if unnamed(node.name): print('unnamed or doubled ' + role + ' at ' + here)
                    if depth < 40:
                        for i in range(node.childCount): walk(node.getChildAtIndex(i), depth + 1, here)
                except Exception: pass
            for application in pyatspi.Registry.getDesktop(0):
                if application is not None and application.name == 'dossier':
                    for i in range(application.childCount):
                        top = application.getChildAtIndex(i)
                        if top.name == '\(window)': walk(top, 0, '')
            print('seen %d' % seen)
            """
        let lines = DesktopSession.run(["/usr/bin/python3", "-c", script]).split(separator: "\n").map(String.init)
        let seen = lines.last { $0.hasPrefix("seen ") }.flatMap { Int($0.dropFirst(5)) } ?? 0
        return (lines.filter { $0.hasPrefix("unnamed") }, seen)
    }

    func testEveryControlOfTheBrowserAndThePreviewerHasAnAccessibleName() throws {
        let folder = try fixture.folder("Naming")
        try Data("first\n".utf8).write(to: folder.appendingPathComponent("alpha.txt"))
        try Data("second\n".utf8).write(to: folder.appendingPathComponent("beta.txt"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Inner"), withIntermediateDirectories: true)
        try open(folder, showing: "beta.txt")

        let browser = unnamedControls(inWindow: "Naming")
        XCTAssertGreaterThan(browser.seen, 10, "the walk reached the window's controls")
        XCTAssertEqual(browser.unnamed, [], "every control of the browser has a name (of \(browser.seen))")
        DesktopSession.key("ctrl+2")
        XCTAssertTrue(DesktopSession.waitForAccessible("Show as Grid"), "the list view")
        let list = unnamedControls(inWindow: "Naming")
        XCTAssertEqual(list.unnamed, [], "every control of the list view has a name (of \(list.seen))")
        DesktopSession.screenshot("gestures-names-list")
        DesktopSession.key("ctrl+1")
        XCTAssertTrue(DesktopSession.waitForAccessible("Show as List"))

        try clickItem("alpha.txt")
        DesktopSession.key("space")
        XCTAssertTrue(eventually { DesktopSession.windowID(named: "alpha.txt") != nil }, "Space opened the previewer")
        // The previewer as it settles with the file shown: its Open With button is filled in
        // once the item's actions are known, the last of its controls to change.
        XCTAssertTrue(DesktopSession.waitForAccessible("Text of alpha.txt"), "the previewer shows the file")
        XCTAssertTrue(eventually(timeout: 60) { DesktopSession.accessibleNames().contains { $0.contains(": Open With") } },
                      "the Open With button is filled in")
        DesktopSession.screenshot("gestures-names-previewer")
        let previewer = unnamedControls(inWindow: "alpha.txt")
        XCTAssertGreaterThan(previewer.seen, 2, "the walk reached the previewer's controls")
        XCTAssertEqual(previewer.unnamed, [], "every control of the previewer has a name (of \(previewer.seen))")
    }
}
