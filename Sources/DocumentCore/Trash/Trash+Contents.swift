import Foundation

extension Trash {
    /// Every trash folder that exists: the home trash first, then those at the top of the
    /// mounted file systems, each once (a file system mounted twice has one trash).
    package func trashDirectories() -> [TrashDirectory] {
        var seen: Set<String> = []
        var found: [TrashDirectory] = []
        func add(_ trash: TrashDirectory) {
            // Following links here: top-folder trashes were already checked not to be links.
            var status = stat()
            guard stat(trash.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return }
            if seen.insert("\(status.st_dev):\(status.st_ino)").inserted {
                found.append(trash)
            }
        }
        add(home)
        for top in mounts.mountPoints() {
            TrashDirectory.existing(onTop: top, userID: userID).forEach(add)
        }
        return found
    }

    /// Everything in the Trash, newest first. Damaged `.trashinfo` files, records without an
    /// item and items without a record are reported in `problems`, never fatal.
    public func contents() -> TrashContents {
        var items: [TrashedItem] = []
        var problems: [TrashProblem] = []
        for trash in trashDirectories() {
            let (found, trouble) = contents(of: trash)
            items += found
            problems += trouble
        }
        items.sort { ($0.deletionDate ?? .distantPast, $1.name) > ($1.deletionDate ?? .distantPast, $0.name) }
        return TrashContents(items: items, problems: problems)
    }

    /// The items and problems of one trash folder.
    func contents(of trash: TrashDirectory) -> ([TrashedItem], [TrashProblem]) {
        var items: [TrashedItem] = []
        var problems: [TrashProblem] = []
        let infoNames: [String]
        do {
            infoNames = try FileSystem.contentsOfFolder(trash.infoPath)
        } catch {
            if error.code != ENOENT { problems.append(.unreadable(trash.infoURL, reason: error.message)) }
            infoNames = []
        }
        var recorded: Set<String> = []
        for infoName in infoNames.sorted() where infoName.hasSuffix(".trashinfo") {
            let name = String(infoName.dropLast(".trashinfo".count))
            let infoURL = trash.infoURL.appendingPathComponent(infoName, isDirectory: false)
            recorded.insert(name)
            guard FileStatus.existing(trash.itemPath(name)) != nil else {
                problems.append(.missingItem(infoURL: infoURL))
                continue
            }
            let info: TrashInfo
            do {
                guard let data = FileManager.default.contents(atPath: trash.infoFilePath(name)) else {
                    problems.append(.malformedInfo(infoURL, reason: tr("it cannot be read")))
                    continue
                }
                info = try TrashInfo(parsing: String(decoding: data, as: UTF8.self))
            } catch {
                problems.append(.malformedInfo(infoURL, reason: error.description))
                continue
            }
            items.append(
                TrashedItem(
                    name: name, originalPath: trash.originalPath(forRecorded: info.path),
                    deletionDate: info.deletionDate, trash: trash))
        }
        if let names = try? FileSystem.contentsOfFolder(trash.filesPath) {
            for name in names.sorted() where !recorded.contains(name) {
                problems.append(.missingInfo(itemURL: trash.filesURL.appendingPathComponent(name, isDirectory: false)))
            }
        }
        return (items, problems)
    }

    /// The one trashed item `name` designates: its name in the Trash (as `contents()` lists
    /// it), else its path in the Trash, its original path or its original name.
    /// - Throws: `.noSuchItem` when nothing matches, `.ambiguous` (with each candidate's
    ///   path in the Trash) when several do at the same level.
    public func item(named name: String) throws(TrashError) -> TrashedItem {
        let items = contents().items
        let absolute = name.hasPrefix("/") ? URL(fileURLWithPath: name).standardizedFileURL.path : nil
        let matchers: [(TrashedItem) -> Bool] = [
            { $0.name == name },
            { absolute != nil && $0.url.path == absolute },
            { absolute != nil && $0.originalPath == absolute },
            { $0.originalName == name },
        ]
        for matches in matchers {
            let found = items.filter(matches)
            if found.count == 1, let only = found.first { return only }
            if found.count > 1 { throw .ambiguous(name: name, candidates: found.map(\.url.path)) }
        }
        throw .noSuchItem(name: name)
    }
}
