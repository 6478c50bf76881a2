import CGLib
import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest

@testable import DocumentUI

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
        if nautilusStarted { OtherProgram.output(of: ["/usr/bin/nautilus", "-q"]) }
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
        OtherProgram.output(of: ["/usr/bin/xdotool", "windowfocus", "--sync", window])
        var copied = ""
        XCTAssertTrue(eventually {
            OtherProgram.output(of: ["/usr/bin/xdotool", "mousemove", "--window", window, "336", "136", "click", "1"])
            OtherProgram.output(of: ["/usr/bin/xdotool", "key", "ctrl+c"])
            copied = OtherProgram.output(of: ["/usr/bin/timeout", "5", "/usr/bin/xclip", "-o", "-selection", "clipboard", "-t", "x-special/gnome-copied-files"])
            return copied.hasPrefix("copy\n")
        }, "Files put the file on the clipboard: \(copied); targets: "
            + OtherProgram.output(of: ["/usr/bin/timeout", "5", "/usr/bin/xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"]))
        Screenshots.take("files-clipboard-1-copied-in-files")
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
            XCTAssertTrue(TestDisplay.initialize())
            // This thread runs GLib's default context from now on: no other thread may.
            XCTAssertNotEqual(g_main_context_acquire(nil), 0)
            defer { g_main_context_release(nil) }
            // Served from this thread's loop while Files reads it (so no xclip here: it would
            // wait for this very thread).
            FileClipboard.copy([note])
            defer {
                // Given up, so that no program started by a later test asks this process for it.
                X11Selections.giveUp("CLIPBOARD")
                XCTAssertTrue(spin { gdk_clipboard_is_local(gdk_display_get_clipboard(gdk_display_get_default())) == 0 })
            }
            OtherProgram.output(of: ["/usr/bin/xdotool", "windowfocus", "--sync", inbox])
            let arrived = server.localURL("Inbox/from dossier.txt")
            XCTAssertTrue(spin {
                if !FileManager.default.fileExists(atPath: arrived.path) {
                    OtherProgram.output(of: ["/usr/bin/xdotool", "mousemove", "--window", inbox, "600", "400", "click", "1"])
                    OtherProgram.output(of: ["/usr/bin/xdotool", "key", "ctrl+v"])
                    spin(timeout: 5) { FileManager.default.fileExists(atPath: arrived.path) }
                }
                return (try? String(contentsOf: arrived, encoding: .utf8)) == "written here"
            }, "Files pasted Dossier's file into the server's folder")
            settle(1)  // Files' view settles, for the screenshot only
        }
        Screenshots.take("files-clipboard-2-pasted-by-files")
    }

    // MARK: Support

    /// Opens Files on `uri` (selecting it, or showing the folder) and returns its window's id
    /// once its title names `folderName`.
    private func showInFiles(select uri: String? = nil, open folder: String? = nil, folderName: String) throws -> String {
        if !nautilusStarted {
            _ = OtherProgram.start(["/usr/bin/nautilus"] + (uri.map { ["--select", $0] } ?? [folder ?? ""]))
            nautilusStarted = true
        } else {
            _ = OtherProgram.start(["/usr/bin/nautilus", "--new-window", folder ?? uri ?? ""])
        }
        var window: String?
        let found = MainActor.assumeIsolated {
            spin {
                window = OtherProgram.output(of: ["/usr/bin/xdotool", "search", "--onlyvisible", "--class", "nautilus"])
                    .split(separator: "\n").map(String.init)
                    .first { OtherProgram.output(of: ["/usr/bin/xdotool", "getwindowname", $0]).contains(folderName) }
                return window != nil
            }
        }
        XCTAssertTrue(found, "Files shows \(folderName)")
        return try XCTUnwrap(window)
    }
}
