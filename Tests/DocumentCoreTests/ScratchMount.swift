import DossierFixtures
import Foundation
import XCTest

/// A small tmpfs mounted on a fresh temporary folder: a second file system for the tests
/// that need one. Mounting needs root (or CAP_SYS_ADMIN); where it fails, `make()` returns
/// nil and the test skips, saying why.
final class ScratchMount {
    let url: URL
    private let folder: TemporaryFolder

    private init(folder: TemporaryFolder) {
        self.folder = folder
        url = folder.url
    }

    /// Mounts a 64 MiB tmpfs, or returns nil when this process may not mount.
    static func make() throws -> ScratchMount? {
        let folder = try TemporaryFolder("dossier-mount")
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=64m,mode=0755", "tmpfs", folder.url.path]) else { return nil }
        return ScratchMount(folder: folder)
    }

    /// Like `make()`, but skips the test when mounting is not possible.
    static func makeOrSkip() throws -> ScratchMount {
        guard let mount = try make() else {
            throw XCTSkip("cannot mount a tmpfs here (needs root): the simulated top-folder tests cover this logic")
        }
        return mount
    }

    deinit {
        // Lazy, so that a file a failed test left open cannot keep the mount around.
        _ = Self.run("/bin/umount", ["-l", url.path])
    }

    @discardableResult
    private static func run(_ program: String, _ arguments: [String]) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: program) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// Small file-system facts the tests assert on.
enum Inspect {
    static func status(_ url: URL) -> stat? {
        var status = stat()
        return lstat(url.path, &status) == 0 ? status : nil
    }

    static func exists(_ url: URL) -> Bool { status(url) != nil }

    static func mode(_ url: URL) -> mode_t? { status(url).map { $0.st_mode & 0o7777 } }

    static func modified(_ url: URL) -> Int? { status(url).map { Int($0.st_mtim.tv_sec) } }

    static func text(_ url: URL) -> String? {
        FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
    }

    static func linkTarget(_ url: URL) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)
    }

    /// Sets the modification and access time of `url` (not following a link).
    static func setModified(_ url: URL, _ seconds: Int) {
        let time = timespec(tv_sec: seconds, tv_nsec: 0)
        utimensat(AT_FDCWD, url.path, [time, time], AT_SYMLINK_NOFOLLOW)
    }
}
