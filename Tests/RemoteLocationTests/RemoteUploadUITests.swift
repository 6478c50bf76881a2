import DossierFixtures
import Foundation
import XCTest

/// Upload-back in the real window on an sftp folder: Enter opens a text file in an editor that
/// takes only paths (a desktop entry with `%f`, the default for text/plain in the test's own
/// XDG folders), the editor saves its copy by rename, and Dossier offers "Upload to Server" in
/// a toast; the server then has the new bytes. A second time, the server's file changes while
/// the editor has it: the upload asks "The File on the Server Changed", and Keep Both leaves
/// both files on the server. Screenshots in `.build/test-screenshots` (remote-upload-*).
final class RemoteUploadUITests: XCTestCase {
    private var server: RemoteServer?
    private var app: Process?
    private var state: TemporaryFolder!
    private var editor: TemporaryFolder!

    override func setUpWithError() throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "no session bus")
        try XCTSkipUnless(ServerAccount.canStartServers, "the test servers need root")
        state = try TemporaryFolder("dossier-upload-state")
        editor = try TemporaryFolder("dossier-upload-editor")
    }

    override func tearDown() {
        if let app, app.isRunning {
            app.terminate()
            app.waitUntilExit()
        }
        app = nil
        server?.stop()
        server = nil
    }

    func testAnEditorsSaveIsOfferedForUploadAndAServerChangeIsAskedAbout() throws {
        let server = try RemoteServer.start(.sftp)
        self.server = server
        _ = try server.folder.write("report.txt", "version 1\n")
        server.openToServer()
        try server.mount()
        try installEditor()
        try launch(at: server.rootURI, title: server.folder.url.lastPathComponent)
        XCTAssertTrue(DesktopSession.waitForAccessible("report.txt"), "the listing shows the file")

        // Enter opens the file in the editor, which is handed a copy (it takes no URIs).
        DesktopSession.key("Right", "Return")
        var started: String?
        XCTAssertTrue(eventually { started = self.editorStarted(); return started != nil }, "the editor was started")
        let copyPath = try XCTUnwrap(started)
        XCTAssertFalse(copyPath.contains("sftp:"), "the editor got a local path: \(copyPath)")
        letEditorSave()
        XCTAssertTrue(DesktopSession.waitForAccessible("“report.txt” was changed in Test Editor"), "the toast offers the upload")
        _ = DesktopSession.screenshot("remote-upload-1-offered")
        clickUpload()
        XCTAssertTrue(eventually { (try? String(contentsOf: server.localURL("report.txt"), encoding: .utf8)) == "saved by Test Editor\n" },
                      "the server has the editor's bytes")
        // The outcome's toast lasts its 5 s: on a loaded machine a walk of the accessibility tree
        // may take as long, so it is looked at in the screenshot, not waited for.
        _ = DesktopSession.screenshot("remote-upload-2-uploaded")

        // Again, and someone changes the server's file while the editor has it.
        DesktopSession.key("Return")
        XCTAssertTrue(eventually { self.editorStarted() != nil }, "the editor was started again")
        try Data("changed on the server\n".utf8).write(to: server.localURL("report.txt"))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(120)],
                                              ofItemAtPath: server.localURL("report.txt").path)
        letEditorSave()
        XCTAssertTrue(DesktopSession.waitForAccessible("Upload to Server"), "the second save is offered too")
        clickUpload()
        XCTAssertTrue(DesktopSession.waitForAccessible("The File on the Server Changed"), "the upload asks about the server's change")
        _ = DesktopSession.screenshot("remote-upload-3-server-changed")
        XCTAssertEqual(try String(contentsOf: server.localURL("report.txt"), encoding: .utf8), "changed on the server\n",
                       "nothing is written before the answer")
        XCTAssertTrue(DesktopSession.activate("Keep Both", role: "push button"))
        XCTAssertTrue(eventually { (try? String(contentsOf: server.localURL("report (copy).txt"), encoding: .utf8)) == "saved by Test Editor\n" },
                      "Keep Both put the editor's version beside the server's")
        XCTAssertEqual(try String(contentsOf: server.localURL("report.txt"), encoding: .utf8), "changed on the server\n")
        XCTAssertTrue(DesktopSession.waitForAccessible("report (copy).txt"), "the listing shows the new file")
        _ = DesktopSession.screenshot("remote-upload-4-kept-both")
    }

    /// Clicks the toast's button where it is on screen (AdwToast does not give its button an
    /// accessible name of its own: AT-SPI finds only its label).
    private func clickUpload() {
        guard let centre = DesktopSession.steadyCentre(of: "Upload to Server", inApp: "dossier") else {
            return XCTFail("no Upload to Server button on screen: \(DesktopSession.accessibleNames())")
        }
        DesktopSession.click(x: centre.x, y: centre.y)
    }

    // MARK: The editor

    /// "Test Editor": a desktop entry taking paths only (`%f`), the default for text/plain in
    /// the app's own XDG folders. Its script tells the test which file it got, waits for the
    /// test's go, then saves as editors do (a new file renamed over the old).
    private func installEditor() throws {
        let folder = editor.url.path
        let script = try editor.write("editor.sh", """
            #!/bin/sh
            printf '%s' "$1" > '\(folder)/started.tmp' && mv '\(folder)/started.tmp' '\(folder)/started'
            while [ ! -e '\(folder)/go' ]; do sleep 0.1; done
            rm -f '\(folder)/go'
            printf 'saved by Test Editor\\n' > "$1.saving" && mv "$1.saving" "$1"
            """, mode: 0o755)
        let applications = state.url.appendingPathComponent("data/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try """
            [Desktop Entry]
            Type=Application
            Name=Test Editor
            Exec=\(script.path) %f
            MimeType=text/plain;
            """.write(to: applications.appendingPathComponent("dossier-test-editor.desktop"), atomically: true, encoding: .utf8)
        let config = state.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[Default Applications]\ntext/plain=dossier-test-editor.desktop\n"
            .write(to: config.appendingPathComponent("mimeapps.list"), atomically: true, encoding: .utf8)
    }

    /// The path the editor was last started with (and forgets it, for the next start).
    private func editorStarted() -> String? {
        let marker = editor.url.appendingPathComponent("started")
        guard let path = try? String(contentsOf: marker, encoding: .utf8) else { return nil }
        try? FileManager.default.removeItem(at: marker)
        return path
    }

    private func letEditorSave() {
        FileManager.default.createFile(atPath: editor.url.appendingPathComponent("go").path, contents: nil)
    }

    // MARK: The app

    private var binary: String {
        ProcessInfo.processInfo.environment["DOSSIER_BINARY"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.currentDirectoryPath + "/.build/debug/dossier"
    }

    private func launch(at uri: String, title: String) throws {
        var environment: [String: String] = [:]
        for name in ["config", "data", "cache", "state"] {
            let folder = state.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            environment["XDG_\(name.uppercased())_HOME"] = folder.path
        }
        app = try DesktopSession.launch([binary, uri], environment: environment)
        var window: String?
        XCTAssertTrue(eventually {
            window = DesktopSession.run(["/usr/bin/xdotool", "search", "--onlyvisible", "--name", title])
                .split(separator: "\n").first.map(String.init)
            return window != nil
        }, "the window shows \(title)")
        guard let window else { return }
        DesktopSession.run(["/usr/bin/xdotool", "windowfocus", "--sync", window])
        DesktopSession.run(["/usr/bin/xdotool", "mousemove", "--window", window, "700", "550", "click", "1"])
    }
}
