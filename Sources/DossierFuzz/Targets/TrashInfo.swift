import DocumentCore
import Foundation

extension FuzzTarget {
    /// A `.trashinfo` file as the Trash listing reads it; what reads writes back the same path.
    static let trashInfo = FuzzTarget("trashinfo", ".trashinfo files (TrashInfo(parsing:))") { data in
        guard let info = try? TrashInfo(parsing: String(decoding: data, as: UTF8.self)) else { return }
        let again = try? TrashInfo(parsing: info.serialized)
        expect(again?.path == info.path, "the path of a .trashinfo does not read back the same after writing it")
    }
}
