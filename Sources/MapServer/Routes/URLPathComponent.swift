import Foundation

/// Served names (of styles, tilesets) as URL path components. Names come from file names and may
/// hold any character: every URL the server writes (TileJSON `tiles`, `/index.json`, and so the
/// viewer's layers) percent-encodes them, and every path the server reads percent-decodes its
/// name component before looking it up: `/styles/my%20style/0/0/0.png` is style `my style`.
enum URLPathComponent {
    /// RFC 3986's unreserved characters, the only ones left as they are.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `name` percent-encoded as one path component: `my style` is `my%20style`, `a/b` is `a%2Fb`.
    static func encoded(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? name
    }

    /// The name a path component stands for, percent-decoded; `nil` when it does not decode
    /// (a stray `%`, bytes that are not UTF-8) or when the decoded name could be read as a path:
    /// empty, `.`, `..`, or holding `/`, `\` or NUL. Names are only ever looked up among what is
    /// served, so these are simply names never served (404).
    static func decodedName(_ component: Substring) -> String? {
        // Most names are plain: nothing to decode (and Foundation's decoding is a tenth of a kept tile's answer).
        if !component.isEmpty,
            component.utf8.allSatisfy({
                $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "\\")
            })
        {
            return component == "." || component == ".." ? nil : String(component)
        }
        guard let name = String(component).removingPercentEncoding, !name.isEmpty, name != ".", name != "..",
            !name.contains(where: { $0 == "/" || $0 == "\\" || $0 == "\0" })
        else { return nil }
        return name
    }
}
