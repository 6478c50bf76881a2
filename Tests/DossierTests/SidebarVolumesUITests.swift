import DossierFixtures
import Foundation
import XCTest

/// Mounted volumes in the sidebar, with a real GIO mount: gvfs's `localtest` backend, mounted
/// and unmounted with `gio mount` in the test's D-Bus session while Dossier runs.
final class SidebarVolumesUITests: XCTestCase {
    private var fixture: BrowserFixture!
    private var app: Process?
    private static let gvfsBackend = "/usr/libexec/gvfsd-localtest"
    private static let mountName = "localtest"
    private static let mountURI = "localtest:///"

    override func setUp() async throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "no session bus")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: Self.gvfsBackend),
                          "no gvfs localtest backend: tools/install-deps.sh installs gvfs-daemons")
        fixture = try BrowserFixture()
        // A mount left by an earlier run of this session would make the first check wrong.
        _ = gio(["mount", "-u", Self.mountURI])
    }

    override func tearDown() async throws {
        if let app, app.isRunning {
            app.terminate()
            app.waitUntilExit()
        }
        app = nil
        _ = gio(["mount", "-u", Self.mountURI])
        fixture = nil
    }

    /// Runs `gio` with this session's bus; its exit status and output.
    private func gio(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gio")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "\(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The mounts GIO's volume monitor lists in this session, as "name uri local-path".
    private func monitoredMounts() -> [String] {
        let script = """
            from gi.repository import Gio
            for mount in Gio.VolumeMonitor.get().get_mounts():
                root = mount.get_root()
                print(mount.get_name(), root.get_uri(), root.get_path() or '-')
            """
        return DesktopSession.run(["/usr/bin/python3", "-c", script]).split(separator: "\n").map(String.init)
    }

    private var isMounted: Bool {
        gio(["mount", "-l"]).output.contains("-> \(Self.mountURI)")
            || monitoredMounts().contains { $0.hasPrefix(Self.mountName + " ") }
    }

    /// The sidebar's row for the mount (a list item named after it; the path bar's button is
    /// a push button).
    private var hasRow: Bool {
        DesktopSession.accessibleNames().contains("list item: " + Self.mountName)
    }

    private func removalButton() -> String? {
        let names = DesktopSession.accessibleNames()
        return ["Unmount “\(Self.mountName)”", "Eject “\(Self.mountName)”"].first { name in names.contains { $0.hasSuffix(": " + name) } }
    }

    /// The names of the selected sidebar rows.
    private func selectedRows() -> [String] {
        let script = """
            import pyatspi
            def find(node, depth):
                try:
                    if node.name == 'Places' and node.getRoleName() == 'list': return node
                    if depth < 40:
                        for i in range(node.childCount):
                            found = find(node.getChildAtIndex(i), depth + 1)
                            if found is not None: return found
                except Exception: pass
                return None
            for application in pyatspi.Registry.getDesktop(0):
                if application is not None and application.name == 'dossier':
                    places = find(application, 0)
                    if places is None: continue
                    for i in range(places.childCount):
                        row = places.getChildAtIndex(i)
                        if row.getState().contains(pyatspi.STATE_SELECTED): print(row.name)
            """
        return DesktopSession.run(["/usr/bin/python3", "-c", script]).split(separator: "\n").map(String.init)
    }

    func testAMountAppearsLiveOpensToItsFilesAndItsButtonOrMenuOrAnotherProgramUnmountsIt() throws {
        let folder = try fixture.folder("Work")
        try Data("notes\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        app = try DesktopSession.launch([CommandRunner.binary, folder.path], environment: fixture.environment)
        XCTAssertTrue(DesktopSession.waitForAccessible("Recently Deleted"), "the window opened with its sidebar")
        XCTAssertTrue(DesktopSession.waitForAccessible("notes.txt"), "the folder is listed")
        XCTAssertFalse(hasRow, "nothing is mounted yet")
        DesktopSession.screenshot("volumes-1-before-mount")

        // Mounted while Dossier runs: the row shows up without a restart.
        let mount = gio(["mount", Self.mountURI])
        XCTAssertEqual(mount.status, 0, "gio mount \(Self.mountURI): \(mount.output)")
        XCTAssertTrue(eventually { self.isMounted }, "GIO lists the mount: \(monitoredMounts())")
        XCTAssertTrue(eventually { self.hasRow }, "the sidebar shows the mount: \(DesktopSession.accessibleNames())")
        var button: String?
        XCTAssertTrue(eventually { button = self.removalButton(); return button != nil }, "the row has an unmount or eject button")
        DesktopSession.screenshot("volumes-2-mounted")

        // Opening it: the browser lists the mount's root through GIO (localtest serves "/"),
        // whether or not gvfsd-fuse gives it a local path.
        let row = try XCTUnwrap(DesktopSession.centre(of: Self.mountName, inApp: "dossier"))
        DesktopSession.click(x: row.x, y: row.y)
        XCTAssertTrue(DesktopSession.waitForAccessible("usr"), "the mount's files are listed: \(DesktopSession.accessibleNames())")
        XCTAssertTrue(eventually { DesktopSession.windowID(named: Self.mountName) != nil }, "the window is titled after the mount")
        XCTAssertTrue(DesktopSession.accessibleNames().contains("push button: \(Self.mountName)"), "the path bar shows the mount")
        XCTAssertFalse(DesktopSession.accessibleNames().contains("push button: Computer"), "not the local file system")
        XCTAssertTrue(app?.isRunning ?? false, "Dossier is still running")
        DesktopSession.screenshot("volumes-3-opened")

        // The row's button unmounts it; the row goes at once.
        let frame = try XCTUnwrap(DesktopSession.frame(of: try XCTUnwrap(button), inApp: "dossier"))
        DesktopSession.click(x: frame.x + frame.width / 2, y: frame.y + frame.height / 2)
        XCTAssertTrue(eventually { !self.isMounted }, "GIO no longer lists the mount: \(gio(["mount", "-l"]).output)")
        XCTAssertTrue(eventually { !self.hasRow }, "the row is gone")
        XCTAssertTrue(eventually { DesktopSession.windowID(named: "Home") != nil }, "the window left the mount for Home, as Files does")
        XCTAssertEqual(selectedRows(), ["Home"], "Home is selected: no other row took over from the gone row")
        XCTAssertTrue(app?.isRunning ?? false, "Dossier is still running")
        DesktopSession.screenshot("volumes-4-unmounted-by-button")

        // Mounted again and unmounted by another program: the row comes and goes with it.
        XCTAssertEqual(gio(["mount", Self.mountURI]).status, 0)
        XCTAssertTrue(eventually { self.hasRow }, "the row is back")
        let again = try XCTUnwrap(DesktopSession.centre(of: Self.mountName, inApp: "dossier"))
        DesktopSession.click(x: again.x, y: again.y)
        XCTAssertTrue(eventually { DesktopSession.windowID(named: Self.mountName) != nil }, "the mount is shown again")
        DesktopSession.screenshot("volumes-5-mounted-again")
        XCTAssertEqual(gio(["mount", "-u", Self.mountURI]).status, 0)
        XCTAssertTrue(eventually { !self.hasRow }, "the row left with the mount")
        XCTAssertTrue(eventually { DesktopSession.windowID(named: "Home") != nil }, "and the window went Home")
        XCTAssertFalse(isMounted)
        DesktopSession.screenshot("volumes-6-unmounted-from-outside")

        // And the row's menu offers Unmount too.
        XCTAssertEqual(gio(["mount", Self.mountURI]).status, 0)
        XCTAssertTrue(eventually { self.hasRow }, "the row is back once more")
        let third = try XCTUnwrap(DesktopSession.centre(of: Self.mountName, inApp: "dossier"))
        DesktopSession.run(["/usr/bin/xdotool", "mousemove", String(third.x), String(third.y), "click", "3"])
        let entry = button?.hasPrefix("Eject") == true ? "Eject" : "Unmount"
        XCTAssertTrue(eventually { DesktopSession.menuItemRoles()[entry] != nil }, "the row's menu offers \(entry)")
        DesktopSession.screenshot("volumes-7-row-menu")
        XCTAssertTrue(DesktopSession.activate(entry))
        XCTAssertTrue(eventually { !self.isMounted }, "the menu unmounted it")
        XCTAssertTrue(eventually { !self.hasRow }, "and its row went")
    }
}
