import DossierFixtures
import Foundation
import XCTest

/// Finding where things are, in a real `dossier DIR` window: Recents in the order they were
/// last used, Show in Folder from Recents and from search results (the item's folder, the
/// item selected), and the spinner on an item while its app starts.
final class BrowserPlacesUITests: XCTestCase {
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

    private func launch(_ folder: URL, environment extra: [String: String] = [:]) throws {
        app = try DesktopSession.launch([CommandRunner.binary, folder.path],
                                        environment: fixture.environment.merging(extra) { $1 })
        XCTAssertTrue(DesktopSession.waitForAccessible(folder.lastPathComponent), "the window opened")
        DesktopSession.click(x: 640, y: 500)
    }

    /// Right-clicks the cell named `name` and picks `entry` in its options menu.
    private func choose(_ entry: String, onItem name: String) throws {
        let cell = try XCTUnwrap(DesktopSession.gridCells().first { $0.name == name }, "\(name) is shown")
        DesktopSession.run(["/usr/bin/xdotool", "mousemove", String(cell.x), String(cell.y), "click", "3"])
        XCTAssertTrue(DesktopSession.waitForAccessible(entry), "the menu offers \(entry)")
        DesktopSession.screenshot("places-menu-\(name)")
        XCTAssertTrue(DesktopSession.activate(entry), "\(entry) chosen")
    }

    /// The window's title: the folder shown.
    private var shownFolderIsOpen: (String) -> Bool {
        { name in DesktopSession.windowID(named: name) != nil }
    }

    func testRecentsAreNewestFirstAndShowInFolderSelectsTheItemInItsFolder() throws {
        let work = try fixture.folder("Work")
        let play = try fixture.folder("Play")
        let apple = work.appendingPathComponent("apple.txt")
        let zebra = play.appendingPathComponent("zebra.txt")
        for (index, file) in [apple, zebra].enumerated() {
            try Data("\(index)\n".utf8).write(to: file)
        }
        try Data("w\n".utf8).write(to: work.appendingPathComponent("another.txt"))
        // apple used first, zebra a moment later: zebra is the newest.
        XCTAssertEqual(try fixture.runner.run(["recents", "--add", apple.path]).status, 0)
        Thread.sleep(forTimeInterval: 1.2)
        XCTAssertEqual(try fixture.runner.run(["recents", "--add", zebra.path]).status, 0)

        try launch(fixture.home.url)
        let recent = try XCTUnwrap(DesktopSession.centre(of: "Recent", inApp: "dossier"), "the sidebar has Recent")
        DesktopSession.click(x: recent.x, y: recent.y)
        var names: [String] = []
        XCTAssertTrue(eventually { names = DesktopSession.gridCells().map(\.name); return names.count == 2 }, "\(names)")
        XCTAssertEqual(names, ["zebra.txt", "apple.txt"], "last used first, not by name")
        DesktopSession.screenshot("places-1-recents-newest-first")

        try choose("Show in Folder", onItem: "apple.txt")
        XCTAssertTrue(eventually { self.shownFolderIsOpen("Work") }, "the window shows apple's folder")
        XCTAssertTrue(eventually { DesktopSession.gridCells().filter(\.selected).map(\.name) == ["apple.txt"] },
                      "with apple selected: \(DesktopSession.gridCells())")
        DesktopSession.screenshot("places-2-shown-in-folder")
    }

    func testShowInFolderFromASearchResultInASubfolder() throws {
        let root = try fixture.folder("Archive")
        let deep = root.appendingPathComponent("2024/Receipts", isDirectory: true)
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        try Data("r\n".utf8).write(to: deep.appendingPathComponent("needle-receipt.txt"))
        try Data("o\n".utf8).write(to: deep.appendingPathComponent("other.txt"))
        try Data("t\n".utf8).write(to: root.appendingPathComponent("top.txt"))
        try launch(root)
        XCTAssertTrue(DesktopSession.waitForAccessible("top.txt"))

        DesktopSession.key("ctrl+f")
        DesktopSession.run(["/usr/bin/xdotool", "type", "--delay", "50", "needle"])
        XCTAssertTrue(eventually { DesktopSession.gridCells().map(\.name) == ["needle-receipt.txt"] },
                      "the subfolder's match is the result: \(DesktopSession.gridCells().map(\.name))")
        DesktopSession.screenshot("places-3-search-result")
        try choose("Show in Folder", onItem: "needle-receipt.txt")
        XCTAssertTrue(eventually { self.shownFolderIsOpen("Receipts") }, "the window shows the result's folder")
        XCTAssertTrue(eventually { DesktopSession.gridCells().filter(\.selected).map(\.name) == ["needle-receipt.txt"] },
                      "with the result selected: \(DesktopSession.gridCells())")
        XCTAssertEqual(Set(DesktopSession.gridCells().map(\.name)), ["needle-receipt.txt", "other.txt"], "the whole folder, no filter")
        DesktopSession.screenshot("places-4-result-shown-in-folder")
    }

    func testOpeningWithASlowAppShowsASpinnerOverTheItemWithoutResizingIt() throws {
        let apps = try ApplicationFixture()
        // An app that takes its time to start, then records what it was given.
        try apps.addApp("slow-editor", name: "Slow Editor", types: ["text/plain"],
                        exec: "/bin/sh -c 'sleep 3; \(apps.recorder.path) slow-editor \"$@\"' sh %F")
        try apps.writeMimeApps("config/mimeapps.list", "[Default Applications]\ntext/plain=slow-editor.desktop\n")
        for name in ["icons", "glib-2.0"] {
            try FileManager.default.createSymbolicLink(at: apps.dataDirs.appendingPathComponent(name),
                                                       withDestinationURL: URL(fileURLWithPath: "/usr/share/" + name))
        }
        let folder = try fixture.folder("Slow")
        let file = folder.appendingPathComponent("letter.txt")
        try Data("dear\n".utf8).write(to: file)
        try launch(folder, environment: [
            "XDG_CONFIG_HOME": apps.configHome.path, "XDG_CONFIG_DIRS": apps.configDirs.path,
            "XDG_DATA_HOME": apps.dataHome.path, "XDG_DATA_DIRS": apps.dataDirs.path, "XDG_CURRENT_DESKTOP": apps.desktop,
        ])
        let cell = try XCTUnwrap({ () -> DesktopSession.GridCell? in
            var found: DesktopSession.GridCell?
            _ = eventually { found = DesktopSession.gridCells().first { $0.name == "letter.txt" }; return found != nil }
            return found
        }(), "the file is shown")
        let before = try XCTUnwrap(DesktopSession.frame(of: "letter.txt", inApp: "dossier"))
        DesktopSession.doubleClick(x: cell.x, y: cell.y)
        // Watched from one Python process: the spinner is there while the app starts.
        let seen = DesktopSession.watchFor(prefix: "Opening letter.txt", seconds: 60,
                                           screenshot: DesktopSession.screenshotFolder.appendingPathComponent("places-5-opening.png"))
        XCTAssertNotNil(seen, "a spinner named “Opening letter.txt” showed on the item")
        if let seen {
            XCTAssertLessThanOrEqual(seen.width, 32, "a fixed, small spinner: \(seen)")
            XCTAssertTrue(seen.x >= cell.x - 80 && seen.x <= cell.x + 80, "over the item's icon: \(seen) vs \(cell)")
        }
        let after = try XCTUnwrap(DesktopSession.frame(of: "letter.txt", inApp: "dossier"))
        XCTAssertTrue(eventually { !DesktopSession.accessibleNames().contains { $0.contains("Opening letter.txt") } },
                      "the spinner goes once the app has had time to show up")
        XCTAssertEqual(before.y, after.y, "the name did not move: the cell kept its size")
        XCTAssertEqual(apps.launches(waitingFor: 1), [["slow-editor", file.path]], "the app got the file in the end")
    }
}

extension DesktopSession {
    static var screenshotFolder: URL { Screenshots.folder }

    /// Watches the app's accessibility tree for `seconds` for a node whose name starts with
    /// `prefix` (something short-lived), taking a screenshot at that moment; its frame or nil.
    static func watchFor(prefix: String, app: String = "dossier", seconds: Double,
                         screenshot: URL) -> (x: Int, y: Int, width: Int, height: Int)? {
        try? FileManager.default.createDirectory(at: screenshotFolder, withIntermediateDirectories: true)
        let script = """
            import pyatspi, subprocess, time
            def find(node, depth):
                try:
                    if node.name and node.name.startswith('\(prefix)'): return node
                    if depth < 40:
                        for i in range(node.childCount):
                            found = find(node.getChildAtIndex(i), depth + 1)
                            if found is not None: return found
                except Exception: pass
                return None
            end = time.time() + \(seconds)
            while time.time() < end:
                for application in pyatspi.Registry.getDesktop(0):
                    if application is not None and application.name == '\(app)':
                        node = find(application, 0)
                        if node is not None:
                            subprocess.run(['/usr/bin/import', '-window', 'root', '\(screenshot.path)'])
                            box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                            print(box.x, box.y, box.width, box.height)
                            raise SystemExit
                time.sleep(0.02)
            """
        let parts = run(["/usr/bin/python3", "-c", script]).split(separator: " ")
            .compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return parts.count == 4 ? (parts[0], parts[1], parts[2], parts[3]) : nil
    }
}
