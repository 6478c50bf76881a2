import DossierFixtures
import Foundation
import XCTest

/// Connecting to a real sshd from Dossier's window, with the keyboard: Connect to Server
/// (Ctrl+K), the address typed, the password answered in Dossier's dialog (and a host key,
/// where ssh asks: never for 127.0.0.1), the server in the sidebar and unmounted with its
/// button; an unreachable server's page, Retry (F5) once it is back, and a cancelled
/// password prompt's page.
final class ConnectToServerUITests: XCTestCase {
    private var server: RemoteServer?
    private var app: Process?
    private var home: TemporaryFolder!
    private var state: TemporaryFolder!

    override func setUpWithError() throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "no session bus")
        try XCTSkipUnless(ServerAccount.canStartServers, "the test servers need root")
        home = try TemporaryFolder("dossier-remote-home")
        state = try TemporaryFolder("dossier-remote-state")
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

    private var binary: String {
        ProcessInfo.processInfo.environment["DOSSIER_BINARY"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.currentDirectoryPath + "/.build/debug/dossier"
    }

    private func launch() throws {
        var environment = ["HOME": home.url.path]
        for name in ["config", "data", "cache", "state"] {
            let folder = state.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            environment["XDG_\(name.uppercased())_HOME"] = folder.path
        }
        app = try DesktopSession.launch([binary, home.url.path], environment: environment)
        XCTAssertTrue(DesktopSession.waitForAccessible("Recently Deleted"), "the window opened with its sidebar")
        // Under bare Xvfb no window manager gives the window the keyboard: xdotool does. The
        // window shows HOME, so its title is "Home" (as in Files), not the folder's name.
        var window: String?
        XCTAssertTrue(eventually { window = self.windowID(named: "Home"); return window != nil }, "the window is titled Home")
        if let window { DesktopSession.run(["/usr/bin/xdotool", "windowfocus", "--sync", window]) }
    }

    private func windowID(named name: String) -> String? {
        DesktopSession.run(["/usr/bin/xdotool", "search", "--name", "^\(name)$"]).split(separator: "\n").first.map(String.init)
    }

    /// Whether GVFS lists a mount of `server`, asked by a new `gio` process each time. Not
    /// `server.isMounted`: in this process GIO's client keeps the mount it once found in a
    /// cache, so a mount that Dossier removed still looks mounted from here.
    private func gvfsLists(_ server: RemoteServer) -> Bool {
        DesktopSession.run(["/usr/bin/gio", "mount", "-l"]).split(separator: "\n")
            .contains { $0.contains("-> ") && $0.contains("@127.0.0.1:\(server.port)/") }
    }

    private func type(_ text: String) {
        DesktopSession.run(["/usr/bin/xdotool", "type", "--delay", "30", text])
    }

    private func has(_ suffix: String) -> Bool {
        DesktopSession.accessibleNames().contains { $0.hasSuffix(": " + suffix) }
    }

    /// Answers the server's prompts as a person would: "Log In Anyway" for an unknown host key
    /// (Enter: it is the dialog's default), then the password (the focus is in its field).
    private func answerPrompts(password: String, screenshotPrefix: String) {
        var sawPassword = false
        XCTAssertTrue(eventually {
            let names = DesktopSession.accessibleNames()
            if names.contains(where: { $0.hasSuffix(": Log In Anyway") }) {
                DesktopSession.screenshot(screenshotPrefix + "-host-key")
                DesktopSession.key("Return")
                return false
            }
            sawPassword = names.contains { $0.hasSuffix(": Password") }
            return sawPassword
        }, "the password dialog came: \(DesktopSession.accessibleNames())")
        DesktopSession.screenshot(screenshotPrefix + "-password")
        type(password)
        DesktopSession.key("Return")
    }

    func testConnectToServerWithTheKeyboardShowsTheServerAndTheSidebarUnmountsIt() throws {
        let server = try RemoteServer.start(.sftp)
        self.server = server
        try server.folder.write("report.txt", "remote\n")
        server.openToServer()
        try launch()

        DesktopSession.key("ctrl+k")
        XCTAssertTrue(DesktopSession.waitForAccessible("Server Address"), "Connect to Server opened")
        XCTAssertTrue(has("Connect") && has("Cancel"))
        DesktopSession.screenshot("remote-1-connect-dialog")
        type(server.rootURI)
        DesktopSession.key("Return")
        answerPrompts(password: ServerAccount.password, screenshotPrefix: "remote-2")

        XCTAssertTrue(eventually { self.gvfsLists(server) }, "GVFS mounted the server")
        XCTAssertTrue(eventually { !self.has("Server Address") }, "the dialog closed")
        XCTAssertTrue(DesktopSession.waitForAccessible("report.txt"), "the remote folder is listed: \(DesktopSession.accessibleNames())")
        var unmount: String?
        XCTAssertTrue(eventually {
            unmount = DesktopSession.accessibleNames().first { $0.contains(": Unmount “") }.map { String($0[$0.range(of: "Unmount")!.lowerBound...]) }
            return unmount != nil
        }, "the sidebar shows the server with an unmount button")
        DesktopSession.screenshot("remote-3-mounted")

        let recents = state.url.appendingPathComponent("data/dossier/recent-servers")
        XCTAssertTrue(eventually { ((try? String(contentsOf: recents, encoding: .utf8)) ?? "").contains("127.0.0.1:\(server.port)") },
                      "the server is remembered")

        // Unmounted with the row's button.
        let button = try XCTUnwrap(DesktopSession.steadyFrame(of: try XCTUnwrap(unmount), inApp: "dossier"))
        DesktopSession.click(x: button.x + button.width / 2, y: button.y + button.height / 2)
        XCTAssertTrue(eventually { !self.gvfsLists(server) }, "the server is unmounted: \(DesktopSession.run(["/usr/bin/gio", "mount", "-l"]))")
        XCTAssertTrue(eventually { !self.has(try! XCTUnwrap(unmount)) }, "its row went")
        XCTAssertTrue(eventually { self.windowID(named: "Home") != nil },
                      "the window left the server")
        XCTAssertTrue(app?.isRunning ?? false)
    }

    func testAnUnreachableServerAndACancelledPasswordShowPagesWhoseRetryConnects() throws {
        // Nothing listens on port 1 (tcpmux) of 127.0.0.1. (Not a server started and stopped:
        // after RemoteServer ends a server, this process sometimes never sees its next child
        // exit, and the test hangs in DesktopSession.run.)
        let goneURI = "sftp://\(ServerAccount.user)@127.0.0.1:1/"
        let server = try RemoteServer.start(.sftp)
        self.server = server
        try server.folder.write("report.txt", "remote\n")
        server.openToServer()
        try launch()

        DesktopSession.key("ctrl+l")
        XCTAssertTrue(eventually { self.has("Folder or Server Address") }, "the location entry")
        DesktopSession.key("ctrl+a")
        type(goneURI)
        DesktopSession.key("Return")
        XCTAssertTrue(DesktopSession.waitForAccessible("Server Unreachable"), "the page says so: \(DesktopSession.accessibleNames())")
        XCTAssertTrue(has("Retry"))
        DesktopSession.screenshot("remote-4-unreachable")

        // A server that answers: its password cancelled, a page says it is not connected.
        DesktopSession.key("ctrl+l")
        XCTAssertTrue(eventually { self.has("Folder or Server Address") })
        DesktopSession.key("ctrl+a")
        type(server.rootURI)
        DesktopSession.key("Return")
        XCTAssertTrue(eventually { self.has("Password") || self.has("Log In Anyway") }, "the password was asked")
        if has("Log In Anyway") { DesktopSession.key("Return") }
        XCTAssertTrue(eventually { self.has("Password") })
        DesktopSession.key("Escape")
        XCTAssertTrue(DesktopSession.waitForAccessible("Not Connected"), "cancelled: \(DesktopSession.accessibleNames())")
        XCTAssertTrue(has("Retry"))
        DesktopSession.screenshot("remote-5-not-connected")

        // Retry (F5, the page's button): asked again, and connected.
        DesktopSession.key("F5")
        answerPrompts(password: ServerAccount.password, screenshotPrefix: "remote-6")
        XCTAssertTrue(eventually { self.gvfsLists(server) }, "mounted on Retry")
        XCTAssertTrue(DesktopSession.waitForAccessible("report.txt"), "and listed: \(DesktopSession.accessibleNames())")
    }
}
