import DossierFixtures
import Foundation
import XCTest

/// A running `CoordinationProbe`: another process using DocumentCore, as another program would.
final class ProbeProcess {
    let process = Process()
    private let output = Pipe()
    private var buffer = Data()

    static var executable: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("CoordinationProbe").path
    }

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        process.standardOutput = output
        try process.run()
    }

    /// The next line the probe prints, or nil at its end.
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0a) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }

    /// Everything left, once the probe has ended.
    func finish() -> [String] {
        var lines: [String] = []
        while let line = readLine() { lines.append(line) }
        process.waitUntilExit()
        return lines
    }

    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
