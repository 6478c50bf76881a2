import DossierFixtures
import Foundation
import XCTest

/// The browser window as a user meets it, under the test's Xvfb display: `dossier DIR`, the
/// sidebar, one instance per session, `dossier FILE…`, remembered state and the shortcuts
/// window. Every run gets its own home and XDG folders.
final class BrowserWindowUITests: XCTestCase {
    private var fixture: BrowserFixture!
    private var launched: [Process] = []

    override func setUp() async throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "no session bus")
        fixture = try BrowserFixture()
    }

    override func tearDown() async throws {
        // The next test must find no running instance on the bus.
        for process in launched where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        launched = []
        fixture = nil
    }

    private func launch(_ arguments: [String]) throws -> Process {
        let process = try DesktopSession.launch([CommandRunner.binary] + arguments, environment: fixture.environment)
        launched.append(process)
        return process
    }

    private func frames() -> [String] {
        DesktopSession.accessibleNames().filter { $0.hasPrefix("frame: ") }
    }

    func testDossierDirOpensABrowserWindowWithTheSidebarAndTheSidebarNavigates() throws {
        try fixture.home.write("Documents/report.txt", "quarterly\n")
        let project = try fixture.folder("Projects")
        try fixture.addFavorite(project)
        let tagged = try fixture.home.write("Music/song-notes.txt", "la la\n")
        XCTAssertEqual(try fixture.runner.run(["tag", "add", "work", tagged.path]).status, 0)

        _ = try launch([project.path])
        XCTAssertTrue(DesktopSession.waitForAccessible("Projects"), "the window shows the folder")
        XCTAssertTrue(eventually { self.frames().contains("frame: Projects") }, "the window is titled after the folder: \(frames())")
        for row in ["Recent", "Home", "Documents", "Downloads", "Music", "Recently Deleted", "work"] {
            XCTAssertTrue(DesktopSession.waitForAccessible(row), "the sidebar has \(row)")
        }
        XCTAssertFalse(DesktopSession.accessibleNames().contains { $0.hasSuffix(": Templates") }, "Templates is left out")
        DesktopSession.screenshot("browser-window-projects")

        let documents = try XCTUnwrap(DesktopSession.centre(of: "Documents", inApp: "dossier"))
        DesktopSession.click(x: documents.x, y: documents.y)
        XCTAssertTrue(eventually { self.frames().contains("frame: Documents") }, "Documents is shown: \(frames())")
        DesktopSession.screenshot("browser-window-documents")
        let recents = try XCTUnwrap(DesktopSession.centre(of: "Recently Deleted", inApp: "dossier"))
        DesktopSession.click(x: recents.x, y: recents.y)
        XCTAssertTrue(eventually { self.frames().contains("frame: Recently Deleted") }, "the Trash is shown: \(frames())")
    }

    func testASecondLaunchOpensItsWindowInTheRunningInstanceWithSenderAndAnnotation() throws {
        let first = try fixture.folder("First")
        let second = try fixture.folder("Second")
        let instance = try launch([first.path])
        XCTAssertTrue(eventually { self.frames().contains("frame: First") }, "\(frames())")

        let handOff = try fixture.runner.run(["--sender", "org.example.Mail", "--annotation", "message 42", second.path])
        XCTAssertEqual(handOff.status, 0, handOff.errors)
        XCTAssertTrue(eventually { self.frames().contains("frame: Second") }, "the second window opened: \(frames())")
        XCTAssertTrue(frames().contains("frame: First"), "the first window is still there")
        XCTAssertTrue(instance.isRunning, "the first process serves both windows (the second launch has exited)")
        DesktopSession.screenshot("browser-second-window")

        XCTAssertTrue(eventually { ((try? String(contentsOf: self.fixture.openLog, encoding: .utf8)) ?? "").contains("message 42") })
        let log = try String(contentsOf: fixture.openLog, encoding: .utf8)
        let entries = log.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let handed = try XCTUnwrap(entries.last)
        XCTAssertEqual(handed["sender"] as? String, "org.example.Mail")
        XCTAssertEqual(handed["annotation"] as? String, "message 42")
        XCTAssertEqual(handed["urls"] as? [String], [second.absoluteString])

        // A missing path is reported by the launch that named it.
        let missing = try fixture.runner.run([second.path, fixture.root.url.appendingPathComponent("nowhere").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.errors.contains("nowhere"), missing.errors)
    }

    func testDossierFilesPreviewsThemInTheRunningInstance() throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/samples").standardized
        let instance = try launch([try fixture.folder("Here").path])
        XCTAssertTrue(eventually { self.frames().contains("frame: Here") })
        let result = try fixture.runner.run([samples.appendingPathComponent("alpha.png").path, samples.appendingPathComponent("notes.txt").path])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(DesktopSession.waitForAccessible("Image alpha.png"), "the first file is previewed")
        XCTAssertTrue(DesktopSession.waitForAccessible("1 of 2"), "both files are in the preview")
        XCTAssertTrue(instance.isRunning)
        DesktopSession.screenshot("browser-preview-files")
    }

    func testWindowSizeAndViewModeSurviveARestart() throws {
        let folder = try fixture.folder("Kept")
        let first = try launch([folder.path])
        XCTAssertTrue(eventually { self.frames().contains("frame: Kept") })
        let window = try XCTUnwrap(DesktopSession.windowID(named: "Kept"))
        DesktopSession.run(["/usr/bin/xdotool", "windowsize", "--sync", window, "900", "640"])
        XCTAssertTrue(eventually(timeout: 60) { DesktopSession.windowGeometry(window).size == "900x640" },
                      "resized: \(DesktopSession.windowGeometry(window))")
        let resized = DesktopSession.windowGeometry(window)
        DesktopSession.click(x: 600, y: 300)
        DesktopSession.key("ctrl+2")
        DesktopSession.screenshot("browser-before-restart")
        DesktopSession.key("ctrl+w")
        XCTAssertTrue(eventually { !first.isRunning }, "Ctrl+W closed the last window and the app quit")

        let saved = try String(contentsOf: fixture.stateFile, encoding: .utf8)
        XCTAssertTrue(saved.contains("view-mode=list"), saved)
        XCTAssertTrue(saved.contains("location=\(folder.absoluteString)"), saved)
        XCTAssertFalse(saved.contains("width=1000"), "the new width was saved: \(saved)")

        // `dossier` alone: the last folder, at the size it had.
        _ = try launch([])
        XCTAssertTrue(eventually { self.frames().contains("frame: Kept") }, "the last folder is shown again: \(frames())")
        let reopened = try XCTUnwrap(DesktopSession.windowID(named: "Kept"))
        XCTAssertTrue(eventually(timeout: 60) { DesktopSession.windowGeometry(reopened).size == resized.size },
                      "the window has its size again: \(DesktopSession.windowGeometry(reopened).size) for \(resized.size)")
        DesktopSession.screenshot("browser-after-restart")
        DesktopSession.click(x: 600, y: 300)
        DesktopSession.key("ctrl+w")
        XCTAssertTrue(eventually { self.launched.allSatisfy { !$0.isRunning } })
        let again = try String(contentsOf: fixture.stateFile, encoding: .utf8)
        XCTAssertTrue(again.contains("view-mode=list"), "the view mode came back and was kept: \(again)")
    }

    func testCtrlQuestionShowsTheShortcutsWindow() throws {
        _ = try launch([try fixture.folder("Keys").path])
        XCTAssertTrue(eventually { self.frames().contains("frame: Keys") })
        DesktopSession.click(x: 600, y: 300)
        DesktopSession.key("ctrl+question")
        XCTAssertTrue(DesktopSession.waitForAccessible("Show hidden files"), "the shortcuts window lists the browser's shortcuts")
        XCTAssertTrue(DesktopSession.waitForAccessible("New window"))
        DesktopSession.screenshot("browser-shortcuts-window")
    }
}

/// `dossier DIR` and `--help` where there is no display.
final class GraphicalCommandLineTests: XCTestCase {
    func testAFolderWithoutADisplayAsksForAGraphicalSession() throws {
        let folder = try TemporaryFolder()
        let runner = CommandRunner(environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        let result = try runner.run([folder.url.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("graphical session"), result.errors)
        let bare = try runner.run([])
        XCTAssertEqual(bare.status, 0, "no display and no arguments: the usage")
        XCTAssertTrue(bare.output.contains("Usage: dossier"), bare.output)
        XCTAssertEqual(try runner.run(["ls", folder.url.path]).status, 0, "commands still work")
    }

    func testHelpListsTheWindowForms() throws {
        let help = try CommandRunner().run(["--help"])
        XCTAssertEqual(help.status, 0)
        for form in ["dossier DIR", "dossier FILE", "--annotation TEXT", "--sender APP_ID"] {
            XCTAssertTrue(help.output.contains(form), "\(form) in \(help.output)")
        }
    }
}

/// A home folder with the XDG user folders, and private config, data, cache and state folders.
final class BrowserFixture {
    let root: TemporaryFolder
    let home: TemporaryFolder
    var openLog: URL { root.url.appendingPathComponent("open-log.jsonl") }
    var stateFile: URL { root.url.appendingPathComponent("state/dossier/state.ini") }

    init() throws {
        root = try TemporaryFolder("dossier-browser")
        home = try TemporaryFolder("dossier-home")
        for name in ["Desktop", "Documents", "Downloads", "Music", "Pictures", "Videos", "Templates"] {
            try FileManager.default.createDirectory(at: home.url.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        for name in ["config", "data", "cache", "state"] {
            try FileManager.default.createDirectory(at: root.url.appendingPathComponent(name), withIntermediateDirectories: true)
        }
    }

    var environment: [String: String] {
        ["HOME": home.url.path,
         "XDG_CONFIG_HOME": root.url.appendingPathComponent("config").path,
         "XDG_DATA_HOME": root.url.appendingPathComponent("data").path,
         "XDG_CACHE_HOME": root.url.appendingPathComponent("cache").path,
         "XDG_STATE_HOME": root.url.appendingPathComponent("state").path,
         "DOSSIER_OPEN_LOG": openLog.path]
    }

    var runner: CommandRunner { CommandRunner(environment: environment.mapValues { $0 }) }

    /// A folder outside the home folder.
    func folder(_ name: String) throws -> URL {
        let url = root.url.appendingPathComponent("places/\(name)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func addFavorite(_ folder: URL) throws {
        try addFavorites([folder])
    }

    /// Writes GTK's bookmarks file with these folders, in order.
    func addFavorites(_ folders: [URL]) throws {
        let file = root.url.appendingPathComponent("config/gtk-3.0/bookmarks")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(folders.map { $0.absoluteString + "\n" }.joined().utf8).write(to: file)
    }
}

extension DesktopSession {

    /// The X window whose title is exactly `name`.
    static func windowID(named name: String) -> String? {
        run(["/usr/bin/xdotool", "search", "--name", "^\(name)$"]).split(separator: "\n").first.map(String.init)
    }

    /// A window's size and position as X sees it.
    static func windowGeometry(_ window: String) -> (size: String, position: String) {
        let lines = run(["/usr/bin/xdotool", "getwindowgeometry", window]).split(separator: "\n")
        let size = lines.first { $0.contains("Geometry:") }.map { String($0.split(separator: " ").last ?? "") } ?? ""
        let position = lines.first { $0.contains("Position:") }.map(String.init) ?? ""
        return (size, position)
    }
}

/// Favorites in the sidebar: the right-click menu and dragging to reorder.
final class SidebarFavoritesUITests: XCTestCase {
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
        fixture = nil
    }

    private var bookmarks: String {
        (try? String(contentsOf: fixture.root.url.appendingPathComponent("config/gtk-3.0/bookmarks"), encoding: .utf8)) ?? ""
    }

    func testRemoveFromFavoritesInTheRowMenuRewritesTheBookmarksFile() throws {
        let alpha = try fixture.folder("Alpha")
        let beta = try fixture.folder("Beta")
        try fixture.addFavorites([alpha, beta])
        app = try DesktopSession.launch([CommandRunner.binary, fixture.home.url.path], environment: fixture.environment)
        XCTAssertTrue(DesktopSession.waitForAccessible("Beta"))
        let row = try XCTUnwrap(DesktopSession.centre(of: "Alpha", inApp: "dossier"))
        DesktopSession.run(["/usr/bin/xdotool", "mousemove", String(row.x), String(row.y), "click", "3"])
        XCTAssertTrue(DesktopSession.waitForAccessible("Remove from Favorites"), "the row's menu opened")
        DesktopSession.screenshot("sidebar-favorite-menu")
        // A popover's items report positions within the popover: activate the item through
        // its accessible action, as a screen reader would.
        XCTAssertTrue(DesktopSession.activate("Remove from Favorites"))
        XCTAssertTrue(eventually { !self.bookmarks.contains(alpha.absoluteString) && self.bookmarks.contains(beta.absoluteString) },
                      "Alpha left the bookmarks file: \(bookmarks)")
        XCTAssertTrue(eventually { !DesktopSession.accessibleNames().contains { $0.hasSuffix(": Alpha") } }, "and the sidebar")
    }

    func testAFavoriteChangedByAnotherProgramShowsAtOnce() throws {
        app = try DesktopSession.launch([CommandRunner.binary, fixture.home.url.path], environment: fixture.environment)
        XCTAssertTrue(DesktopSession.waitForAccessible("Recently Deleted"))
        let added = try fixture.folder("Elsewhere")
        let result = try fixture.runner.run(["favorites", "add", added.path, "Shared Work"])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(DesktopSession.waitForAccessible("Shared Work"), "the new favorite appears in the sidebar")
        DesktopSession.screenshot("sidebar-favorite-added")
    }

    func testDraggingAFavoriteAboveAnotherReordersThem() throws {
        let alpha = try fixture.folder("Alpha")
        let beta = try fixture.folder("Beta")
        try fixture.addFavorites([alpha, beta])
        app = try DesktopSession.launch([CommandRunner.binary, fixture.home.url.path], environment: fixture.environment)
        XCTAssertTrue(DesktopSession.waitForAccessible("Beta"))
        let from = try XCTUnwrap(DesktopSession.frame(of: "Beta", inApp: "dossier"))
        let to = try XCTUnwrap(DesktopSession.frame(of: "Alpha", inApp: "dossier"))
        DesktopSession.drag(from: (from.x + from.width / 2, from.y + from.height / 2), to: (to.x + to.width / 2, to.y + 3))
        XCTAssertTrue(eventually {
            let text = self.bookmarks
            guard let a = text.range(of: alpha.absoluteString), let b = text.range(of: beta.absoluteString) else { return false }
            return b.lowerBound < a.lowerBound
        }, "Beta now comes first: \(bookmarks)")
        DesktopSession.screenshot("sidebar-favorites-reordered")
    }
}
