import XCTest

@testable import DocumentUI

/// What a page would load from the network by itself, which decides whether the previewer
/// offers to load it: content, not links.
final class RemoteContentTests: XCTestCase {
    func testImagesStylesFramesAndCSSAddressesAreRemoteContent() {
        let html = """
            <html><head>
            <link rel="stylesheet" href="https://cdn.example.com/site.css">
            <link rel="icon" href='http://example.com/favicon.ico'>
            <link rel="canonical" href="https://example.com/this-page">
            <link rel="preconnect" href="https://preconnect.example.com">
            <style>@import "https://fonts.example.com/font.css"; body { background: url(http://example.com/bg.png) }</style>
            </head><body>
            <img src="https://example.com/a.png" srcset="small.png 1x, https://example.com/a@2x.png 2x">
            <div style="background-image: url('https://example.com/div.png')"></div>
            <iframe src=http://example.com/frame></iframe>
            <video poster="https://example.com/poster.jpg"></video>
            <img src="https://example.com/a.png">
            <svg><image xlink:href="https://example.com/svg.png"/><a xlink:href="https://example.com/svg-link">x</a></svg>
            </body></html>
            """
        XCTAssertEqual(RemoteContent.references(in: html), [
            "https://cdn.example.com/site.css", "http://example.com/favicon.ico", "https://preconnect.example.com",
            "https://example.com/a.png",
            "https://example.com/a@2x.png", "https://example.com/div.png", "http://example.com/frame",
            "https://example.com/poster.jpg", "https://example.com/svg.png", "https://fonts.example.com/font.css",
            "http://example.com/bg.png",
        ])
    }

    func testARemoteBaseMakesTheRelativeAddressesRemote() {
        XCTAssertEqual(RemoteContent.references(in: #"<base href="https://example.com/"><img src="a.png">"#),
                       ["https://example.com/"])
    }

    func testLinksAndLocalFilesAreNot() {
        let html = """
            <a href="https://example.com/">a link</a> <area href="http://example.com/map">
            <img src="photo.jpg"> <img src="file:///home/me/photo.jpg"> <img src="data:image/png;base64,AAAA">
            <p>Text that mentions https://example.com/ is not a load.</p>
            """
        XCTAssertEqual(RemoteContent.references(in: html), [])
    }
}
