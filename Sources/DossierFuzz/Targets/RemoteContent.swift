import DocumentCore
import DocumentUI
import Foundation

extension FuzzTarget {
    /// A web page as the HTML previewer reads it for remote content (in its encoding, then
    /// tags, attributes and CSS); every address it reports is a remote one.
    static let remoteContent = FuzzTarget("remote-content", "HTML pages' remote references (RemoteContent.references)") { data in
        let html = TextEncoding.decode(data, isStartOfFile: false).text
        for address in RemoteContent.references(in: html) {
            let lowered = address.lowercased()
            expect(["http://", "https://", "ftp://"].contains { lowered.hasPrefix($0) }, "'\(address)' is reported as remote")
        }
    }
}
