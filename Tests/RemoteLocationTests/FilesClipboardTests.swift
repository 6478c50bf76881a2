import CGLib
import CGtk
import DocumentCore
@testable import DocumentUI
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest

/// The clipboard between GNOME Files (Debian's Nautilus, run under the test's display and in
/// its session, where GVFS has the server mounted) and Dossier, both ways, for a file on an
/// sftp server: what Files copies, Dossier pastes; what Dossier copies, Files pastes into the
/// server's folder. Screenshots in `.build/test-screenshots`.
final class FilesClipboardTests: XCTestCase {
    private var nautilusStarted = false

    override func setUp() async throws {
        for tool in ["/usr/bin/nautilus", "/usr/bin/xdotool", "/usr/bin/xclip", "/usr/bin/import"] {
            try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is not installed")
        }
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no display: run under `make test`")
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
    }

    override func tearDown() async throws {
        if nautilusStarted { program(["/usr/bin/nautilus", "-q"]) }
        nautilusStarted = false
    }

    func testWhatFilesCopiesOnTheServerDossierPastesAndWhatDossierCopiesFilesPastesOnTheServer() throws {
        let server = try RemoteServer.start(.sftp)
        defer { server.stop() }
        _ = try server.folder.write("Shared Docs/plan v2.odt", "plan")
        _ = try server.folder.write("Inbox/.keep", "")
        server.openToServer()
        try server.mount()

        // Files: the file selected in its folder on the server, Ctrl+C.
        let window = try showInFiles(select: server.uri("Shared Docs/plan v2.odt"), folderName: "Shared Docs")
        // No window manager under Xvfb: a click on the item gives Files the keyboard. The
        // click and the key go again until the clipboard has the file: the window may show its
        // title before its items. xclip is bounded: when this process still owns the clipboard
        // (an earlier in-process test copied), it would wait for this very thread.
        program(["/usr/bin/xdotool", "windowfocus", "--sync", window])
        var copied = ""
        XCTAssertTrue(eventually {
            program(["/usr/bin/xdotool", "mousemove", "--window", window, "336", "136", "click", "1"])
            program(["/usr/bin/xdotool", "key", "ctrl+c"])
            copied = program(["/usr/bin/timeout", "5", "/usr/bin/xclip", "-o", "-selection", "clipboard", "-t", "x-special/gnome-copied-files"])
            return copied.hasPrefix("copy\n")
        }, "Files put the file on the clipboard: \(copied); targets: "
            + program(["/usr/bin/timeout", "5", "/usr/bin/xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"]))
        screenshot("files-clipboard-1-copied-in-files")
        let content = try XCTUnwrap(ClipboardContent.gnomeCopiedFiles(copied), copied)
        XCTAssertEqual(content.urls.map(\.lastPathComponent), ["plan v2.odt"], copied)
        XCTAssertEqual(content.urls.first?.scheme, "sftp")
        // Dossier's paste: the same `place` the browser's Ctrl+V calls.
        let local = try TemporaryFolder("dossier-files-clipboard")
        let pasted = FileOperations().place(content.urls, into: local.url, move: content.cut)
        XCTAssertEqual(pasted.failures, [])
        XCTAssertEqual(try String(contentsOf: local.url.appendingPathComponent("plan v2.odt"), encoding: .utf8), "plan")

        // Dossier copies a local file; Files, showing the server's Inbox, pastes it there.
        let note = try local.write("from dossier.txt", "written here")
        let inbox = try showInFiles(open: server.uri("Inbox/"), folderName: "Inbox")
        MainActor.assumeIsolated {
            setenv("GTK_A11Y", "none", 1)
            XCTAssertTrue(Display.initialize())
            unsetenv("GTK_A11Y")
            // This thread runs GLib's default context from now on: no other thread may.
            XCTAssertNotEqual(g_main_context_acquire(nil), 0)
            defer { g_main_context_release(nil) }
            // Served from this thread's loop while Files reads it (so no xclip here: it would
            // wait for this very thread).
            FileClipboard.copy([note])
            program(["/usr/bin/xdotool", "windowfocus", "--sync", inbox])
            let arrived = server.localURL("Inbox/from dossier.txt")
            XCTAssertTrue(spin {
                if !FileManager.default.fileExists(atPath: arrived.path) {
                    program(["/usr/bin/xdotool", "mousemove", "--window", inbox, "600", "400", "click", "1"])
                    program(["/usr/bin/xdotool", "key", "ctrl+v"])
                    spin(timeout: 5) { FileManager.default.fileExists(atPath: arrived.path) }
                }
                return (try? String(contentsOf: arrived, encoding: .utf8)) == "written here"
            }, "Files pasted Dossier's file into the server's folder")
            spin(timeout: 1) { false }  // Files' view settles, for the screenshot only
        }
        screenshot("files-clipboard-2-pasted-by-files")
    }

    // MARK: Support

    /// Opens Files on `uri` (selecting it, or showing the folder) and returns its window's id
    /// once its title names `folderName`.
    private func showInFiles(select uri: String? = nil, open folder: String? = nil, folderName: String) throws -> String {
        if !nautilusStarted {
            program(["/usr/bin/nautilus"] + (uri.map { ["--select", $0] } ?? [folder ?? ""]), background: true)
            nautilusStarted = true
        } else {
            program(["/usr/bin/nautilus", "--new-window", folder ?? uri ?? ""], background: true)
        }
        var window: String?
        let found = MainActor.assumeIsolated {
            spin {
                window = program(["/usr/bin/xdotool", "search", "--onlyvisible", "--class", "nautilus"])
                    .split(separator: "\n").map(String.init)
                    .first { program(["/usr/bin/xdotool", "getwindowname", $0]).contains(folderName) }
                return window != nil
            }
        }
        XCTAssertTrue(found, "Files shows \(folderName)")
        return try XCTUnwrap(window)
    }

    private func screenshot(_ name: String) {
        let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["DOSSIER_SCREENSHOTS"] ?? NSTemporaryDirectory())
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        program(["/usr/bin/import", "-window", "root", folder.appendingPathComponent(name + ".png").path])
    }
}

/// Runs the default main context (this thread must own it, or nobody) until `condition`
/// holds or `timeout` passes, so the clipboard this process owns is served meanwhile.
@MainActor
@discardableResult
private func spin(timeout: TimeInterval = 60, until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        var rounds = 0
        while rounds < 50, g_main_context_iteration(nil, 0) != 0 { rounds += 1 }
        usleep(20_000)
    }
    return condition()
}

/// Runs a program to its end and returns what it printed (nothing when it could not run).
/// Through popen(3) and its own waitpid: Foundation's Process never saw these children end
/// once GLib had taken SIGCHLD for its child watches (xdotool stayed a zombie, the test hung).
@discardableResult
private func program(_ arguments: [String], background: Bool = false) -> String {
    let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    let command = background ? quoted + " >/dev/null 2>&1 &" : quoted + " 2>/dev/null"
    guard let pipe = popen(command, "r") else { return "" }
    var output = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, pipe)
        if count <= 0 { break }
        output.append(contentsOf: buffer[0..<count])
    }
    pclose(pipe)
    return String(decoding: output, as: UTF8.self)
}
