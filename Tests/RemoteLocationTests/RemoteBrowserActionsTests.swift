import DossierFixtures
import Foundation
import XCTest

/// The real `dossier` window on a server's folder, driven by the keyboard as a person would:
/// Delete on a server without a trash asks "Delete Permanently?" and deletes only once that is
/// answered, then says so in a toast, and the listing follows; F2 on each server renames the
/// item there, and the window shows its new name. What happened is checked in the served
/// folder. (Rename's undo on the servers is in `RemoteFileOperationsTests`.) Screenshots in
/// `.build/test-screenshots` (remote-browser-*, remote-rename-*).
final class RemoteBrowserActionsTests: XCTestCase {
    private var app: pid_t?
    private var server: RemoteServer?

    override func setUp() async throws {
        for tool in ["/usr/bin/xdotool", "/usr/bin/import", "/usr/bin/python3"] {
            try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is not installed")
        }
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no display: run under `make test`")
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DOSSIER_BINARY"] != nil, "no dossier binary: run under `make test`")
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
    }

    override func tearDown() {
        // Gone before the next test starts its own: a second `dossier` would hand its window
        // to this one (one instance a session).
        if let app {
            kill(app, SIGTERM)
            XCTAssertTrue(eventually { kill(app, 0) != 0 }, "dossier ended")
        }
        app = nil
        server?.stop()
        server = nil
    }

    func testDeleteOnAServerWithoutTrashAsksFirstThenDeletesForGood() throws {
        let server = try windowWithTheFirstItemSelected(.sftp, files: [("alpha.txt", "a"), ("beta.txt", "b")])
        DesktopSession.key("Delete")
        XCTAssertTrue(eventually { self.names().contains { $0.hasSuffix(": Delete Permanently?") } }, "Delete asks first: \(names())")
        Screenshots.take("remote-browser-1-delete-permanently")
        XCTAssertTrue(FileManager.default.fileExists(atPath: server.localURL("alpha.txt").path), "nothing deleted before the answer")
        DesktopSession.key("alt+d")
        XCTAssertTrue(eventually { !FileManager.default.fileExists(atPath: server.localURL("alpha.txt").path) },
                      "deleted once the dialog was answered")
        XCTAssertTrue(eventually {
            let shown = self.names()
            return shown.contains { $0.contains("“alpha.txt” deleted") }
                && !shown.contains { $0.contains("alpha.txt") && !$0.contains("deleted") }
        }, "the toast says so and the listing lost it: \(names())")
        Screenshots.take("remote-browser-2-deleted")
    }

    func testSFTPF2RenamesTheItemOnTheServer() throws { try renameWithF2(.sftp) }
    func testSMBF2RenamesTheItemOnTheServer() throws { try renameWithF2(.smb) }
    func testWebDAVF2RenamesTheItemOnTheServer() throws { try renameWithF2(.dav) }

    /// F2 on the selected item, a name typed, Enter: the server has the file under its new
    /// name, and the window shows the item so.
    private func renameWithF2(_ kind: RemoteServer.Kind) throws {
        let server = try windowWithTheFirstItemSelected(kind, files: [("draft.txt", "q3 figures"), ("zeta.txt", "z")])
        DesktopSession.key("F2")
        XCTAssertTrue(DesktopSession.waitForAccessible("Rename File"), "\(kind): the rename popover opened: \(names())")
        // The base name is selected: typing replaces "draft" and keeps ".txt".
        DesktopSession.run(["/usr/bin/xdotool", "type", "--delay", "40", "summary"])
        Screenshots.take("remote-rename-1-typed-\(kind)")
        DesktopSession.key("Return")
        let folder = { ((try? FileManager.default.contentsOfDirectory(atPath: server.folder.url.path)) ?? []).sorted() }
        XCTAssertTrue(eventually { folder() == ["summary.txt", "zeta.txt"] }, "\(kind): the server has the new name: \(folder())")
        XCTAssertEqual(try String(contentsOf: server.localURL("summary.txt"), encoding: .utf8), "q3 figures")
        XCTAssertTrue(eventually {
            let shown = self.names()
            return shown.contains { $0.hasSuffix(": summary.txt") } && !shown.contains { $0.hasSuffix(": draft.txt") }
        }, "\(kind): the item shows its new name: \(names()) (dossier still running: \(app.map { kill($0, 0) == 0 } ?? false))")
        Screenshots.take("remote-rename-2-renamed-\(kind)")
    }

    // MARK: Support

    /// Starts a `kind` server holding `files` (name, text; the first in name order first),
    /// mounts it in the session, opens Dossier's window on its root and selects the first item
    /// with the keyboard.
    private func windowWithTheFirstItemSelected(_ kind: RemoteServer.Kind, files: [(String, String)]) throws -> RemoteServer {
        let server = try RemoteServer.start(kind)
        self.server = server
        for (name, text) in files { _ = try server.folder.write(name, text) }
        server.openToServer()
        try server.mount()
        // The accessibility registry answers before the app starts, so the app registers with it.
        DesktopSession.prepareAccessibility()
        let binary = try XCTUnwrap(ProcessInfo.processInfo.environment["DOSSIER_BINARY"])
        app = OtherProgram.start(["/usr/bin/env", "GDK_BACKEND=x11", "GSK_RENDERER=cairo", binary, server.rootURI])
        XCTAssertNotNil(app, "dossier started")
        let first = try XCTUnwrap(files.first?.0)
        XCTAssertTrue(eventually { self.names().contains { $0.hasSuffix(": " + first) } }, "the window lists \(first): \(names())")
        // No window manager: a click gives the window the keyboard (under bare Xvfb it is at the
        // screen's top left: an empty place in its grid); Right selects the first item.
        DesktopSession.click(x: 700, y: 550)
        DesktopSession.key("Right")
        return server
    }

    private func names() -> [String] { DesktopSession.accessibleNames() }
}
