import DossierFixtures
import Foundation
import XCTest

/// What a user sees and does in the test's X display: screenshots, keys, clicks, and the
/// accessibility tree (AT-SPI, read with Debian's pyatspi).
enum DesktopSession {
    static var isAvailable: Bool {
        ProcessInfo.processInfo.environment["DISPLAY"] != nil
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/import")
    }

    nonisolated(unsafe) private static var accessibilityStarted = false

    /// Starts the accessibility bus and registry before the first app of the session, and waits
    /// until the registry answers: an app started before the registry runs is not always seen
    /// in the tree.
    static func prepareAccessibility() {
        guard !accessibilityStarted else { return }
        accessibilityStarted = true
        // The desktop's number of applications: -1 (or nothing) until the registry answers.
        _ = eventually {
            (Int(run(["/usr/bin/python3", "-c", "import pyatspi\nprint(pyatspi.Registry.getDesktop(0).childCount)"])
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1) >= 0
        }
    }

    /// Starts a program with the display's environment; what it prints goes to `output` when
    /// given, else to a log of its own that a failing test prints (`LaunchedPrograms`).
    static func launch(_ arguments: [String], environment extra: [String: String] = [:], output: URL? = nil) throws -> Process {
        prepareAccessibility()
        let output = output ?? LaunchedPrograms.newLog()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["GDK_BACKEND"] = "x11"
        environment["GSK_RENDERER"] = "cairo"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let log = FileManager.default.createFile(atPath: output.path, contents: nil) ? try? FileHandle(forWritingTo: output) : nil
        process.standardOutput = log ?? FileHandle.nullDevice
        process.standardError = log ?? FileHandle.nullDevice
        try process.run()
        try? log?.close()  // the program has its own copy
        LaunchedPrograms.shared.add(process, log: output)
        return process
    }

    /// Ends the process that owns `name` on the session bus (an activated service, such as the
    /// previewer service) and waits until it has gone: a service left running keeps its window
    /// and its name for the tests after, and Nautilus drives a visible previewer with its
    /// selection. Does nothing when no one owns the name.
    static func endBusOwner(_ name: String) {
        // gdbus prints the reply as `(uint32 4242,)`.
        let reply = run(["/usr/bin/gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                         "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", name])
        guard let pid = reply.split(separator: " ").last.flatMap({ Int32($0.filter(\.isNumber)) }), pid > 0 else { return }
        kill(pid, SIGTERM)
        _ = eventually { kill(pid, 0) != 0 }
    }

    /// Runs a program to its end and returns what it printed (`OtherProgram.output(of:)`,
    /// through popen: in a test process where GLib or GVFS ran, Foundation's Process lost its
    /// children's exits).
    @discardableResult
    static func run(_ arguments: [String]) -> String {
        OtherProgram.output(of: arguments)
    }

    /// Key presses, each followed by a short pause that only paces the input: what a key does
    /// is the caller's to wait for.
    static func key(_ names: String...) {
        for name in names {
            run(["/usr/bin/xdotool", "key", name])
            Thread.sleep(forTimeInterval: 0.3)
        }
    }

    /// Under bare Xvfb there is no window manager: a click gives the window the focus.
    static func click(x: Int, y: Int) {
        run(["/usr/bin/xdotool", "mousemove", String(x), String(y), "click", "1"])
        Thread.sleep(forTimeInterval: 0.3)
    }

    static func doubleClick(x: Int, y: Int) {
        run(["/usr/bin/xdotool", "mousemove", String(x), String(y), "click", "--repeat", "2", "--delay", "80", "1"])
        Thread.sleep(forTimeInterval: 0.3)
    }

    /// A screenshot of the whole screen, kept in the test log folder.
    @discardableResult
    static func screenshot(_ name: String) -> URL {
        Screenshots.take(name)
    }

    /// Takes screenshots until two in a row show `region` alike (what is drawn there has come to
    /// rest) and `condition` holds for the last one; returns it, or nil after `timeout`. For a
    /// screenshot that is measured or compared: never taken a fixed time after the change.
    static func steadyScreenshot(_ name: String, region: (x: Int, y: Int, width: Int, height: Int),
                                 timeout: TimeInterval = 60, where condition: (URL) -> Bool = { _ in true }) -> URL? {
        let earlier = FileManager.default.temporaryDirectory.appendingPathComponent("steady-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: earlier) }
        var hasEarlier = false
        var steady: URL?
        _ = eventually(timeout: timeout) {
            let shot = screenshot(name)
            defer {
                try? FileManager.default.removeItem(at: earlier)
                hasEarlier = (try? FileManager.default.copyItem(at: shot, to: earlier)) != nil
            }
            guard hasEarlier, difference(earlier, shot, x: region.x, y: region.y, width: region.width, height: region.height) < 0.001,
                  condition(shot) else { return false }
            steady = shot
            return true
        }
        return steady
    }

    /// The standard deviation of a region's pixels (0: a flat, blank region).
    static func variation(_ png: URL, x: Int, y: Int, width: Int, height: Int) -> Double {
        Double(run(["/usr/bin/convert", png.path, "-crop", "\(width)x\(height)+\(x)+\(y)", "-colorspace", "Gray",
                    "-format", "%[fx:standard_deviation]", "info:"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// How different two screenshots are in a region (normalised RMSE, 0: the same).
    static func difference(_ a: URL, _ b: URL, x: Int, y: Int, width: Int, height: Int) -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/compare")
        let crop = "\(width)x\(height)+\(x)+\(y)"
        process.arguments = ["-metric", "RMSE", a.path + "[\(crop)]", b.path + "[\(crop)]", "null:"]
        let errors = Pipe()
        process.standardError = errors
        try? process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "1234.5 (0.0188)": the normalised value is in parentheses.
        guard let open = text.firstIndex(of: "("), let close = text.firstIndex(of: ")") else { return 0 }
        return Double(text[text.index(after: open)..<close]) ?? 0
    }

    /// pyatspi and `name_of(node)`: a node's name, or else its label's (GTK 4.18 and later name
    /// menu items and Nautilus's grid items only by a labelled-by relation to a label whose
    /// text is the name).
    private static let namePrelude = """
        import pyatspi
        def name_of(node):
            if node.name: return node.name
            try:
                for relation in node.getRelationSet():
                    if relation.getRelationType() != pyatspi.RELATION_LABELLED_BY: continue
                    for k in range(relation.getNTargets()):
                        label = relation.getTarget(k)
                        if label is None: continue
                        if label.name: return label.name
                        text = label.queryText().getText(0, -1)
                        if text: return text
            except Exception: pass
            return ''

        """

    /// Role and name of every named node in the accessibility tree of the app called `app`.
    static func accessibleNames(app: String = "dossier") -> [String] {
        let script = namePrelude + """
            def walk(node, depth):
                try:
                    name = name_of(node)
                    if name: print(node.getRoleName() + ': ' + name)
                    if depth < 30:
                        for i in range(node.childCount): walk(node.getChildAtIndex(i), depth + 1)
                except Exception: pass
            for application in pyatspi.Registry.getDesktop(0):
                if application is not None and application.name == '\(app)': walk(application, 0)
            """
        return run(["/usr/bin/python3", "-c", script]).split(separator: "\n").map(String.init)
    }

    /// The screen position of the centre of the first node named `name` in the app whose name
    /// contains `app`, from its accessible extents.
    static func centre(of name: String, inApp app: String) -> (x: Int, y: Int)? {
        frame(of: name, inApp: app).map { ($0.x + $0.width / 2, $0.y + $0.height / 2) }
    }

    /// The top-left corner and size of the first node named `name` in the app whose name
    /// contains `app`.
    static func frame(of name: String, inApp app: String) -> (x: Int, y: Int, width: Int, height: Int)? {
        let output = onNode(named: name, inAppMatching: "'\(app)' in (application.name or '').lower()", """
            box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            print(box.x, box.y, box.width, box.height)
            """)
        let parts = output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return parts.count == 4 ? (parts[0], parts[1], parts[2], parts[3]) : nil
    }

    /// The frame of the first node named `name` in the app whose name contains `app`, once it
    /// is on screen and stays put (two readings in a row alike): where to click after a layout.
    static func steadyFrame(of name: String, inApp app: String,
                            timeout: TimeInterval = 60) -> (x: Int, y: Int, width: Int, height: Int)? {
        var last: (x: Int, y: Int, width: Int, height: Int)?
        var steady: (x: Int, y: Int, width: Int, height: Int)?
        _ = eventually(timeout: timeout) {
            let now = frame(of: name, inApp: app)
            defer { last = now }
            guard let now, now.width > 0, now.height > 0, let last, last == now else { return false }
            steady = now
            return true
        }
        return steady
    }

    /// The centre of `steadyFrame(of:inApp:)`.
    static func steadyCentre(of name: String, inApp app: String) -> (x: Int, y: Int)? {
        steadyFrame(of: name, inApp: app).map { ($0.x + $0.width / 2, $0.y + $0.height / 2) }
    }

    /// Runs the first accessible action ("click") of the first node named `name` (and with
    /// `role`, when given), as a screen reader would; true when it ran. Popover items report
    /// no reliable screen position, so menus are driven this way.
    static func activate(_ name: String, role: String? = nil, inApp app: String = "dossier") -> Bool {
        let done = onNode(named: name, role: role, inAppMatching: "application.name == '\(app)'",
                          "node.queryAction().doAction(0)\nprint('done')").contains("done")
        Thread.sleep(forTimeInterval: 0.5)
        return done
    }

    /// The text of the first node named `name` (a text view's whole text, as a screen reader
    /// reads it), or nil when there is no such node.
    static func text(of name: String, inApp app: String = "dossier") -> String? {
        let output = onNode(named: name, inAppMatching: "application.name == '\(app)'", """
            text = node.queryText()
            sys.stdout.write('TEXT:' + text.getText(0, text.characterCount))
            """)
        guard let start = output.range(of: "TEXT:") else { return nil }
        return String(output[start.upperBound...])
    }

    /// Runs the Python lines `body` (indented by the caller's literal) on the first node named
    /// `name` in the first application for which `condition` holds; returns what it printed.
    private static func onNode(named name: String, role: String? = nil, inAppMatching condition: String,
                               _ body: String) -> String {
        let roleTest = role.map { " and node.getRoleName() == '\($0)'" } ?? ""
        let indentedBody = body.split(separator: "\n").map { "            " + $0 }.joined(separator: "\n")
        let script = namePrelude + """
            import sys
            def find(node, depth):
                try:
                    if name_of(node) == '\(name)'\(roleTest): return node
                    if depth < 40:
                        for i in range(node.childCount):
                            found = find(node.getChildAtIndex(i), depth + 1)
                            if found is not None: return found
                except Exception: pass
                return None
            for application in pyatspi.Registry.getDesktop(0):
                if application is not None and \(condition):
                    node = find(application, 0)
                    if node is not None:
            \(indentedBody)
                        break
            """
        return run(["/usr/bin/python3", "-c", script])
    }

    /// Presses the primary button at one point, moves in steps to another, and releases.
    static func drag(from start: (x: Int, y: Int), to end: (x: Int, y: Int)) {
        run(["/usr/bin/xdotool", "mousemove", String(start.x), String(start.y), "mousedown", "1"])
        for step in 1...5 {
            let x = start.x + (end.x - start.x) * step / 5, y = start.y + (end.y - start.y) * step / 5
            Thread.sleep(forTimeInterval: 0.05)
            run(["/usr/bin/xdotool", "mousemove", String(x), String(y)])
        }
        run(["/usr/bin/xdotool", "mouseup", "1"])
        Thread.sleep(forTimeInterval: 0.3)
    }

    /// A person's drag from one window to another, tried again until `arrived` holds: the
    /// windows raised, the pointer rested on the start, pressed, moved in steps, lingering over
    /// the target with small moves, released, then a wait for the result. Each move over the
    /// target is an XDND position that the target answers with a status, and GTK drops only once
    /// the target has accepted; on a loaded machine the answer can come after the release, and
    /// GTK then cancels the drop, which changes nothing. So a drop that did not take is tried
    /// again, lingering longer each time, as a person would. The ends are looked up again before
    /// each try (a cancelled drag can leave either window scrolled). `arrived` is true when the
    /// result came within `attempts` tries; `report` tells, for each failed try, what the X
    /// server had at the drop point (`xState(at:)`), for a failure's message.
    static func drag(from start: () -> (x: Int, y: Int)?, to end: () -> (x: Int, y: Int)?, raising windows: [String] = [],
                     until arrived: () -> Bool, attempts: Int = 4) -> (arrived: Bool, report: String) {
        var report: [String] = []
        for attempt in 1...attempts {
            for window in windows { run(["/usr/bin/xdotool", "windowraise", window]) }
            guard let start = start(), let end = end() else {
                report.append("try \(attempt): an end of the drag was not found")
                continue
            }
            run(["/usr/bin/xdotool", "mousemove", String(start.x), String(start.y)])
            let before = xState(at: start)
            Thread.sleep(forTimeInterval: 0.2)
            run(["/usr/bin/xdotool", "mousedown", "1"])
            for step in 1...20 {
                Thread.sleep(forTimeInterval: 0.04)
                run(["/usr/bin/xdotool", "mousemove", String(start.x + (end.x - start.x) * step / 20),
                     String(start.y + (end.y - start.y) * step / 20)])
            }
            for wiggle in 0..<(4 * attempt) {
                Thread.sleep(forTimeInterval: 0.1)
                run(["/usr/bin/xdotool", "mousemove", String(end.x + wiggle % 2), String(end.y)])
            }
            let during = xState(at: end)
            Thread.sleep(forTimeInterval: 0.3)
            run(["/usr/bin/xdotool", "mouseup", "1"])
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                if arrived() { return (true, report.joined(separator: " | ")) }
                Thread.sleep(forTimeInterval: 0.2)
            }
            _ = screenshot("drag-attempt-\(attempt)-did-not-arrive")
            report.append("try \(attempt) from \(start) to \(end); before the press: \(before); before the release: \(during)")
        }
        return (arrived(), report.joined(separator: " | "))
    }

    /// What the X server has at a point of the screen, for a failed drag's message: whether
    /// another client holds the pointer or the keyboard (a drag needs both), who owns the XDND
    /// selection (the drag's source, while a drag is on), the window under the pointer, and the
    /// viewable top-level windows from the top, the ones over the point starred.
    static func xState(at point: (x: Int, y: Int)) -> String {
        let pointer = run(["/usr/bin/xdotool", "getmouselocation", "--shell"])
            .split(separator: "\n").filter { $0.hasPrefix("WINDOW=") || $0.hasPrefix("X=") || $0.hasPrefix("Y=") }
            .joined(separator: " ")
        let state = run(["/usr/bin/python3", "-c", xStateScript, String(point.x), String(point.y)])
            .split(separator: "\n").joined(separator: "; ")
        return "pointer \(pointer); \(state)"
    }

    private static let xStateScript = """
        import ctypes, sys
        x = ctypes.CDLL('libX11.so.6')
        c = ctypes
        x.XOpenDisplay.restype = c.c_void_p
        x.XOpenDisplay.argtypes = [c.c_char_p]
        x.XDefaultRootWindow.restype = c.c_ulong
        x.XDefaultRootWindow.argtypes = [c.c_void_p]
        class Attrs(c.Structure):
            _fields_ = [('x', c.c_int), ('y', c.c_int), ('width', c.c_int), ('height', c.c_int),
                        ('border_width', c.c_int), ('depth', c.c_int), ('visual', c.c_void_p), ('root', c.c_ulong),
                        ('class_', c.c_int), ('bit_gravity', c.c_int), ('win_gravity', c.c_int),
                        ('backing_store', c.c_int), ('backing_planes', c.c_ulong), ('backing_pixel', c.c_ulong),
                        ('save_under', c.c_int), ('colormap', c.c_ulong), ('map_installed', c.c_int),
                        ('map_state', c.c_int), ('all_event_masks', c.c_long), ('your_event_mask', c.c_long),
                        ('do_not_propagate_mask', c.c_long), ('override_redirect', c.c_int), ('screen', c.c_void_p)]
        x.XGetWindowAttributes.argtypes = [c.c_void_p, c.c_ulong, c.POINTER(Attrs)]
        x.XQueryTree.argtypes = [c.c_void_p, c.c_ulong, c.POINTER(c.c_ulong), c.POINTER(c.c_ulong),
                                 c.POINTER(c.POINTER(c.c_ulong)), c.POINTER(c.c_uint)]
        x.XFetchName.argtypes = [c.c_void_p, c.c_ulong, c.POINTER(c.c_char_p)]
        x.XGrabPointer.argtypes = [c.c_void_p, c.c_ulong, c.c_int, c.c_uint, c.c_int, c.c_int, c.c_ulong, c.c_ulong, c.c_ulong]
        x.XGrabKeyboard.argtypes = [c.c_void_p, c.c_ulong, c.c_int, c.c_int, c.c_int, c.c_ulong]
        x.XUngrabPointer.argtypes = [c.c_void_p, c.c_ulong]
        x.XUngrabKeyboard.argtypes = [c.c_void_p, c.c_ulong]
        x.XSync.argtypes = [c.c_void_p, c.c_int]
        x.XInternAtom.restype = c.c_ulong
        x.XInternAtom.argtypes = [c.c_void_p, c.c_char_p, c.c_int]
        x.XGetSelectionOwner.restype = c.c_ulong
        x.XGetSelectionOwner.argtypes = [c.c_void_p, c.c_ulong]
        d = x.XOpenDisplay(None)
        if not d:
            print('no display'); sys.exit(0)
        root = x.XDefaultRootWindow(d)
        said = {0: 'free', 1: 'held by a client', 2: 'invalid time', 3: 'frozen', 4: 'not viewable'}
        owner = x.XGetSelectionOwner(d, x.XInternAtom(d, b'XdndSelection', 0))
        p = x.XGrabPointer(d, root, 0, 0, 1, 1, 0, 0, 0)
        if p == 0: x.XUngrabPointer(d, 0)
        k = x.XGrabKeyboard(d, root, 0, 1, 1, 0)
        if k == 0: x.XUngrabKeyboard(d, 0)
        x.XSync(d, 0)
        print('pointer grab %s, keyboard grab %s, XdndSelection owner %s' % (said.get(p, p), said.get(k, k), hex(owner) if owner else 'none'))
        px, py = int(sys.argv[1]), int(sys.argv[2])
        r, pa, children, n = c.c_ulong(), c.c_ulong(), c.POINTER(c.c_ulong)(), c.c_uint()
        x.XQueryTree(d, root, c.byref(r), c.byref(pa), c.byref(children), c.byref(n))
        shown = []
        for i in reversed(range(n.value)):
            a = Attrs()
            if not x.XGetWindowAttributes(d, children[i], c.byref(a)) or a.map_state != 2: continue
            name = c.c_char_p()
            x.XFetchName(d, children[i], c.byref(name))
            over = a.x <= px < a.x + a.width and a.y <= py < a.y + a.height
            shown.append('%s%s "%s" %dx%d+%d+%d%s' % ('*' if over else '', hex(children[i]),
                         (name.value or b'').decode('utf-8', 'replace'), a.width, a.height, a.x, a.y,
                         ' override-redirect' if a.override_redirect else ''))
        print('viewable windows from the top: ' + ', '.join(shown[:10]))
        """

    /// Waits until a node named `name` is in the tree of the app called `app` (or `timeout` passes).
    @discardableResult
    static func waitForAccessible(_ name: String, app: String = "dossier", timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if accessibleNames(app: app).contains(where: { $0.contains(": " + name) }) { return true }
            Thread.sleep(forTimeInterval: 0.3)
        }
        return false
    }
}

/// An X display of a test's own (Xvfb at 1280×1024, the number Xvfb picks), for a test whose
/// pointer drags must not meet what earlier tests left on the shared display: their windows, a
/// grab, a drag under way. While it is open, `DesktopSession`'s programs, input, accessibility
/// lookups and screenshots go to it (`DISPLAY` is this process's); `close()` ends it and gives
/// the shared display back.
final class OwnDisplay {
    /// The display's name, `:N`.
    let name: String
    private let server: Process
    private let previous: String?

    init() throws {
        server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        server.arguments = ["-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"]
        let announced = Pipe()
        server.standardOutput = announced
        server.standardError = FileHandle.nullDevice
        try server.run()
        // Xvfb writes the display's number once it takes connections, and nothing if it fails.
        let number = String(decoding: announced.fileHandleForReading.availableData, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard Int(number) != nil else {
            server.terminate()
            throw OwnDisplayError.didNotStart
        }
        name = ":" + number
        previous = ProcessInfo.processInfo.environment["DISPLAY"]
        setenv("DISPLAY", name, 1)
    }

    /// Ends the display (once the programs on it have ended) and makes the shared one current again.
    func close() {
        if let previous { setenv("DISPLAY", previous, 1) } else { unsetenv("DISPLAY") }
        let lock = "/tmp/.X\(name.dropFirst())-lock"
        kill(server.processIdentifier, SIGTERM)
        _ = eventually(timeout: 30) { !FileManager.default.fileExists(atPath: lock) }
    }
}

enum OwnDisplayError: Error {
    case didNotStart
}

/// The programs the running test launched, each with the file its output went to. When a
/// test fails, each is reported (running, or how it ended) with the end of its output, so
/// that a failure in CI says whether the app had crashed; when a test ends, the logs go.
final class LaunchedPrograms: NSObject, XCTestObservation, @unchecked Sendable {
    static let shared: LaunchedPrograms = {
        let programs = LaunchedPrograms()
        XCTestObservationCenter.shared.addTestObserver(programs)
        return programs
    }()

    private let lock = NSLock()
    private var programs: [(process: Process, log: URL)] = []

    /// A new, empty file for a program's output.
    static func newLog() -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-ui-logs")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("\(UUID().uuidString).log")
    }

    func add(_ process: Process, log: URL) {
        lock.withLock { programs.append((process, log)) }
    }

    func testCase(_ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?, atLine lineNumber: Int) {
        for (process, log) in lock.withLock({ programs }) {
            let name = process.executableURL?.lastPathComponent ?? "?"
            let state: String
            if process.isRunning {
                state = "is running"
            } else if process.terminationReason == .uncaughtSignal {
                state = "ended on signal \(process.terminationStatus)"
            } else {
                state = "exited with status \(process.terminationStatus)"
            }
            let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            print("[\(name) \(process.processIdentifier) \(state); the end of its output:]")
            print(lines.suffix(30).joined(separator: "\n"))
        }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        let finished = lock.withLock {
            defer { programs.removeAll() }
            return programs
        }
        // A log of a program a test left running stays (it may still write to it).
        for (process, log) in finished where !process.isRunning { try? FileManager.default.removeItem(at: log) }
    }
}
