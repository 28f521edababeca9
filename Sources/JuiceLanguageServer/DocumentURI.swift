@_spi(Internals) import JuiceSupport
import JuiceSource

/// `file://` URIs and the paths they name.
enum DocumentURI {
    /// The key the server keeps a document under: the path a URI names
    /// (normalized, `path(of:)`), or, for a URI that is not a local file (an
    /// unsaved buffer's `untitled:`), the URI itself, checked as a loose file.
    static func key(of uri: String) -> String {
        path(of: uri) ?? uri
    }

    /// The path a `file:` URI names, percent-decoded and `normalized`; nil
    /// for another scheme or a URI that is not well formed.
    static func path(of uri: String) -> String? {
        guard uri.lowercased().hasPrefix("file://") else { return nil }
        var rest = Substring(uri.dropFirst(7))
        // `file://localhost/x` names `/x`; any other host is not a local file.
        if !rest.hasPrefix("/") {
            guard rest.lowercased().hasPrefix("localhost/") else { return nil }
            rest = rest.dropFirst(9)
        }
        if let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<query] }
        var bytes: [UInt8] = []
        var utf8 = Array(rest.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard utf8.count >= 2, let value = WholeNumber.hexadecimal(utf8.prefix(2)) else { return nil }
                utf8 = utf8.dropFirst(2)
                bytes.append(UInt8(truncatingIfNeeded: value))
            } else {
                bytes.append(byte)
            }
        }
        // A path is bytes to the kernel, but to everything here it is text.
        guard let path = String(validating: bytes, as: UTF8.self), !path.contains("\0") else { return nil }
        return normalized(path)
    }

    /// A path in the one form every path in the server takes (a book's
    /// files, open documents, file events): absolute, with no empty, `.` or
    /// `..` segments, so one file is one key however a URI spells it (`//`,
    /// `/./`, `/x/../`). `..` goes by the name, as RFC 3986 removes a URI's
    /// dot segments, not through links; a relative path (an old client's
    /// `rootPath`) is taken from the working directory.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in RecipeSources.absolutePath(path).split(separator: "/") {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The `file:` URI of an absolute path, percent-encoding all but
    /// unreserved characters and `/`, as VS Code and Neovim write them.
    static func uri(of path: String) -> String {
        var uri = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                uri += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return uri
    }
}
