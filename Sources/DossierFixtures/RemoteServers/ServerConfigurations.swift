import Foundation

/// What each kind of test server runs: its configuration files, written into the server's
/// own temporary folder (no system configuration, no system service, no well-known port),
/// and its command line, in the foreground so that the fixture owns the process.
struct ServerLaunch {
    let program: String
    let arguments: [String]

    /// Writes the configuration of a `kind` server on `port` serving `share`, everything it
    /// keeps under `state`; the command that starts it.
    static func prepare(_ kind: RemoteServer.Kind, port: UInt16, share: URL, state: URL) throws -> ServerLaunch {
        switch kind {
        case .sftp: return try sshd(port: port, share: share, state: state)
        case .smb: return try smbd(port: port, share: share, state: state)
        case .dav: return try apache(port: port, share: share, state: state)
        }
    }

    /// OpenSSH's sshd, SFTP only (internal-sftp, no shell), password logins of the test
    /// account only. It runs as root (it checks system passwords) but logs no one in as root;
    /// StrictModes is off because its files live in a temporary folder.
    private static func sshd(port: UInt16, share: URL, state: URL) throws -> ServerLaunch {
        let program = "/usr/sbin/sshd"
        try requireInstalled(program)
        let hostKey = state.appendingPathComponent("ssh_host_ed25519_key")
        if !FileManager.default.fileExists(atPath: hostKey.path) {
            let made = try ServerAccount.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "dossier-test-host", "-f", hostKey.path])
            guard made.status == 0 else { throw RemoteServerError.setupFailed("ssh-keygen", made.output) }
        }
        // sshd refuses to start as root without its privilege-separation folder (systemd's
        // unit makes it; here there may be none).
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let config = state.appendingPathComponent("sshd_config")
        try """
        ListenAddress 127.0.0.1
        Port \(port)
        HostKey \(hostKey.path)
        PidFile \(state.appendingPathComponent("sshd.pid").path)
        UsePAM no
        PasswordAuthentication yes
        KbdInteractiveAuthentication no
        PubkeyAuthentication no
        AuthorizedKeysFile none
        PermitRootLogin no
        StrictModes no
        AllowUsers \(ServerAccount.user)
        Subsystem sftp internal-sftp
        ForceCommand internal-sftp
        AllowTcpForwarding no
        X11Forwarding no
        LogLevel VERBOSE

        """.write(to: config, atomically: true, encoding: .utf8)
        return ServerLaunch(program: program, arguments: ["-D", "-e", "-f", config.path])
    }

    /// Samba's smbd on its own port with one share, `share`, for the test account (its
    /// password in a passdb of its own); every folder Samba keeps state in is under `state`.
    private static func smbd(port: UInt16, share: URL, state: URL) throws -> ServerLaunch {
        let program = "/usr/sbin/smbd"
        try requireInstalled(program)
        let folders = ["lock", "state", "cache", "private", "pid", "ncalrpc"].map { state.appendingPathComponent("samba/\($0)") }
        for folder in folders { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let config = state.appendingPathComponent("smb.conf")
        try """
        [global]
          server role = standalone server
          workgroup = WORKGROUP
          interfaces = 127.0.0.1
          bind interfaces only = yes
          smb ports = \(port)
          disable netbios = yes
          lock directory = \(folders[0].path)
          state directory = \(folders[1].path)
          cache directory = \(folders[2].path)
          private dir = \(folders[3].path)
          pid directory = \(folders[4].path)
          ncalrpc dir = \(folders[5].path)
          passdb backend = tdbsam:\(folders[3].appendingPathComponent("passdb.tdb").path)
          log file = \(state.appendingPathComponent("samba/log").path)
          log level = 1
          load printers = no
          printcap name = /dev/null
          disable spoolss = yes
          server min protocol = SMB2
          map to guest = Never
        [share]
          path = \(share.path)
          read only = no
          valid users = \(ServerAccount.user)

        """.write(to: config, atomically: true, encoding: .utf8)
        let added = try ServerAccount.run("/usr/bin/smbpasswd", ["-c", config.path, "-a", "-s", ServerAccount.user],
                                          input: "\(ServerAccount.password)\n\(ServerAccount.password)\n")
        guard added.status == 0 else { throw RemoteServerError.setupFailed("smbpasswd", added.output) }
        return ServerLaunch(program: program, arguments: ["--foreground", "--no-process-group", "--debug-stdout", "-s", config.path])
    }

    /// Apache with mod_dav and mod_dav_fs serving `share` at /share/, Basic authentication
    /// against an htpasswd file of its own; its workers run as the test account (Apache
    /// refuses to serve as root).
    private static func apache(port: UInt16, share: URL, state: URL) throws -> ServerLaunch {
        let program = "/usr/sbin/apache2"
        try requireInstalled(program)
        let root = state.appendingPathComponent("apache")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // The lock database is written by the workers, as the test account.
        let account = try ServerAccount.ids()
        chown(root.path, account.uid, account.gid)
        let passwords = root.appendingPathComponent("htpasswd")
        let made = try ServerAccount.run("/usr/bin/htpasswd", ["-b", "-c", "-B", passwords.path, ServerAccount.user, ServerAccount.password])
        guard made.status == 0 else { throw RemoteServerError.setupFailed("htpasswd", made.output) }
        let modules = "/usr/lib/apache2/modules"
        let config = state.appendingPathComponent("apache.conf")
        let group = getgrgid(account.gid).map { String(cString: $0.pointee.gr_name) } ?? "nogroup"
        try """
        ServerRoot "\(root.path)"
        ServerName 127.0.0.1
        Listen 127.0.0.1:\(port)
        PidFile \(root.appendingPathComponent("httpd.pid").path)
        DefaultRuntimeDir \(root.path)
        Mutex file:\(root.path) default
        ErrorLog \(root.appendingPathComponent("error.log").path)
        LogLevel warn
        User \(ServerAccount.user)
        Group \(group)
        LoadModule mpm_event_module \(modules)/mod_mpm_event.so
        LoadModule authz_core_module \(modules)/mod_authz_core.so
        LoadModule authn_core_module \(modules)/mod_authn_core.so
        LoadModule authn_file_module \(modules)/mod_authn_file.so
        LoadModule authz_user_module \(modules)/mod_authz_user.so
        LoadModule auth_basic_module \(modules)/mod_auth_basic.so
        LoadModule alias_module \(modules)/mod_alias.so
        LoadModule mime_module \(modules)/mod_mime.so
        LoadModule dav_module \(modules)/mod_dav.so
        LoadModule dav_fs_module \(modules)/mod_dav_fs.so
        TypesConfig /etc/mime.types
        DavLockDB \(root.appendingPathComponent("davlock").path)
        DocumentRoot "\(root.path)"
        Alias /share "\(share.path)"
        <Directory "\(share.path)">
          Dav On
          AuthType Basic
          AuthName "Dossier tests"
          AuthUserFile \(passwords.path)
          Require valid-user
          Options None
          AllowOverride None
        </Directory>

        """.write(to: config, atomically: true, encoding: .utf8)
        return ServerLaunch(program: program, arguments: ["-f", config.path, "-DFOREGROUND"])
    }

    private static func requireInstalled(_ program: String) throws {
        guard FileManager.default.isExecutableFile(atPath: program) else { throw RemoteServerError.notInstalled(program) }
    }
}
