import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// Server addresses as people type them, and the list of recent servers: no server needed.
final class ServerAddressTests: XCTestCase {
    func testEverySchemeParsesWithUserPortAndFolder() throws {
        for scheme in ["sftp", "smb", "dav", "davs", "ftp", "nfs"] {
            let address = try ServerAddress(parsing: " \(scheme)://anna@files.example.org:2222/shared/Reports ")
            XCTAssertEqual(address.scheme.rawValue, scheme)
            XCTAssertEqual(address.user, "anna")
            XCTAssertEqual(address.host, "files.example.org")
            XCTAssertEqual(address.port, 2222)
            XCTAssertEqual(address.path, "/shared/Reports")
            XCTAssertEqual(address.uri, "\(scheme)://anna@files.example.org:2222/shared/Reports")
        }
    }

    func testABareHostOrUserAtHostAsksForTheProtocol() {
        for text in ["nas.local", "anna@nas.local", "nas.local:22/home"] {
            XCTAssertThrowsError(try ServerAddress(parsing: text)) { error in
                XCTAssertEqual(error as? ServerAddressError, .missingScheme(text))
                XCTAssertTrue("\(error)".contains("sftp://\(text)"), "the message shows what to type: \(error)")
            }
        }
    }

    func testOtherProtocolsEmptyHostsAndBadPortsAreRefusedInWords() {
        XCTAssertEqual(parseError("gopher://example.org/"), .unsupportedScheme("gopher"))
        XCTAssertEqual(parseError("file:///home"), .unsupportedScheme("file"))
        XCTAssertEqual(parseError("sftp:///folder"), .missingHost("sftp:///folder"))
        XCTAssertEqual(parseError("sftp://host:70000/"), .badPort("sftp://host:70000/"))
        XCTAssertEqual(parseError("   "), .empty)
        XCTAssertEqual(parseError("sftp://ho st/"), .malformed("sftp://ho st/"))
        XCTAssertEqual(parseError("sftp://host\u{7}/"), .malformed("sftp://host\u{7}/"))
        XCTAssertNotNil(parseError("sftp://" + String(repeating: "a", count: 5000)))
    }

    func testAPasswordInTheAddressIsDroppedAndAliasesMapToTheirBackend() throws {
        let address = try ServerAddress(parsing: "ssh://anna:secret@host/")
        XCTAssertEqual(address.scheme, .sftp)
        XCTAssertFalse(address.uri.contains("secret"), address.uri)
        XCTAssertEqual(address.uri, "sftp://anna@host/")
        XCTAssertEqual(try ServerAddress(parsing: "SMB://NAS/Share").uri, "smb://NAS/Share")
    }

    func testIPv6AndEncodedFoldersRoundTrip() throws {
        let address = try ServerAddress(parsing: "sftp://[::1]:2222/home/my%20files")
        XCTAssertEqual(address.host, "::1")
        XCTAssertEqual(address.path, "/home/my files")
        XCTAssertEqual(address.uri, "sftp://[::1]:2222/home/my%20files")
        XCTAssertEqual(try ServerAddress(parsing: address.uri), address)
        XCTAssertEqual(address.server.uri, "sftp://[::1]:2222/")
    }

    func testServerLocationsAreToldFromLocalOnes() {
        XCTAssertTrue(ServerAddress.isServerLocation(URL(string: "sftp://host/x")!))
        XCTAssertTrue(ServerAddress.isServerLocation(URL(string: "davs://host/")!))
        XCTAssertFalse(ServerAddress.isServerLocation(URL(fileURLWithPath: "/tmp")))
        XCTAssertFalse(ServerAddress.isServerLocation(URL(string: "trash:///")!))
    }

    func testRecentServersAreNewestFirstBoundedAndRemovable() throws {
        let folder = try TemporaryFolder()
        let directories = UserDirectories(home: folder.url, configHome: folder.url.appendingPathComponent("config"),
                                          dataHome: folder.url.appendingPathComponent("data"))
        let recents = RecentServers(directories: directories, limit: 3)
        XCTAssertEqual(recents.items(), [], "no file yet is no servers")
        let addresses = try ["sftp://a/", "smb://b/share", "dav://c/", "ftp://d/"].map { try ServerAddress(parsing: $0) }
        for address in addresses { try recents.add(address) }
        XCTAssertEqual(recents.items().map(\.uri), ["ftp://d/", "dav://c/", "smb://b/share"], "newest first, the oldest dropped")
        try recents.add(addresses[2])
        XCTAssertEqual(recents.items().map(\.uri), ["dav://c/", "ftp://d/", "smb://b/share"], "used again: first, once")
        try recents.remove(addresses[3])
        XCTAssertEqual(RecentServers(directories: directories, limit: 3).items().map(\.uri), ["dav://c/", "smb://b/share"],
                       "read back from the file")
    }

    func testARecentServersFileWithGarbageKeepsOnlyAddresses() throws {
        let folder = try TemporaryFolder()
        let directories = UserDirectories(home: folder.url, configHome: folder.url.appendingPathComponent("config"),
                                          dataHome: folder.url.appendingPathComponent("data"))
        let recents = RecentServers(directories: directories)
        try FileManager.default.createDirectory(at: recents.file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("sftp://ok/\n\u{0}\u{1}binary\nnot an address\nsftp://ok/\nsmb://b:secret@host/x\n".utf8).write(to: recents.file)
        XCTAssertEqual(recents.items().map(\.uri), ["sftp://ok/", "smb://b@host/x"])
    }

    private func parseError(_ text: String) -> ServerAddressError? {
        do {
            _ = try ServerAddress(parsing: text)
            return nil
        } catch {
            return error
        }
    }
}
