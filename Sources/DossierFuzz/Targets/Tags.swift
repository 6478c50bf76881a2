import DocumentCore
import Foundation

extension FuzzTarget {
    /// A `user.xdg.tags` value as `getxattr` gives it to TagStore. Tags read from it and
    /// written back read the same.
    static let tags = FuzzTarget("tags", "user.xdg.tags values (TagList.parse(attribute:))") { data in
        let tags = TagList.parse(attribute: data)
        expect(TagList.normalize(tags) == tags, "parsed tags are not already normalized")
        expect(TagList.parse(TagList.format(tags)) == tags, "tags do not read back the same after writing them: \(tags)")
    }
}
