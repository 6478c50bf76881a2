import Foundation

/// The throw-away account the test servers let in: a system user with no home and no shell
/// (`/usr/sbin/nologin`), made on first use. sshd checks passwords against the system's
/// accounts, so SFTP needs a real Unix user; Samba and Apache take the same name and password
/// from their own password files, kept in each server's temporary folder, and Apache's
/// workers run as this user.
public enum ServerAccount {
    /// The user name every test server accepts.
    public static let user = "dossier-remote-test"
    /// The password every test server accepts: throw-away, known to anyone who reads this
    /// file; the account has no shell, so it opens nothing beyond the test servers.
    public static let password = "throwaway-Dossier-7"

    /// True when this process may start the servers: they bind their own ports as root and
    /// drop to the account, and sshd reads the system's password database.
    public static var canStartServers: Bool { getuid() == 0 }

    /// Makes the account when it is missing and sets its password. Safe to call from several
    /// test processes at once: a lost race to create the user or to lock /etc/shadow is
    /// retried, and the password set is always the same.
    static func ensure() throws {
        guard canStartServers else { throw RemoteServerError.needsRoot }
        if getpwnam(user) == nil {
            let made = try run("/usr/sbin/useradd", ["--system", "--no-create-home", "--home-dir", "/nonexistent",
                                                     "--shell", "/usr/sbin/nologin", "--comment", "Dossier's remote-location tests", user])
            // Exit status 9: another test process made it in the meantime.
            guard made.status == 0 || getpwnam(user) != nil else {
                throw RemoteServerError.setupFailed("useradd \(user)", made.output)
            }
        }
        var last = ""
        for attempt in 0..<20 {
            let set = try run("/usr/sbin/chpasswd", [], input: "\(user):\(password)\n")
            if set.status == 0 { return }
            last = set.output
            // chpasswd gives up at once when another process holds /etc/shadow's lock.
            Thread.sleep(forTimeInterval: 0.1 * Double(attempt + 1))
        }
        throw RemoteServerError.setupFailed("chpasswd \(user)", last)
    }

    /// The account's user and group ids.
    static func ids() throws -> (uid: uid_t, gid: gid_t) {
        guard let entry = getpwnam(user) else { throw RemoteServerError.setupFailed("getpwnam \(user)", "no such user") }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// Runs a program to its end, `input` on its standard input; its status and its output
    /// and errors together.
    static func run(_ program: String, _ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try? stdin.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
