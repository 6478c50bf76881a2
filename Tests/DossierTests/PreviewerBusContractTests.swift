import DossierFixtures
import Foundation
import XCTest

/// The previewer service as each Nautilus calls it and listens to it, read from its source
/// (`src/nautilus-previewer.c`): 43.2 (Debian 12), 48.3 (Debian 13) and 51.0.1 (Debian testing).
/// One installed Dossier serves them all. The service is started by D-Bus activation, as
/// Nautilus starts it: by the first `ShowFile` (43) or by a `Peer.Ping` when Nautilus starts (48
/// on). Signals are read as Nautilus reads them, from the name's owner on the bus.
final class PreviewerBusContractTests: XCTestCase {
    private var samples: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/samples").standardized
    }

    override func setUp() async throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "no session bus")
    }

    /// Nautilus 43: `ShowFile(ssb)` starts the service; `Visible` from PropertiesChanged;
    /// `SelectionEvent(u)` when an arrow key is pressed in the previewer; `Close()`.
    func testNautilus43ShowsWithThreeArgumentsAndHearsSelectionEvents() throws {
        try withService { bus in
            let photo = samples.appendingPathComponent("photo.jpg").absoluteString
            XCTAssertEqual(bus.call("org.gnome.NautilusPreviewer2.ShowFile", photo, "x11:0", "true"), "()\n")
            XCTAssertTrue(DesktopSession.waitForAccessible("Image photo.jpg"), "the three-argument ShowFile shows the file")
            XCTAssertTrue(bus.signals.wait(for: "'Visible': <true>"), bus.signals.text)
            DesktopSession.screenshot("contract-43")
            DesktopSession.click(x: 450, y: 400)
            DesktopSession.key("Right")
            XCTAssertTrue(bus.signals.wait(for: "org.gnome.NautilusPreviewer2.SelectionEvent (uint32 5,)"), bus.signals.text)
            DesktopSession.key("Up")
            XCTAssertTrue(bus.signals.wait(for: "org.gnome.NautilusPreviewer2.SelectionEvent (uint32 2,)"), bus.signals.text)
            let items = menuItems()
            XCTAssertTrue(items.contains("Properties"), "the menu opened: \(items)")
            XCTAssertFalse(items.contains("Rename…"), "Nautilus 43 does not rename for the previewer")
            DesktopSession.key("Escape")
            XCTAssertEqual(bus.call("org.gnome.NautilusPreviewer2.Close"), "()\n")
            XCTAssertTrue(bus.signals.wait(for: "'Visible': <false>"), bus.signals.text)
        }
    }

    /// Nautilus 48: a `Peer.Ping` at its start activates the service, then `ShowFile(ssb)`
    /// with the window's handle; `ShowFile` again with the flag set closes the window.
    func testNautilus48PingsThenShowsAndTogglesTheWindow() throws {
        try withService { bus in
            XCTAssertEqual(bus.call("org.freedesktop.DBus.Peer.Ping"), "()\n", "the Ping activates the service")
            let text = samples.appendingPathComponent("notes.txt").absoluteString
            XCTAssertEqual(bus.call("org.gnome.NautilusPreviewer2.ShowFile", text, "x11:0", "true"), "()\n")
            XCTAssertTrue(DesktopSession.waitForAccessible("Text of notes.txt"))
            XCTAssertTrue(eventually { bus.property("Visible") == "(<true>,)\n" })
            XCTAssertEqual(bus.property("ParentHandle"), "(<'x11:0'>,)\n")
            XCTAssertEqual(bus.call("org.gnome.NautilusPreviewer2.ShowFile", text, "x11:0", "true"), "()\n")
            XCTAssertTrue(bus.signals.wait(for: "'Visible': <false>"), bus.signals.text)
        }
    }

    /// Nautilus 51: `ShowFile(ssbs)` with an activation token; `ParentHandle`; the menu offers
    /// what Nautilus 51 does for its previewer, and each closes the window and sends its
    /// signal: Rename… `Rename(s)`, Delete `Trash(s)`, Enter on a folder `NavigateTo(s)`.
    func testNautilus51ShowsWithATokenAndAsksNautilusToRenameTrashAndNavigate() throws {
        try withService { bus in
            XCTAssertEqual(bus.call("org.freedesktop.DBus.Peer.Ping"), "()\n")
            let photo = samples.appendingPathComponent("photo.jpg").absoluteString
            XCTAssertEqual(bus.call("org.gnome.NautilusPreviewer2.ShowFile", photo, "x11:2a00007", "false",
                                    "nautilus-1-localhost-nautilus-0_TIME0"), "()\n", "the four-argument ShowFile is accepted")
            XCTAssertTrue(DesktopSession.waitForAccessible("Image photo.jpg"))
            XCTAssertTrue(bus.signals.wait(for: "'ParentHandle': <'x11:2a00007'>"), bus.signals.text)
            XCTAssertEqual(bus.property("ParentHandle"), "(<'x11:2a00007'>,)\n")
            let items = menuItems()
            XCTAssertTrue(items.contains("Rename…") && items.contains("Move to Trash"), "\(items)")
            XCTAssertFalse(items.contains("Open Folder"), "a file is not a folder: \(items)")
            DesktopSession.screenshot("contract-51-menu")
            // Chosen in the menu, as a screen reader chooses it. (F2 is the same action; xdotool
            // types F2 as Alt+F2 with Debian testing's keymap, and Alt+F2 is not F2.)
            XCTAssertTrue(DesktopSession.activate("Rename…"), "the menu's Rename… item")
            XCTAssertTrue(bus.signals.wait(for: "org.gnome.NautilusPreviewer2.Rename ('\(photo)',)"), bus.signals.text)
            XCTAssertTrue(eventually { bus.property("Visible") == "(<false>,)\n" }, "the previewer closed for the rename")

            XCTAssertEqual(bus.call("org.gnome.NautilusPreviewer2.ShowFile", photo, "x11:0", "false", ""), "()\n")
            XCTAssertTrue(eventually { bus.property("Visible") == "(<true>,)\n" })
            DesktopSession.click(x: 450, y: 400)
            DesktopSession.key("Delete")
            XCTAssertTrue(bus.signals.wait(for: "org.gnome.NautilusPreviewer2.Trash ('\(photo)',)"), bus.signals.text)
            XCTAssertTrue(FileManager.default.fileExists(atPath: samples.appendingPathComponent("photo.jpg").path),
                          "the previewer asks; it does not trash the file itself")

            let folder = samples.appendingPathComponent("folder").absoluteString
            XCTAssertEqual(bus.call("org.gnome.NautilusPreviewer2.ShowFile", folder, "x11:0", "false", ""), "()\n")
            XCTAssertTrue(eventually(timeout: 60) {
                !DesktopSession.run(["/usr/bin/xdotool", "search", "--onlyvisible", "--name", "^folder$"]).isEmpty
            }, "the folder is shown")
            XCTAssertTrue(menuItems().contains("Open Folder"))
            DesktopSession.key("Escape")
            DesktopSession.click(x: 450, y: 400)
            DesktopSession.key("Return")
            XCTAssertTrue(bus.signals.wait(for: "org.gnome.NautilusPreviewer2.NavigateTo ('\(folder.hasSuffix("/") ? String(folder.dropLast()) : folder)"),
                          bus.signals.text)
        }
    }

    // MARK: The bus, as Nautilus sees it

    private struct PreviewerBus {
        let signals: SignalLog

        @discardableResult
        func call(_ method: String, _ arguments: String...) -> String {
            DesktopSession.run(["/usr/bin/gdbus", "call", "--session", "--dest", "org.gnome.NautilusPreviewer",
                                "--object-path", "/org/gnome/NautilusPreviewer", "--method", method] + arguments)
        }

        func property(_ name: String) -> String {
            call("org.freedesktop.DBus.Properties.Get", "org.gnome.NautilusPreviewer2", name)
        }
    }

    /// Installs Dossier as the user's previewer (activated on demand), records what the name
    /// sends, and stops the service afterwards.
    private func withService(_ body: (PreviewerBus) throws -> Void) throws {
        let install = try CommandRunner().run(["previewer-service", "--install-user"])
        XCTAssertEqual(install.status, 0, install.errors)
        let log = try SignalLog()
        defer {
            log.stop()
            DesktopSession.endBusOwner("org.gnome.NautilusPreviewer")
            _ = try? CommandRunner().run(["previewer-service", "--uninstall-user"])
        }
        try body(PreviewerBus(signals: log))
    }

    /// The labels in the previewer's menu, opened as a screen reader opens it (the menu
    /// button's click action, which GTK 4.8 does not always honour) or else with F10, its key
    /// as the window's primary menu (which GTK 4.24 takes only as far as focusing the button).
    /// Escape closes it again.
    private func menuItems() -> [String] {
        var names: [String] = []
        func opened(within seconds: TimeInterval) -> Bool {
            eventually(timeout: seconds) {
                names = DesktopSession.accessibleNames().compactMap { $0.split(separator: ":", maxSplits: 1).last.map { String($0.dropFirst()) } }
                return names.contains("Properties")
            }
        }
        // A first try, not an outcome: when GTK ignored the action (or the menu is slow to
        // show), the click below closes any late menu and F10 opens it again, waited for fully.
        if DesktopSession.activate("Menu", role: "toggle button"), opened(within: 5) { return names }
        DesktopSession.click(x: 450, y: 400)
        DesktopSession.key("F10")
        _ = opened(within: 60)
        return names
    }
}

/// `gdbus monitor` on the previewer's name: every signal and property change it sends.
private final class SignalLog: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var buffer = ""

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        process.arguments = ["monitor", "--session", "--dest", "org.gnome.NautilusPreviewer"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.buffer += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        // The monitor is listening once it has said who owns the name (or that nobody does).
        _ = eventually { !self.text.isEmpty }
    }

    var text: String { lock.withLock { buffer } }

    func wait(for fragment: String, timeout: TimeInterval = 60) -> Bool {
        eventually(timeout: timeout) { self.text.contains(fragment) }
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
