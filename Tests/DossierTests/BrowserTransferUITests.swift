import DossierFixtures
import Foundation
import XCTest

/// Files coming into and going out of a real `dossier DIR` window under the test's display:
/// a large paste with its progress and Cancel, Import… through the file chooser, and drag and
/// drop with another X client (a small GTK 4 program, `DragPeer`) over the real X drag
/// protocol, driven by xdotool. Screenshots in `.build/test-screenshots`.
final class BrowserTransferUITests: XCTestCase {
    private var fixture: BrowserFixture!
    private var app: Process?
    private var helpers: [Process] = []

    override func setUp() async throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "no session bus")
        fixture = try BrowserFixture()
    }

    override func tearDown() async throws {
        for process in helpers + [app].compactMap({ $0 }) where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        helpers = []
        app = nil
        fixture = nil
    }

    private func open(_ folder: URL, showing item: String) throws {
        app = try DesktopSession.launch([CommandRunner.binary, folder.path], environment: fixture.environment)
        XCTAssertTrue(DesktopSession.waitForAccessible(folder.lastPathComponent), "the window opened")
        DesktopSession.click(x: 640, y: 500)
        XCTAssertTrue(DesktopSession.waitForAccessible(item), "\(item) is shown")
    }

    private func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    private func size(_ url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? -1
    }

    // MARK: Progress

    func testPastingALargeFileShowsProgressAndCancelKeepsTheSourceAndRemovesThePartialCopy() throws {
        let source = try fixture.folder("Big Source")
        let target = try fixture.folder("Big Target")
        let big = source.appendingPathComponent("disk-image.bin")
        // 8 GiB, sparse: nothing written, but a copy reads and writes every byte. Large enough
        // that the copy is still running when Cancel is pressed a few seconds in, on a fast
        // idle machine too: 2 GiB of zeros were once all copied first (page cache at memory
        // speed up to the kernel's dirty limit); past that limit the disk sets the pace.
        FileManager.default.createFile(atPath: big.path, contents: nil)
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 8 << 30)
        try handle.close()
        try Data("x\n".utf8).write(to: target.appendingPathComponent("existing.txt"))
        try open(target, showing: "existing.txt")

        // The clipboard holds the file as Files puts it there; Ctrl+V in the window pastes it.
        try serveClipboard("copy\n" + big.absoluteString)
        DesktopSession.click(x: 640, y: 600)
        DesktopSession.key("ctrl+v")
        let copy = target.appendingPathComponent("disk-image.bin")
        XCTAssertTrue(eventually { self.exists(copy) }, "the copy started")
        XCTAssertTrue(eventually { (DesktopSession.frame(of: "File Operations", inApp: "dossier")?.width ?? 0) > 0 },
                      "the header shows the operations button while it runs")
        let button = try XCTUnwrap(DesktopSession.centre(of: "File Operations", inApp: "dossier"))
        DesktopSession.click(x: button.x, y: button.y)
        XCTAssertTrue(DesktopSession.waitForAccessible("Cancel Copying 1 item"), "the popover lists the copy with Cancel")
        Thread.sleep(forTimeInterval: 0.5)  // the popover drawn, for the screenshot only
        DesktopSession.screenshot("transfer-1-progress")
        XCTAssertTrue(eventually(timeout: 60) { self.size(copy) > 0 }, "bytes are being copied")
        XCTAssertLessThan(size(copy), 8 << 30, "still copying when cancelled")

        XCTAssertTrue(DesktopSession.activate("Cancel Copying 1 item"), "Cancel pressed")
        XCTAssertTrue(eventually(timeout: 60) { !self.exists(copy) }, "the partial copy is removed")
        XCTAssertTrue(DesktopSession.waitForAccessible("Cancelled"), "the row (and a toast) say it was cancelled")
        DesktopSession.screenshot("transfer-2-cancelled")
        XCTAssertEqual(size(big), 8 << 30, "the source is untouched")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: target.path), ["existing.txt"], "nothing else left")
    }

    /// Owns the X clipboard with `text` as `x-special/gnome-copied-files` (xclip, in the foreground).
    private func serveClipboard(_ text: String) throws {
        let xclip = Process()
        xclip.executableURL = URL(fileURLWithPath: "/usr/bin/xclip")
        xclip.arguments = ["-quiet", "-selection", "clipboard", "-t", "x-special/gnome-copied-files", "-i"]
        let input = Pipe()
        xclip.standardInput = input
        xclip.standardOutput = FileHandle.nullDevice
        xclip.standardError = FileHandle.nullDevice
        try xclip.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        helpers.append(xclip)
        // It owns the clipboard once another client can read what it offers.
        XCTAssertTrue(eventually(timeout: 60) {
            DesktopSession.run(["/usr/bin/xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"])
                .contains("x-special/gnome-copied-files")
        }, "xclip holds the clipboard")
    }

    // MARK: Import

    func testImportCopiesTheFileChosenInTheFileChooser() throws {
        let outside = try fixture.folder("Outside")
        let chosen = outside.appendingPathComponent("minutes.txt")
        try Data("minutes\n".utf8).write(to: chosen)
        let target = try fixture.folder("Imports")
        try Data("x\n".utf8).write(to: target.appendingPathComponent("existing.txt"))
        try open(target, showing: "existing.txt")

        let new = try XCTUnwrap(DesktopSession.centre(of: "New", inApp: "dossier"), "the header has a New menu")
        DesktopSession.click(x: new.x, y: new.y)
        XCTAssertTrue(DesktopSession.waitForAccessible("Import…"))
        XCTAssertTrue(DesktopSession.activate("Import…"))
        // No portal in the test session: GtkFileChooserNative shows GTK's own dialog.
        XCTAssertTrue(DesktopSession.waitForAccessible("Import Files"), "the file chooser opened")
        XCTAssertTrue(DesktopSession.waitForAccessible("Import by"), "with the copy-or-move choice")
        Thread.sleep(forTimeInterval: 0.5)  // the dialog drawn, for the screenshot only
        DesktopSession.screenshot("transfer-3-import-chooser")
        if let dialog = DesktopSession.frame(of: "Import Files", inApp: "dossier") {
            DesktopSession.click(x: dialog.x + dialog.width / 2, y: dialog.y + 20)
        }
        DesktopSession.key("ctrl+l")
        DesktopSession.run(["/usr/bin/xdotool", "type", "--delay", "30", chosen.path])
        Thread.sleep(forTimeInterval: 0.5)  // the typed path drawn, for the screenshot only
        DesktopSession.screenshot("transfer-4-import-typed")
        DesktopSession.key("Return")
        let imported = target.appendingPathComponent("minutes.txt")
        XCTAssertTrue(eventually { self.exists(imported) }, "the chosen file was copied in")
        // Written in place: the name is there before all of the text.
        XCTAssertTrue(eventually(timeout: 60) { (try? String(contentsOf: imported, encoding: .utf8)) == "minutes\n" },
                      "with the file's text: \((try? String(contentsOf: imported, encoding: .utf8)) ?? "unreadable")")
        XCTAssertTrue(DesktopSession.waitForAccessible("“minutes.txt” copied"), "a toast says so")
        XCTAssertTrue(exists(chosen), "copied, not moved")
        XCTAssertTrue(eventually { DesktopSession.gridCells().first { $0.name == "minutes.txt" }?.selected == true },
                      "and it is selected")
        DesktopSession.screenshot("transfer-5-imported")
    }

    // MARK: Drag and drop with another app

    func testFilesDroppedFromAnotherAppAreCopiedMovedWithShiftAndPutIntoAFolderItem() throws {
        let outside = try fixture.folder("Elsewhere")
        let first = outside.appendingPathComponent("dropped.txt")
        let second = outside.appendingPathComponent("moved.txt")
        let third = outside.appendingPathComponent("filed.txt")
        for file in [first, second, third] { try Data(file.lastPathComponent.utf8).write(to: file) }
        let target = try fixture.folder("Drops")
        let inbox = target.appendingPathComponent("Inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try Data("x\n".utf8).write(to: target.appendingPathComponent("existing.txt"))
        try open(target, showing: "existing.txt")
        let window = try XCTUnwrap(DesktopSession.windowID(named: "Drops"))
        DesktopSession.run(["/usr/bin/xdotool", "windowsize", "--sync", window, "700", "600"])
        DesktopSession.run(["/usr/bin/xdotool", "windowmove", "--sync", window, "0", "0"])

        // A drop on the grid's background copies into the folder shown.
        let peer = try DragPeer(source: [first], in: fixture)
        helpers.append(peer.process)
        let items = try XCTUnwrap(DesktopSession.frame(of: "Items", inApp: "dossier"))
        // Beside the items, above where toasts come.
        let background = (x: items.x + items.width - 40, y: items.y + items.height / 2)
        DesktopSession.screenshot("transfer-6-drag-peer")
        slowDrag(from: peer.centre, to: background)
        XCTAssertTrue(eventually { self.exists(target.appendingPathComponent("dropped.txt")) }, "the drop copied the file in")
        XCTAssertTrue(exists(first), "a copy: the original stays")
        XCTAssertTrue(DesktopSession.waitForAccessible("“dropped.txt” copied"))
        DesktopSession.screenshot("transfer-7-dropped")
        peer.process.terminate()
        peer.process.waitUntilExit()

        // With Shift held, the drop moves.
        let mover = try DragPeer(source: [second], in: fixture)
        helpers.append(mover.process)
        slowDrag(from: mover.centre, to: background, holding: "shift")
        XCTAssertTrue(eventually(timeout: 60) { mover.log.contains("end ") }, "the drag ended: \(mover.log)")
        XCTAssertTrue(mover.log.contains("end <flags GDK_ACTION_MOVE"), "the drop took the move: \(mover.log)")
        XCTAssertTrue(eventually { self.exists(target.appendingPathComponent("moved.txt")) }, "the Shift drop brought it in")
        XCTAssertTrue(eventually { !self.exists(second) }, "and moved it: the original is gone")
        mover.process.terminate()
        mover.process.waitUntilExit()

        // On a folder item: into that folder.
        let filer = try DragPeer(source: [third], in: fixture)
        helpers.append(filer.process)
        let folderCell = try XCTUnwrap(DesktopSession.gridCells().first { $0.name == "Inbox" }, "the Inbox folder is shown")
        slowDrag(from: filer.centre, to: (folderCell.x, folderCell.y))
        XCTAssertTrue(eventually { self.exists(inbox.appendingPathComponent("filed.txt")) }, "dropped on Inbox: it went in there")
        XCTAssertFalse(exists(target.appendingPathComponent("filed.txt")), "not beside it")
        XCTAssertTrue(exists(third), "copied")
        DesktopSession.screenshot("transfer-8-into-folder")
    }

    func testDraggingAnItemOutOffersAURIListToAnotherApp() throws {
        let folder = try fixture.folder("Outbound")
        let file = folder.appendingPathComponent("report.txt")
        try Data("report\n".utf8).write(to: file)
        try open(folder, showing: "report.txt")
        let window = try XCTUnwrap(DesktopSession.windowID(named: "Outbound"))
        DesktopSession.run(["/usr/bin/xdotool", "windowsize", "--sync", window, "700", "600"])
        DesktopSession.run(["/usr/bin/xdotool", "windowmove", "--sync", window, "0", "0"])
        let peer = try DragPeer(target: fixture)
        helpers.append(peer.process)
        let cell = try XCTUnwrap(DesktopSession.gridCells().first { $0.name == "report.txt" })
        slowDrag(from: (cell.x, cell.y - 20), to: peer.centre)
        XCTAssertTrue(eventually { peer.log.contains("files ") }, "the other app received a drop: \(peer.log)")
        let log = peer.log
        XCTAssertTrue(log.contains("text/uri-list"), "offered as text/uri-list: \(log)")
        XCTAssertTrue(log.contains("files " + file.absoluteString), "the file's own URI: \(log)")
        XCTAssertTrue(exists(file), "a copy to the other app: the file stays")
        DesktopSession.screenshot("transfer-9-dragged-out")
    }

    /// Presses at `start`, moves to `end` in small steps (each a motion the X drag protocol
    /// answers), waits over the target, and releases — with `key` held down, if given. The
    /// pauses pace the input as a hand would; what the drop does, the caller waits for.
    private func slowDrag(from start: (x: Int, y: Int), to end: (x: Int, y: Int), holding key: String? = nil) {
        DesktopSession.run(["/usr/bin/xdotool", "mousemove", String(start.x), String(start.y)])
        Thread.sleep(forTimeInterval: 0.2)
        if let key { DesktopSession.run(["/usr/bin/xdotool", "keydown", key]) }
        DesktopSession.run(["/usr/bin/xdotool", "mousedown", "1"])
        for step in 1...20 {
            let x = start.x + (end.x - start.x) * step / 20, y = start.y + (end.y - start.y) * step / 20
            Thread.sleep(forTimeInterval: 0.04)
            DesktopSession.run(["/usr/bin/xdotool", "mousemove", String(x), String(y)])
        }
        for wiggle in [2, -2, 0] {
            Thread.sleep(forTimeInterval: 0.1)
            DesktopSession.run(["/usr/bin/xdotool", "mousemove", String(end.x + wiggle), String(end.y)])
        }
        Thread.sleep(forTimeInterval: 0.3)
        DesktopSession.run(["/usr/bin/xdotool", "mouseup", "1"])
        if let key { DesktopSession.run(["/usr/bin/xdotool", "keyup", key]) }
        Thread.sleep(forTimeInterval: 0.5)
    }
}

/// Another app for drag and drop: a GTK 4 window (Python, PyGObject) at the right of the
/// screen that either offers files as `text/uri-list` to drag from it, or takes drops of
/// files and logs the formats offered and the URIs received.
struct DragPeer {
    let process: Process
    let logFile: URL
    /// The middle of its window.
    let centre = (x: 1000, y: 150)

    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    init(source files: [URL], in fixture: BrowserFixture) throws {
        try self.init(mode: "source", uris: files.map(\.absoluteString), fixture: fixture)
    }

    init(target fixture: BrowserFixture) throws {
        try self.init(mode: "target", uris: [], fixture: fixture)
    }

    private init(mode: String, uris: [String], fixture: BrowserFixture) throws {
        let script = fixture.root.url.appendingPathComponent("drag-peer.py")
        try Data(Self.script.utf8).write(to: script)
        logFile = fixture.root.url.appendingPathComponent("drag-peer-\(mode)-\(UUID().uuidString).log")
        process = try DesktopSession.launch(["/usr/bin/python3", script.path, mode, logFile.path] + uris,
                                            environment: ["NO_AT_BRIDGE": "1", "GTK_A11Y": "none"])
        let file = logFile
        XCTAssertTrue(eventually(timeout: 60) {
            ((try? String(contentsOf: file, encoding: .utf8)) ?? "").contains("ready")
        }, "the drag peer started")
        let window = DesktopSession.windowID(named: "Drag Peer")
        XCTAssertNotNil(window, "the drag peer's window")
        DesktopSession.run(["/usr/bin/xdotool", "windowmove", "--sync", window ?? "", "850", "0"])
        // The X drag protocol gives the peer screen positions, which GTK places by where it
        // thinks its window is: wait until it has taken the move. Its events come in order, so
        // once a motion of the pointer moved in afterwards has reached it, so has the move.
        func motions() -> Int { ((try? String(contentsOf: file, encoding: .utf8)) ?? "").components(separatedBy: "pointer at").count }
        let before = motions()
        DesktopSession.run(["/usr/bin/xdotool", "mousemove", "1270", "1010"])
        DesktopSession.run(["/usr/bin/xdotool", "mousemove", String(centre.x), String(centre.y)])
        XCTAssertTrue(eventually(timeout: 60) { motions() > before }, "the drag peer is in its place")
    }

    static let script = """
        import sys, gi
        gi.require_version('Gtk', '4.0')
        gi.require_version('Gdk', '4.0')
        from gi.repository import Gtk, Gdk, GLib, Gio
        mode, log, uris = sys.argv[1], sys.argv[2], sys.argv[3:]
        def note(text):
            with open(log, 'a') as f: f.write(text + '\\n')
        def prepare(source, x, y):
            data = ''.join(uri + '\\r\\n' for uri in uris).encode()
            return Gdk.ContentProvider.new_for_bytes('text/uri-list', GLib.Bytes.new(data))
        def dropped(target, value, x, y):
            note('formats ' + target.get_current_drop().get_formats().to_string())
            note('files ' + ' '.join(f.get_uri() for f in value.get_files()))
            return True
        def activate(app):
            window = Gtk.ApplicationWindow(application=app, title='Drag Peer')
            window.set_default_size(300, 300)
            label = Gtk.Label(label='Drag from here' if mode == 'source' else 'Drop here')
            window.set_child(label)
            if mode == 'source':
                source = Gtk.DragSource(actions=Gdk.DragAction.COPY | Gdk.DragAction.MOVE)
                source.connect('prepare', prepare)
                source.connect('drag-begin', lambda s, d: note('begin'))
                source.connect('drag-end', lambda s, d, delete: note('end %s' % d.get_selected_action()))
                label.add_controller(source)
            else:
                target = Gtk.DropTarget.new(Gdk.FileList, Gdk.DragAction.COPY)
                target.connect('drop', dropped)
                label.add_controller(target)
            pointer = Gtk.EventControllerMotion()
            pointer.connect('motion', lambda c, x, y: note('pointer at %d %d' % (x, y)))
            window.add_controller(pointer)
            window.present()
            GLib.timeout_add(300, lambda: note('ready'))
        app = Gtk.Application(flags=Gio.ApplicationFlags.NON_UNIQUE)
        app.connect('activate', activate)
        app.run([])
        """
}
