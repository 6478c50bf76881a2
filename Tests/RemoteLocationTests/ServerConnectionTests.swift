import CGLib
import DocumentCore
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest

/// DocumentCore's mount API against a real sshd on 127.0.0.1 through the session's real GVFS:
/// the right password, a wrong one (asked again, then a clear error), a cancelled prompt, a
/// port nothing listens on, and unmounting. (No host-key question: GVFS runs ssh with
/// NoHostAuthenticationForLocalhost, and ssh never asks about a loopback address.)
final class ServerConnectionTests: XCTestCase {
    private var server: RemoteServer?

    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "no session bus: run under make test-swift")
        try XCTSkipUnless(ServerAccount.canStartServers, "the test servers need root")
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func startSFTP() throws -> RemoteServer {
        let server = try RemoteServer.start(.sftp)
        self.server = server
        try server.folder.write("hello.txt", "hello\n")
        server.openToServer()
        return server
    }

    func testTheRightPasswordMountsAndAMountedServerIsSuccessAgainThenItUnmounts() throws {
        let server = try startSFTP()
        try MainActor.assumeIsolated {
            try Scenarios.theRightPasswordMountsAndAMountedServerIsSuccessAgainThenItUnmounts(server)
        }
    }

    func testAWrongPasswordIsAskedAgainAndEndsOnWrongPasswordAfterTheLastTry() throws {
        let server = try startSFTP()
        try MainActor.assumeIsolated {
            try Scenarios.aWrongPasswordIsAskedAgainAndEndsOnWrongPasswordAfterTheLastTry(server)
        }
    }

    func testGivingUpAfterAWrongPasswordIsAWrongPasswordAndCancellingTheFirstPromptIsNot() throws {
        let server = try startSFTP()
        try MainActor.assumeIsolated {
            try Scenarios.givingUpAfterAWrongPasswordIsAWrongPasswordAndCancellingTheFirstPromptIsNot(server)
        }
    }

    func testAPortNothingListensOnIsUnreachable() throws {
        let server = try startSFTP()
        try MainActor.assumeIsolated {
            try Scenarios.aPortNothingListensOnIsUnreachable(server)
        }
    }

    func testCancellingTheTaskWhileThePromptIsOpenEndsOnCancelledAndWithdrawsIt() throws {
        let server = try startSFTP()
        try MainActor.assumeIsolated {
            try Scenarios.cancellingTheTaskWhileThePromptIsOpenEndsOnCancelledAndWithdrawsIt(server)
        }
    }
}

/// The scenarios, on the main actor (GIO's callbacks come on the main context).
@MainActor
private enum Scenarios {
    static func address(of server: RemoteServer) throws -> ServerAddress {
        try ServerAddress(parsing: server.rootURI)
    }

    static func theRightPasswordMountsAndAMountedServerIsSuccessAgainThenItUnmounts(_ server: RemoteServer) throws {
        let prompt = ScriptedPrompt(passwords: [ServerAccount.password])
        let url = try XCTUnwrap(mount(try address(of: server), prompt: prompt)).get()
        XCTAssertEqual(url.absoluteString, try address(of: server).uri)
        XCTAssertTrue(eventually { server.isMounted }, "GVFS lists the mount")
        XCTAssertLessThanOrEqual(prompt.passwordRequests.count, 1, "asked once at most (a kept password asks nothing)")
        if let request = prompt.passwordRequests.first {
            XCTAssertTrue(request.needsPassword)
            XCTAssertEqual(request.attempt, 1)
        }

        // Mounted already: success, and nothing asked.
        let again = ScriptedPrompt(passwords: [])
        XCTAssertNoThrow(try XCTUnwrap(mount(try address(of: server), prompt: again)).get())
        XCTAssertEqual(again.passwordRequests.count, 0)

        let unmounted = run { () async throws(MountRemovalError) in try await ServerConnection.unmount(url, prompt: nil) }
        XCTAssertNoThrow(try XCTUnwrap(unmounted).get())
        XCTAssertTrue(eventually { !server.isMounted }, "the mount is gone")
    }

    static func aWrongPasswordIsAskedAgainAndEndsOnWrongPasswordAfterTheLastTry(_ server: RemoteServer) throws {
        let prompt = ScriptedPrompt(passwords: ["wrong-1", "wrong-2", "wrong-3", "wrong-4", "wrong-5"])
        let result = mount(try address(of: server), prompt: prompt, attempts: 3)
        XCTAssertEqual(result?.failure, .wrongPassword(host: "127.0.0.1"), "\(String(describing: result))")
        XCTAssertGreaterThanOrEqual(prompt.passwordRequests.count, 1)
        XCTAssertLessThanOrEqual(prompt.passwordRequests.count, 3, "never more than the attempts allowed")
        if prompt.passwordRequests.count > 1 {
            XCTAssertEqual(prompt.passwordRequests.map(\.attempt), Array(1...prompt.passwordRequests.count), "each request knows its attempt")
        }
        XCTAssertFalse(server.isMounted)
        XCTAssertTrue(result?.failure?.description.contains("did not accept") ?? false, "\(String(describing: result?.failure))")
    }

    static func givingUpAfterAWrongPasswordIsAWrongPasswordAndCancellingTheFirstPromptIsNot(_ server: RemoteServer) throws {
        let gaveUp = mount(try address(of: server), prompt: ScriptedPrompt(passwords: ["wrong"]))
        XCTAssertEqual(gaveUp?.failure, .wrongPassword(host: "127.0.0.1"), "\(String(describing: gaveUp))")
        let cancelled = mount(try address(of: server), prompt: ScriptedPrompt(passwords: []))
        XCTAssertEqual(cancelled?.failure, .authenticationCancelled(host: "127.0.0.1"), "\(String(describing: cancelled))")
        XCTAssertFalse(server.isMounted)
    }

    static func aPortNothingListensOnIsUnreachable(_ server: RemoteServer) throws {
        // A server started and killed: its port is free now, and no one else's.
        let address = try address(of: server)
        server.kill()
        let result = mount(address, prompt: ScriptedPrompt(passwords: [ServerAccount.password]))
        guard case .hostUnreachable(let host, let reason)? = result?.failure else {
            return XCTFail("unreachable, not \(String(describing: result))")
        }
        XCTAssertEqual(host, "127.0.0.1")
        XCTAssertFalse(reason.isEmpty)
    }

    static func cancellingTheTaskWhileThePromptIsOpenEndsOnCancelledAndWithdrawsIt(_ server: RemoteServer) throws {
        let prompt = ScriptedPrompt(passwords: [], waits: true)
        let address = try address(of: server)
        let connection = ServerConnection(address: address, prompt: prompt)
        let box = ResultBox<URL, ServerConnectionError>()
        let task = Task { @MainActor in
            do throws(ServerConnectionError) { box.result = .success(try await connection.mount()) } catch { box.result = .failure(error) }
        }
        XCTAssertTrue(spin { prompt.isWaiting || box.result != nil }, "the prompt was asked")
        task.cancel()
        XCTAssertTrue(spin { box.result != nil })
        let result = box.result
        XCTAssertEqual(result?.failure, .cancelled, "\(String(describing: result))")
        XCTAssertTrue(prompt.withdrawn, "the open dialog was withdrawn")
    }

    // MARK: Running the async API on the main context

    static func mount(_ address: ServerAddress, prompt: ScriptedPrompt, attempts: Int = 3) -> Result<URL, ServerConnectionError>? {
        run { () async throws(ServerConnectionError) -> URL in
            let connection = ServerConnection(address: address, prompt: prompt)
            connection.maximumPasswordAttempts = attempts
            return try await connection.mount()
        }
    }

    static func run<T: Sendable, E: Error>(_ body: @escaping @MainActor () async throws(E) -> T) -> Result<T, E>? {
        let box = ResultBox<T, E>()
        Task { @MainActor in
            do throws(E) { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        }
        XCTAssertTrue(spin(timeout: 120) { box.result != nil }, "GVFS answered")
        return box.result
    }
}

@MainActor
private final class ResultBox<T, E: Error> {
    var result: Result<T, E>?
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// The person at the dialogs, scripted: the passwords typed one request after another (then
/// Cancel), every question answered with its first choice or declined.
@MainActor
final class ScriptedPrompt: MountPrompt {
    private var passwords: [String]
    private let declinesQuestions: Bool
    private let waits: Bool
    private(set) var passwordRequests: [PasswordRequest] = []
    private(set) var questions: [MountQuestion] = []
    private(set) var withdrawn = false
    private(set) var isWaiting = false
    private var waiting: CheckedContinuation<PasswordReply?, Never>?

    init(passwords: [String], declinesQuestions: Bool = false, waits: Bool = false) {
        self.passwords = passwords
        self.declinesQuestions = declinesQuestions
        self.waits = waits
    }

    func credentials(for request: PasswordRequest) async -> PasswordReply? {
        passwordRequests.append(request)
        if waits {
            return await withCheckedContinuation { continuation in
                waiting = continuation
                isWaiting = true
            }
        }
        guard !passwords.isEmpty else { return nil }
        return PasswordReply(user: ServerAccount.user, password: passwords.removeFirst(), remember: .never)
    }

    func answer(_ question: MountQuestion) async -> Int? {
        questions.append(question)
        return declinesQuestions ? nil : 0
    }

    func withdraw() {
        withdrawn = true
        waiting?.resume(returning: nil)
        waiting = nil
    }
}
