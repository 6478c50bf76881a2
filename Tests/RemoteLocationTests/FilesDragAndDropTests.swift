import DossierFixtures
import Foundation
import XCTest

/// Drag and drop between GNOME Files (Debian's Nautilus, in the test's display and session,
/// where GVFS has the server mounted) and Dossier's window on an sftp folder, with real
/// pointer drags (xdotool) between the two windows: a local file dragged from Files onto
/// Dossier's empty server folder is copied to the server; a file of the server dragged from Dossier
/// onto Files' local folder is copied there; a file dropped on a folder item of the server's
/// folder goes into that folder. Screenshots in `.build/test-screenshots`
/// (files-dnd-*).
final class FilesDragAndDropTests: XCTestCase {
    private var app: Process?
    private var server: RemoteServer?
    private var nautilusStarted = false
    private var state: TemporaryFolder!
    private var nautilusWasRunning = false
    /// The two apps' windows on a display of this test's own, where nothing an earlier test left
    /// can come over them. CI lost every drag of this test twice on the shared display: a
    /// previewer window left open by the Space-in-Nautilus test sat there, and Nautilus 43
    /// shows each new selection in a visible previewer, which raised it over the drop points.
    private var ownDisplay: OwnDisplay?
    private var dossierLog: URL { state.url.appendingPathComponent("dossier.log") }
    private var filesLog: URL { state.url.appendingPathComponent("files.log") }

    override func setUpWithError() throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/nautilus"), "Files is not installed")
        try XCTSkipUnless(ServerAccount.canStartServers, "the test servers need root")
        state = try TemporaryFolder("dossier-dnd-state")
        ownDisplay = try OwnDisplay()
    }

    override func tearDown() {
        if let app, app.isRunning {
            app.terminate()
            app.waitUntilExit()
        }
        app = nil
        if nautilusStarted { DesktopSession.run(["/usr/bin/nautilus", "-q"]) }
        nautilusStarted = false
        server?.stop()
        server = nil
        ownDisplay?.close()
        ownDisplay = nil
    }

    func testFilesDragsALocalFileOntoDossiersEmptyServerFolderAndDossierDragsAServerFileIntoFiles() throws {
        let server = try RemoteServer.start(.sftp)
        self.server = server
        _ = try server.folder.write("Inbox/.hidden", "")
        server.openToServer()
        try server.mount()
        let local = try TemporaryFolder("dossier-dnd-local")
        _ = try local.write("local note.txt", "from this computer")
        _ = try local.write("second.txt", "into a folder of the server")

        // Dossier on the left half of the screen, on the server's empty Inbox; Files on the
        // right, on the local folder. No window manager: the windows are placed with xdotool.
        let dossier = try launchDossier(at: server.uri("Inbox/"), title: "Inbox")
        XCTAssertTrue(place(dossier, x: 0, width: 640), "Dossier's window is on the left: \(geometry(dossier))")
        let files = try showInFiles(local.url.path, title: local.url.lastPathComponent)
        XCTAssertTrue(place(files, x: 650, width: 620), "Files' window is on the right: \(geometry(files))")
        XCTAssertTrue(place(dossier, x: 0, width: 640), "Dossier's window stayed on the left: \(geometry(dossier))")
        XCTAssertTrue(DesktopSession.waitForAccessible("Folder Is Empty"), "Dossier shows the server's empty folder")
        _ = DesktopSession.screenshot("files-dnd-0-side-by-side")

        // Files → Dossier: the local file onto the server's empty folder.
        XCTAssertNotNil(centre(of: "local note.txt", inApp: "nautilus", window: files), "Files shows the local file")
        let arrived = server.localURL("Inbox/local note.txt")
        let first = DesktopSession.drag(from: { self.centre(of: "local note.txt", inApp: "nautilus", window: files) },
                                        to: { (400, 450) }, raising: [dossier, files],
                                        until: { (try? String(contentsOf: arrived, encoding: .utf8)) == "from this computer" })
        XCTAssertTrue(first.arrived, "the file dropped from Files was copied to the server" + explanation(first.report, dossier, files))
        XCTAssertTrue(DesktopSession.waitForAccessible("local note.txt"), "Dossier's listing shows it")
        _ = DesktopSession.screenshot("files-dnd-1-dropped-on-dossier")

        // Dossier → Files: a file of the server onto the local folder.
        _ = try server.folder.write("Inbox/remote plan.txt", "from the server")
        _ = try server.folder.write("Inbox/Archive/.keep", "")
        server.openToServer()
        DesktopSession.run(["/usr/bin/xdotool", "mousemove", "300", "600", "click", "1"])
        DesktopSession.key("F5")
        XCTAssertTrue(DesktopSession.waitForAccessible("remote plan.txt"), "Dossier lists the server's new file")
        let copied = local.url.appendingPathComponent("remote plan.txt")
        let second = DesktopSession.drag(from: { self.centre(of: "remote plan.txt", inApp: "dossier", window: dossier) },
                                         to: { (1000, 450) }, raising: [dossier, files],
                                         until: { (try? String(contentsOf: copied, encoding: .utf8)) == "from the server" })
        XCTAssertTrue(second.arrived, "the server's file dragged from Dossier was copied by Files" + explanation(second.report, dossier, files))
        _ = DesktopSession.screenshot("files-dnd-2-dropped-on-files")

        // Files → a folder item in Dossier's server folder: into that folder on the server.
        XCTAssertNotNil(centre(of: "second.txt", inApp: "nautilus", window: files), "Files shows the second file")
        XCTAssertNotNil(centre(of: "Archive", inApp: "dossier", window: dossier), "Dossier shows the Archive folder")
        let third = DesktopSession.drag(from: { self.centre(of: "second.txt", inApp: "nautilus", window: files) },
                                        to: { self.centre(of: "Archive", inApp: "dossier", window: dossier) }, raising: [dossier, files],
                                        until: {
            (try? String(contentsOf: server.localURL("Inbox/Archive/second.txt"), encoding: .utf8)) == "into a folder of the server"
        })
        XCTAssertTrue(third.arrived, "the file dropped on the folder item went into that folder on the server" + explanation(third.report, dossier, files))
        XCTAssertFalse(FileManager.default.fileExists(atPath: server.localURL("Inbox/second.txt").path))
        _ = DesktopSession.screenshot("files-dnd-3-dropped-on-a-folder")
    }

    /// Moves and sizes a window (700 px high, at the top of the screen) and waits until the X
    /// server reports it there: without a window manager a window just mapped can still be
    /// configured by its own app after the move (Files restores its saved size). True when
    /// the window holds the place.
    private func place(_ window: String, x: Int, width: Int) -> Bool {
        let wanted = ["X=\(x)", "Y=0", "WIDTH=\(width)", "HEIGHT=700"]
        return eventually {
            let now = geometry(window)
            if wanted.allSatisfy(now.contains) { return true }
            DesktopSession.run(["/usr/bin/xdotool", "windowsize", window, String(width), "700"])
            DesktopSession.run(["/usr/bin/xdotool", "windowmove", window, String(x), "0"])
            Thread.sleep(forTimeInterval: 0.3)
            return false
        }
    }

    /// What a failed drag's message adds: the windows' places, what the X server had at each
    /// failed try, and the last warnings the two apps printed.
    private func explanation(_ report: String, _ dossier: String, _ files: String) -> String {
        func dragLines(_ log: URL) -> String {
            let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
            return lines.filter { line in
                ["drag", "drop", "dnd", "warning", "critical"].contains { line.localizedCaseInsensitiveContains($0) }
            }.suffix(8).joined(separator: " / ")
        }
        return " (display \(ownDisplay?.name ?? "shared"); windows: Dossier \(dossier) \(geometry(dossier)), Files \(files) \(geometry(files)); "
            + "Files was \(nautilusWasRunning ? "already running" : "started by this test"); tries: \(report); "
            + "Dossier printed: \(dragLines(dossierLog)); Files printed: \(dragLines(filesLog)))"
    }

    /// The Files (Nautilus) processes of this test's D-Bus session.
    private func nautilusOfThisSession() -> [String] {
        let session = "DBUS_SESSION_BUS_ADDRESS=" + (ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "")
        return DesktopSession.run(["/usr/bin/pgrep", "-x", "nautilus"]).split(separator: "\n").map(String.init).filter { pid in
            guard let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return environ.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == session }
        }
    }

    /// A window's place and size as xdotool reports them (`X=… Y=… WIDTH=… HEIGHT=…`).
    private func geometry(_ window: String) -> [String] {
        DesktopSession.run(["/usr/bin/xdotool", "getwindowgeometry", "--shell", window])
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("WINDOW=") && !$0.hasPrefix("SCREEN=") }
    }

    /// The screen position of a node's centre. GTK 4.8 under bare Xvfb reports AT-SPI extents
    /// within the window (the window's own position is unknown to it without a window
    /// manager), so the window's place is added.
    private func centre(of name: String, inApp app: String, window: String) -> (x: Int, y: Int)? {
        guard let centre = DesktopSession.steadyCentre(of: name, inApp: app) else { return nil }
        var origin = (x: 0, y: 0)
        for line in DesktopSession.run(["/usr/bin/xdotool", "getwindowgeometry", "--shell", window]).split(separator: "\n") {
            if line.hasPrefix("X=") { origin.x = Int(line.dropFirst(2)) ?? 0 }
            if line.hasPrefix("Y=") { origin.y = Int(line.dropFirst(2)) ?? 0 }
        }
        return (origin.x + centre.x, origin.y + centre.y)
    }

    // MARK: Support

    private var binary: String {
        ProcessInfo.processInfo.environment["DOSSIER_BINARY"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.currentDirectoryPath + "/.build/debug/dossier"
    }

    private func launchDossier(at uri: String, title: String) throws -> String {
        var environment: [String: String] = [:]
        for name in ["config", "data", "cache", "state"] {
            let folder = state.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            environment["XDG_\(name.uppercased())_HOME"] = folder.path
        }
        // After earlier suites, a launch can end without its window: silently with this display
        // answering (as a launch does that hands its files to a Dossier that already owns the
        // app's name on the session bus), or crashing without its display. The cause is unknown,
        // so any owner of the name is ended first, and a launch that ends without its window is
        // made again.
        var window: String?
        var ended: [String] = []
        for _ in 0..<3 {
            DesktopSession.endBusOwner("io.github.dossier.Dossier")
            let launched = try DesktopSession.launch([binary, uri], environment: environment, output: dossierLog)
            app = launched
            _ = eventually {
                window = DesktopSession.run(["/usr/bin/xdotool", "search", "--onlyvisible", "--name", "^\(title)$"])
                    .split(separator: "\n").first.map(String.init)
                return window != nil || kill(launched.processIdentifier, 0) != 0
            }
            if window != nil { break }
            let printed = (try? String(contentsOf: dossierLog, encoding: .utf8)).map { String($0.prefix(3000)) } ?? ""
            let owner = DesktopSession.run(["/usr/bin/gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                                            "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID",
                                            "io.github.dossier.Dossier"])
            let running = kill(launched.processIdentifier, 0) == 0
            ended.append("the process \(running ? "runs" : "has ended"); the app's name on the bus: \(owner); it printed: \(printed)")
            if running { break }
        }
        if window == nil {
            let display = ProcessInfo.processInfo.environment["DISPLAY"] ?? "none"
            let answers = DesktopSession.run(["/usr/bin/xdpyinfo", "-display", display]).hasPrefix("name of display")
            XCTFail("Dossier's window shows \(title) (display \(display) \(answers ? "answers" : "does not answer")): "
                + ended.joined(separator: " | "))
        } else if !ended.isEmpty {
            print("FilesDragAndDropTests: Dossier's window came at launch \(ended.count + 1); before: " + ended.joined(separator: " | "))
        }
        return try XCTUnwrap(window)
    }

    private func showInFiles(_ path: String, title: String) throws -> String {
        // A Files of an earlier test that is still quitting would take the new window and then
        // close it: this test starts its own.
        nautilusWasRunning = !nautilusOfThisSession().isEmpty
        if nautilusWasRunning {
            DesktopSession.run(["/usr/bin/nautilus", "-q"])
            XCTAssertTrue(eventually { self.nautilusOfThisSession().isEmpty }, "the earlier Files quit")
        }
        let process = try DesktopSession.launch(["/usr/bin/nautilus", "--new-window", path], output: filesLog)
        _ = process
        nautilusStarted = true
        var window: String?
        XCTAssertTrue(eventually {
            window = DesktopSession.run(["/usr/bin/xdotool", "search", "--onlyvisible", "--class", "nautilus"])
                .split(separator: "\n").map(String.init)
                .first { DesktopSession.run(["/usr/bin/xdotool", "getwindowname", $0]).contains(title) }
            return window != nil
        }, "Files shows \(title)")
        return try XCTUnwrap(window)
    }
}
