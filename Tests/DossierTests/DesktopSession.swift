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

    /// Starts a program with the display's environment.
    static func launch(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Process {
        prepareAccessibility()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["GDK_BACKEND"] = "x11"
        environment["GSK_RENDERER"] = "cairo"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
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

    /// A person's drag from one window to another, tried again until `arrived` holds: press,
    /// move in steps, linger over the target with small moves, release, then wait for the
    /// result. Each move over the target is an XDND position that the target answers with a
    /// status, and GTK drops only once the target has accepted; on a loaded machine the answer
    /// can come after the release, and GTK then cancels the drop, which changes nothing. So a
    /// drop that did not take is tried again, lingering longer each time, as a person would.
    /// The ends are looked up again before each try (a cancelled drag can leave either window
    /// scrolled). True when `arrived` held within `attempts` tries.
    static func drag(from start: () -> (x: Int, y: Int)?, to end: () -> (x: Int, y: Int)?,
                     until arrived: () -> Bool, attempts: Int = 4) -> Bool {
        for attempt in 1...attempts {
            guard let start = start(), let end = end() else { continue }
            run(["/usr/bin/xdotool", "mousemove", String(start.x), String(start.y), "mousedown", "1"])
            for step in 1...10 {
                Thread.sleep(forTimeInterval: 0.05)
                run(["/usr/bin/xdotool", "mousemove", String(start.x + (end.x - start.x) * step / 10),
                     String(start.y + (end.y - start.y) * step / 10)])
            }
            for wiggle in 0..<(4 * attempt) {
                Thread.sleep(forTimeInterval: 0.1)
                run(["/usr/bin/xdotool", "mousemove", String(end.x + wiggle % 2), String(end.y)])
            }
            run(["/usr/bin/xdotool", "mouseup", "1"])
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                if arrived() { return true }
                Thread.sleep(forTimeInterval: 0.2)
            }
            _ = screenshot("drag-attempt-\(attempt)-did-not-arrive")
        }
        return arrived()
    }

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
