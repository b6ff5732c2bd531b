/// A JSON path inside a style document, such as `layers[2] (land).paint.fill-color`.
///
/// An array index under `layers` also shows the layer's id once it is known, because a person
/// finds a layer by its id sooner than by its position.
struct StylePath: Hashable, Sendable, CustomStringConvertible {
    private enum Component: Hashable, Sendable {
        case key(String)
        case index(Int, label: String?)
    }

    private var components: [Component] = []

    /// The document itself.
    static let root = StylePath()

    var isRoot: Bool { components.isEmpty }

    /// The path of the member `key` of the object at this path.
    func appending(_ key: String) -> StylePath {
        var path = self
        path.components.append(.key(key))
        return path
    }

    /// The path of element `index` of the array at this path, labelled (for a layer, by its id).
    func appending(index: Int, label: String? = nil) -> StylePath {
        var path = self
        path.components.append(.index(index, label: label))
        return path
    }

    var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                text += text.isEmpty ? key : ".\(key)"
            case .index(let index, let label):
                text += "[\(index)]" + (label.map { " (\($0))" } ?? "")
            }
        }
        return text
    }
}
