import Foundation
import XCTest

/// Runs the real `dossier` binary, as a user or a script would, with a chosen environment.
struct CommandRunner {
    struct Result {
        let status: Int32
        let output: String
        let errors: String
    }

    /// The binary under test: `$DOSSIER_BINARY` (set by `make test`), or the one built beside
    /// the test bundle.
    static var binary: String {
        if let explicit = ProcessInfo.processInfo.environment["DOSSIER_BINARY"], !explicit.isEmpty {
            return explicit
        }
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        return bundle.appendingPathComponent("dossier").path
    }

    /// The variables every run starts from: this process's, with `overrides` applied
    /// (a nil value removes the variable).
    var environment: [String: String?] = [:]

    /// The program to run; a copy of `binary` for tests that run it as another user.
    var program: String = Self.binary

    func run(_ arguments: [String], as user: String? = nil, timeout: TimeInterval = 120) throws -> Result {
        let process = Process()
        var command = [program] + arguments
        if let user {
            // setpriv drops root to another user for the permission tests.
            command = ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"] + command
        }
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var variables = ProcessInfo.processInfo.environment
        for (key, value) in environment {
            variables[key] = value
        }
        process.environment = variables
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while the process runs so a full pipe cannot stall it.
        nonisolated(unsafe) var outputData = Data()
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            outputData = output.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            XCTFail("dossier \(arguments.joined(separator: " ")) did not finish within \(Int(timeout)) s")
            // A program it started may hold the pipes open for good (an app that `dossier open`
            // launched): its readers are left behind rather than waited for without end.
            if group.wait(timeout: .now() + 10) == .timedOut { return Result(status: -1, output: "", errors: "") }
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }

    /// Runs and decodes standard output as JSON.
    func json(_ arguments: [String]) throws -> Any {
        let result = try run(arguments)
        return try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    }
}

