import CGLib
import DossierFixtures
import Foundation
import XCTest

/// The fixture itself: each real server starts, GVFS mounts it in the test's session, GIO
/// lists the files the test put in its folder, and the mount goes away again.
final class RemoteServerTests: XCTestCase {
    func testSFTPServerMountsAndListsThroughGVFS() throws { try mountListUnmount(.sftp) }
    func testSMBServerMountsAndListsThroughGVFS() throws { try mountListUnmount(.smb) }
    func testWebDAVServerMountsAndListsThroughGVFS() throws { try mountListUnmount(.dav) }

    private func mountListUnmount(_ kind: RemoteServer.Kind) throws {
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
        let server = try RemoteServer.start(kind)
        defer { server.stop() }
        try server.folder.write("notes.txt", "hello from \(kind)")
        try server.folder.write("Reports/Q1 report.txt", "numbers")

        try server.mount()
        XCTAssertTrue(server.isMounted, "GVFS has no mount for \(server.rootURI)")
        XCTAssertEqual(try listNames(server.rootURI), ["Reports", "notes.txt"])
        XCTAssertEqual(try listNames(server.uri("Reports")), ["Q1 report.txt"])

        try server.unmount()
        XCTAssertFalse(server.isMounted, "\(server.rootURI) is still mounted")
    }
}

/// The names in a remote folder, sorted, read through GIO (blocking: a test's thread only).
func listNames(_ uri: String) throws -> [String] {
    let folder = g_file_new_for_uri(uri)
    defer { g_object_unref(UnsafeMutableRawPointer(folder)) }
    var error: UnsafeMutablePointer<GError>?
    guard let enumerator = g_file_enumerate_children(folder, "standard::name", GFileQueryInfoFlags(rawValue: 0), nil, &error) else {
        let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "?"
        if let error { g_error_free(error) }
        throw NSError(domain: "GIO", code: 1, userInfo: [NSLocalizedDescriptionKey: "listing \(uri): \(message)"])
    }
    defer { g_object_unref(UnsafeMutableRawPointer(enumerator)) }
    var names: [String] = []
    while let info = g_file_enumerator_next_file(enumerator, nil, nil) {
        names.append(String(cString: g_file_info_get_name(info)))
        g_object_unref(UnsafeMutableRawPointer(info))
    }
    return names.sorted()
}
