import DossierFixtures
import Foundation
import XCTest

/// The sample app, Examples/Sketchbook, driven as a user drives it under the test's Xvfb: its
/// browser (scoped to sketches, New from its template), its editor (strokes drawn with the
/// pointer, undo, autosave, a file changed by another program with and without unsaved
/// strokes), and its files in Dossier (the app's own thumbnail in the browser, its own preview
/// in the previewer, Open With handing it a note). Its files are installed into a private data
/// folder by Examples/Sketchbook/install-data.sh, as a package would install them.
final class SketchbookUITests: XCTestCase {
    private var root: TemporaryFolder!
    private var processes: [Process] = []
    /// Windows of apps that GIO started (not this test's children): their processes end with the test.
    private var windowsToClose: [String] = []

    /// The paper's colour, which only Sketchbook's drawing has (SketchDrawing.paper).
    private static let paper = "#fdf6e3"

    override func setUp() async throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "no session bus")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: Self.binary), "sketchbook is not built beside dossier")
        root = try TemporaryFolder("sketchbook-ui")
        let script = Self.sourceRoot.appendingPathComponent("Examples/Sketchbook/install-data.sh").path
        DesktopSession.run(["/bin/bash", script, share.path, Self.binary])
        XCTAssertTrue(FileManager.default.fileExists(atPath: share.appendingPathComponent("mime/mime.cache").path),
                      "the MIME type is installed")
    }

    override func tearDown() async throws {
        for window in windowsToClose {
            if let pid = Int32(DesktopSession.run(["/usr/bin/xdotool", "getwindowpid", window])
                .trimmingCharacters(in: .whitespacesAndNewlines)) {
                kill(pid, SIGTERM)
            }
        }
        for process in processes where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        processes = []
        windowsToClose = []
        root = nil
    }

    // MARK: The fixture

    static var binary: String {
        URL(fileURLWithPath: CommandRunner.binary).deletingLastPathComponent().appendingPathComponent("sketchbook").path
    }

    private static var sourceRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    private var share: URL { root.url.appendingPathComponent("share") }

    /// A private desktop: home, config, cache and data folders, and the system's data after the app's.
    private var environment: [String: String] {
        let base = root.url
        for name in ["home", "config", "cache", "data", "state"] {
            try? FileManager.default.createDirectory(at: base.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        return [
            "HOME": base.appendingPathComponent("home").path,
            "XDG_CONFIG_HOME": base.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": base.appendingPathComponent("cache").path,
            "XDG_DATA_HOME": base.appendingPathComponent("data").path,
            "XDG_STATE_HOME": base.appendingPathComponent("state").path,
            "XDG_DATA_DIRS": share.path + ":/usr/share",
        ]
    }

    /// A folder of the private home.
    private func folder(_ name: String) throws -> URL {
        let url = root.url.appendingPathComponent("home/" + name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A sketch file's text: `strokes` lines across the sheet, each its own colour.
    private static func sketch(strokes: Int) -> String {
        let inks = ["#c01c28", "#1a5fb4", "#26a269", "#a347ba"]
        let lines = (0..<strokes).map { index in
            let y = 100 + index * 120
            return "{\"color\":\"\(inks[index % inks.count])\",\"points\":[[80,\(y)],[400,\(y + 200)],[720,\(y)]],\"width\":24}"
        }
        return "SKETCHBOOK 1\n{\"height\":600,\"strokes\":[\(lines.joined(separator: ","))],\"width\":800}\n"
    }

    /// How many strokes the sketch at `url` holds now (nil while it cannot be read).
    private func strokes(in url: URL) -> Int? {
        guard let data = try? Data(contentsOf: url), let newline = data.firstIndex(of: 0x0a),
              data.starts(with: Data("SKETCHBOOK 1".utf8)),
              let object = try? JSONSerialization.jsonObject(with: data[(newline + 1)...]) as? [String: Any],
              let strokes = object["strokes"] as? [Any] else { return nil }
        return strokes.count
    }

    private func launch(_ arguments: [String], extra: [String: String] = [:]) throws {
        var variables = environment
        for (key, value) in extra { variables[key] = value }
        processes.append(try DesktopSession.launch(arguments, environment: variables))
    }

    private func waitForWindow(_ title: String) -> String? {
        var id: String?
        _ = eventually { id = DesktopSession.windowID(named: title); return id != nil }
        return id
    }

    /// The share of a screenshot's region painted in Sketchbook's paper colour (0 to 1).
    private static func paperShare(_ png: URL, x: Int, y: Int, width: Int, height: Int) -> Double {
        Double(DesktopSession.run([
            "/usr/bin/convert", png.path, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage", "-fuzz", "2%",
            "-fill", "black", "+opaque", paper, "-fill", "white", "-opaque", paper, "-colorspace", "Gray",
            "-format", "%[fx:mean]", "info:",
        ]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Draws a stroke on the canvas from one fraction of its size to another.
    private func drawStroke(from start: (Double, Double), to end: (Double, Double)) throws {
        let canvas = try XCTUnwrap(DesktopSession.steadyFrame(of: "Canvas", inApp: "sketchbook"), "the canvas is on screen")
        func point(_ fraction: (Double, Double)) -> (x: Int, y: Int) {
            (canvas.x + Int(Double(canvas.width) * fraction.0), canvas.y + Int(Double(canvas.height) * fraction.1))
        }
        DesktopSession.drag(from: point(start), to: point(end))
    }

    // MARK: The app

    func testANewSketchFromTheTemplateIsDrawnUndoneAndAutosaved() throws {
        let drawings = try folder("Drawings")
        try Self.sketch(strokes: 1).write(to: drawings.appendingPathComponent("Boat.sketch"), atomically: true, encoding: .utf8)
        try "not a drawing\n".write(to: drawings.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        try launch([Self.binary, drawings.path])
        XCTAssertNotNil(waitForWindow("Sketchbook"), "the browser window opens")

        // The browser shows sketches (and folders) only.
        var names: [String] = []
        XCTAssertTrue(eventually { names = DesktopSession.gridCells(app: "sketchbook").map(\.name); return names == ["Boat.sketch"] },
                      "only the sketch is listed: \(names)")

        // New ▸ New Document ▸ Sketch copies the app's blank sketch in and starts renaming it.
        let new = try XCTUnwrap(DesktopSession.centre(of: "New", inApp: "sketchbook"), "the header has a New menu")
        DesktopSession.click(x: new.x, y: new.y)
        XCTAssertTrue(DesktopSession.waitForAccessible("New Document", app: "sketchbook"))
        XCTAssertTrue(DesktopSession.waitForAccessible("Import…", app: "sketchbook"), "Import is offered beside it")
        XCTAssertTrue(DesktopSession.activate("New Document", inApp: "sketchbook"))
        XCTAssertTrue(eventually { DesktopSession.menuItemRoles(app: "sketchbook")["Sketch"] != nil },
                      "the submenu lists the app's template: \(DesktopSession.menuItemRoles(app: "sketchbook"))")
        DesktopSession.screenshot("sketchbook-1-new-menu")
        XCTAssertTrue(DesktopSession.activate("Sketch", inApp: "sketchbook"))
        XCTAssertTrue(DesktopSession.waitForAccessible("Rename File", app: "sketchbook"), "the new sketch's name is being edited")
        XCTAssertEqual(strokes(in: drawings.appendingPathComponent("Sketch.sketch")), 0, "a blank sketch was copied in")
        DesktopSession.run(["/usr/bin/xdotool", "type", "--delay", "40", "Harbour"])
        DesktopSession.key("Return")
        let harbour = drawings.appendingPathComponent("Harbour.sketch")
        XCTAssertTrue(eventually { FileManager.default.fileExists(atPath: harbour.path) }, "renamed, extension kept")

        // Opening it (double-click) opens the app's own editor.
        var cell: DesktopSession.GridCell?
        XCTAssertTrue(eventually { cell = DesktopSession.gridCells(app: "sketchbook").first { $0.name == "Harbour.sketch" }; return cell != nil })
        let shown = try XCTUnwrap(cell)
        DesktopSession.doubleClick(x: shown.x, y: shown.y)
        XCTAssertNotNil(waitForWindow("Harbour.sketch"), "an editor window opens on it")
        XCTAssertTrue(DesktopSession.waitForAccessible("Saved", app: "sketchbook"), "the document is open")

        // Two strokes drawn with the pointer are saved by themselves, after a quiet moment.
        try drawStroke(from: (0.2, 0.3), to: (0.8, 0.7))
        try drawStroke(from: (0.2, 0.7), to: (0.8, 0.3))
        XCTAssertTrue(eventually { self.strokes(in: harbour) == 2 }, "autosaved with both strokes: \(String(describing: strokes(in: harbour)))")
        XCTAssertTrue(DesktopSession.waitForAccessible("Saved", app: "sketchbook"))
        DesktopSession.screenshot("sketchbook-2-drawn")

        // Undo takes the last stroke away, and that is saved too.
        XCTAssertTrue(DesktopSession.activate("Undo Stroke", inApp: "sketchbook"))
        XCTAssertTrue(eventually { self.strokes(in: harbour) == 1 }, "the undo is autosaved: \(String(describing: strokes(in: harbour)))")
        XCTAssertTrue(DesktopSession.activate("Redo Stroke", inApp: "sketchbook"))
        XCTAssertTrue(eventually { self.strokes(in: harbour) == 2 }, "and so is the redo")
        DesktopSession.screenshot("sketchbook-3-undone-redone")
    }

    func testAnOutsideChangeReloadsAndWithUnsavedStrokesOffersTheChoice() throws {
        let drawings = try folder("Drawings")
        let boat = drawings.appendingPathComponent("Boat.sketch")
        try Self.sketch(strokes: 1).write(to: boat, atomically: true, encoding: .utf8)
        // No autosave during the test: the strokes drawn stay unsaved until the choice.
        try launch([Self.binary, boat.path], extra: ["SKETCHBOOK_AUTOSAVE_SECONDS": "3600"])
        XCTAssertNotNil(waitForWindow("Boat.sketch"), "the editor opens on the file")
        XCTAssertTrue(DesktopSession.waitForAccessible("Saved", app: "sketchbook"), "the document is open")

        // Another program saves over the file (as editors do, by rename): the window reloads.
        try Self.sketch(strokes: 3).write(to: boat, atomically: true, encoding: .utf8)
        XCTAssertTrue(DesktopSession.waitForAccessible("Updated from the file", app: "sketchbook"), "reloaded without asking")
        DesktopSession.screenshot("sketchbook-4-reloaded")

        // With a stroke not saved yet, another change asks: Keep Mine writes the drawing over it.
        try drawStroke(from: (0.1, 0.9), to: (0.9, 0.9))
        XCTAssertTrue(DesktopSession.waitForAccessible("Edited", app: "sketchbook"))
        try Self.sketch(strokes: 2).write(to: boat, atomically: true, encoding: .utf8)
        XCTAssertTrue(DesktopSession.waitForAccessible("Changed by another program", app: "sketchbook"), "the change is seen")
        XCTAssertTrue(DesktopSession.waitForAccessible("Keep Mine", app: "sketchbook"), "the choice is offered")
        XCTAssertTrue(DesktopSession.waitForAccessible("Use Other Version", app: "sketchbook"))
        DesktopSession.screenshot("sketchbook-5-conflict")
        XCTAssertEqual(strokes(in: boat), 2, "nothing was written over the other program's version while asking")
        XCTAssertTrue(DesktopSession.activate("Keep Mine", inApp: "sketchbook"))
        XCTAssertTrue(eventually { self.strokes(in: boat) == 4 }, "the reloaded three and the new stroke: \(String(describing: strokes(in: boat)))")

        // Again, and this time the other version wins: it stays on disk, after the window closes too.
        try drawStroke(from: (0.1, 0.1), to: (0.9, 0.1))
        XCTAssertTrue(DesktopSession.waitForAccessible("Edited", app: "sketchbook"))
        try Self.sketch(strokes: 1).write(to: boat, atomically: true, encoding: .utf8)
        XCTAssertTrue(DesktopSession.waitForAccessible("Changed by another program", app: "sketchbook"))
        XCTAssertTrue(DesktopSession.activate("Use Other Version", inApp: "sketchbook"))
        XCTAssertTrue(DesktopSession.waitForAccessible("Updated from the file", app: "sketchbook"))
        XCTAssertTrue(DesktopSession.activate("Close", inApp: "sketchbook"), "the window's close button")
        XCTAssertTrue(eventually { DesktopSession.windowID(named: "Boat.sketch") == nil }, "the window closed")
        XCTAssertEqual(strokes(in: boat), 1, "the other version is kept")
    }

    func testExportAsPNGIsTheAppsOwnActionOnTheSelectedSketch() throws {
        let drawings = try folder("Drawings")
        try Self.sketch(strokes: 2).write(to: drawings.appendingPathComponent("Boat.sketch"), atomically: true, encoding: .utf8)
        try launch([Self.binary, drawings.path])
        XCTAssertNotNil(waitForWindow("Sketchbook"))
        var cell: DesktopSession.GridCell?
        XCTAssertTrue(eventually { cell = DesktopSession.gridCells(app: "sketchbook").first { $0.name == "Boat.sketch" }; return cell != nil })
        let shown = try XCTUnwrap(cell)
        DesktopSession.click(x: shown.x, y: shown.y)
        // The action shows in the header while a sketch is selected.
        XCTAssertTrue(DesktopSession.waitForAccessible("Export as PNG", app: "sketchbook"), "the app's action is offered")
        DesktopSession.screenshot("sketchbook-9-export-action")
        XCTAssertTrue(DesktopSession.activate("Export as PNG", inApp: "sketchbook"))
        let picture = drawings.appendingPathComponent("Boat.png")
        XCTAssertTrue(eventually { ((try? Data(contentsOf: picture)) ?? Data()).count > 24 }, "the picture is written beside the sketch")
        XCTAssertTrue(DesktopSession.waitForAccessible("Exported “Boat.png”", app: "sketchbook"), "a toast says so")
        let png = try Data(contentsOf: picture)
        XCTAssertEqual([png[16..<20], png[20..<24]].map { $0.reduce(0) { $0 << 8 | Int($1) } }, [1024, 768], "1,024 pixels on its long side")
        XCTAssertEqual(DesktopSession.gridCells(app: "sketchbook").map(\.name), ["Boat.sketch"], "the browser still lists sketches only")
    }

    func testADamagedSketchOpensOnAPageThatSaysWhy() throws {
        let drawings = try folder("Drawings")
        let damaged = drawings.appendingPathComponent("Torn.sketch")
        try "SKETCHBOOK 1\n{\"height\":300,\"strokes\":[{\"co".write(to: damaged, atomically: true, encoding: .utf8)
        try launch([Self.binary, damaged.path])
        XCTAssertNotNil(waitForWindow("Torn.sketch"))
        XCTAssertTrue(DesktopSession.waitForAccessible("This Drawing Cannot Be Opened", app: "sketchbook"))
        XCTAssertTrue(DesktopSession.waitForAccessible("“Torn.sketch” cannot be opened: its drawing cannot be read.", app: "sketchbook"),
                      "the reason, in words: \(DesktopSession.accessibleNames(app: "sketchbook"))")
        DesktopSession.screenshot("sketchbook-10-damaged")
        XCTAssertTrue(DesktopSession.activate("Close", inApp: "sketchbook"))
        XCTAssertTrue(eventually { DesktopSession.windowID(named: "Torn.sketch") == nil }, "the window closes")
        XCTAssertEqual(try String(contentsOf: damaged, encoding: .utf8), "SKETCHBOOK 1\n{\"height\":300,\"strokes\":[{\"co",
                       "and the file is left as it was")
    }

    func testShowDrawsTheSketchItsRendererBeganReadingBeforeTheWindow() throws {
        let drawings = try folder("Show")
        let harbour = drawings.appendingPathComponent("Harbour.sketch")
        try Self.sketch(strokes: 3).write(to: harbour, atomically: true, encoding: .utf8)
        var variables = environment
        variables["DOSSIER_TRACE_STAGES"] = "1"
        let log = root.url.appendingPathComponent("show.log")
        let show = try DesktopSession.launch([Self.binary, "--show", harbour.path], environment: variables, output: log)
        processes.append(show)
        XCTAssertNotNil(waitForWindow("Harbour.sketch"), "the previewer opens on the sketch")
        XCTAssertTrue(DesktopSession.waitForAccessible("Drawing", app: "sketchbook"), "the app's own renderer shows it")
        var share = 0.0
        XCTAssertTrue(eventually {
            let shot = DesktopSession.screenshot("sketchbook-11-show")
            share = Self.paperShare(shot, x: 0, y: 0, width: 1280, height: 1024)
            return share > 0.2
        }, "the drawing fills the previewer (paper in \(share) of the screen)")
        // The page took the reading the renderer's prepare(_:) began while GTK started.
        let trace = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        XCTAssertTrue(trace.contains("page took prepared work"), "the page took the prepared reading:\n\(trace)")
        DesktopSession.key("Escape")
        XCTAssertTrue(eventually { !show.isRunning }, "closing the previewer ends the process")
        XCTAssertEqual(show.terminationStatus, 0)

        // A file that is not a sketch gets the previewer's error page, with the reason.
        let torn = drawings.appendingPathComponent("Torn.sketch")
        try "SKETCHBOOK 1\n{\"height\":300,\"strokes\":[{\"co".write(to: torn, atomically: true, encoding: .utf8)
        try launch([Self.binary, "--show", torn.path])
        XCTAssertNotNil(waitForWindow("Torn.sketch"))
        XCTAssertTrue(DesktopSession.waitForAccessible("“Torn.sketch” cannot be opened: its drawing cannot be read.", app: "sketchbook"),
                      "the reason, in words: \(DesktopSession.accessibleNames(app: "sketchbook"))")
        DesktopSession.screenshot("sketchbook-12-show-damaged")
    }

    // MARK: Its files in Dossier

    func testDossierShowsTheAppsOwnThumbnailAndPreview() throws {
        let drawings = try folder("Harbour Drawings")
        let harbour = drawings.appendingPathComponent("Harbour.sketch")
        try Self.sketch(strokes: 3).write(to: harbour, atomically: true, encoding: .utf8)
        try launch([CommandRunner.binary, drawings.path])
        XCTAssertNotNil(waitForWindow("Harbour Drawings"), "Dossier's browser opens on the folder")

        // The thumbnail comes from Sketchbook's thumbnailer, into the shared cache…
        let thumbnails = root.url.appendingPathComponent("cache/thumbnails")
        XCTAssertTrue(eventually {
            ["normal", "large", "x-large"].contains { size in
                !((try? FileManager.default.contentsOfDirectory(atPath: thumbnails.appendingPathComponent(size).path)) ?? []).isEmpty
            }
        }, "a thumbnail was made for the sketch")
        // …and the grid shows the app's drawing: its paper, which no icon has.
        let window = try XCTUnwrap(DesktopSession.steadyFrame(of: "Items", inApp: "dossier"), "the grid is on screen")
        var share = 0.0
        let grid = DesktopSession.steadyScreenshot("sketchbook-6-dossier-thumbnail",
                                                   region: (window.x, window.y, window.width, window.height)) { shot in
            share = Self.paperShare(shot, x: window.x, y: window.y, width: window.width, height: window.height)
            return share > 0.005
        }
        XCTAssertNotNil(grid, "the grid shows the sketch's own thumbnail (paper in \(share) of the grid)")

        // Space previews it: Dossier's previewer shows the picture Sketchbook's previewer drew.
        let cell = try XCTUnwrap(DesktopSession.gridCells().first { $0.name == "Harbour.sketch" }, "the sketch's cell")
        DesktopSession.click(x: cell.x, y: cell.y)
        DesktopSession.key("space")
        var preview: URL?
        XCTAssertTrue(eventually {
            let shot = DesktopSession.screenshot("sketchbook-7-dossier-preview")
            share = Self.paperShare(shot, x: 0, y: 0, width: 1280, height: 1024)
            preview = shot
            return share > 0.08
        }, "the previewer shows the drawing large (paper in \(share) of the screen)")
        XCTAssertNotNil(preview)
    }

    func testDossiersOpenWithStartsTheTypesOwnerWithANote() throws {
        let drawings = try folder("Drawings")
        let boat = drawings.appendingPathComponent("Boat.sketch")
        try Self.sketch(strokes: 2).write(to: boat, atomically: true, encoding: .utf8)
        // No app named: the type's owner (its default, from the app's mimeapps.list) opens it.
        // The app GIO starts outlives `dossier open` and would hold a pipe for its output open
        // (CommandRunner reads to the end): the command's output goes nowhere, its status is printed.
        let command = ["/usr/bin/env"] + environment.map { "\($0.key)=\($0.value)" } + [
            "/bin/sh", "-c", "\"$0\" open --annotation \"$1\" \"$2\" >/dev/null 2>&1; echo $?",
            CommandRunner.binary, "From the harbour trip", boat.path,
        ]
        XCTAssertEqual(DesktopSession.run(command).trimmingCharacters(in: .whitespacesAndNewlines), "0", "dossier open succeeded")
        let window = try XCTUnwrap(waitForWindow("Boat.sketch"), "Sketchbook opened the file")
        windowsToClose.append(window)
        XCTAssertTrue(DesktopSession.waitForAccessible("Note", app: "sketchbook"), "the note is shown")
        XCTAssertEqual(DesktopSession.text(of: "Note", inApp: "sketchbook"), "Sent with the note “From the harbour trip”")
        DesktopSession.screenshot("sketchbook-8-open-with-note")
    }
}
