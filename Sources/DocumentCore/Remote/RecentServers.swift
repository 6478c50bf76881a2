import Foundation

/// The servers connected to lately, newest first and at most `limit`: one address a line in
/// `recent-servers` in Dossier's data folder, written whole to a temporary file and renamed.
/// Never a password (a `ServerAddress` has none). Small local file I/O: call it off the main
/// thread.
package struct RecentServers: Sendable {
    /// The file the list is kept in (`recent-servers` in Dossier's data folder).
    package let file: URL
    /// The most servers the list keeps.
    package let limit: Int

    /// Makes the list kept in Dossier's data folder of `directories`, holding at most `limit` servers.
    package init(directories: UserDirectories = UserDirectories(), limit: Int = 10) {
        file = directories.dossierData.appendingPathComponent("recent-servers")
        self.limit = limit
    }

    /// The remembered servers, newest first; lines that are not addresses are skipped, and a
    /// missing file is an empty list.
    package func items() -> [ServerAddress] {
        guard let data = try? Data(contentsOf: file), data.count <= 256 * 1024 else { return [] }
        var seen = Set<String>()
        var list: [ServerAddress] = []
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            guard let address = try? ServerAddress(parsing: String(line)), seen.insert(address.uri).inserted else { continue }
            list.append(address)
            if list.count == limit { break }
        }
        return list
    }

    /// Puts `address` first (once), dropping the oldest past `limit`.
    package func add(_ address: ServerAddress) throws(RecentServersError) {
        try write([address] + items().filter { $0.uri != address.uri })
    }

    /// Forgets `address`.
    package func remove(_ address: ServerAddress) throws(RecentServersError) {
        try write(items().filter { $0.uri != address.uri })
    }

    private func write(_ list: [ServerAddress]) throws(RecentServersError) {
        let text = list.prefix(limit).map { $0.uri + "\n" }.joined()
        let folder = file.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".recent-servers-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: temporary)
            if rename(temporary.path, file.path) != 0 {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                throw RecentServersError.notSaved(file.path, reason)
            }
        } catch let error as RecentServersError {
            throw error
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .notSaved(file.path, error.localizedDescription)
        }
    }
}

/// Why the list of recent servers could not be saved.
package enum RecentServersError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Writing the list failed: the file's path, then the system's reason.
    case notSaved(String, String)

    package var description: String {
        switch self {
        case .notSaved(let path, let reason): tr("The recent servers could not be saved in “%s”: %s", path, reason)
        }
    }
}
