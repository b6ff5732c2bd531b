import Foundation
import MapTestSupport
import Testing

/// The package's layout, as docs/architecture.md promises it: one public name per concept, one
/// test target per library target, and every target named in Package.swift's map.
struct PackageLayoutTests {
    private let fileManager = FileManager.default
    private let root = RepositoryFiles.root

    /// The Swift source files of each folder under `Sources/`, by target name.
    private func swiftTargets() throws -> [String: [URL]] {
        var targets: [String: [URL]] = [:]
        for name in try fileManager.contentsOfDirectory(atPath: RepositoryFiles.sources.path) {
            let folder = RepositoryFiles.sources.appendingPathComponent(name)
            guard let walker = fileManager.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            let files = walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            if !files.isEmpty { targets[name] = files }
        }
        return targets
    }

    /// Public types declared at the top level of a file (not nested), by name.
    private func publicTopLevelTypes(in file: URL) throws -> [String] {
        let pattern = try Regex(
            #"^(?:@\w+(?:\([^)]*\))?\s+)*public\s+(?:final\s+|indirect\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)"#
        )
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard let match = line.firstMatch(of: pattern), let name = match.output[1].substring else { return nil }
            return String(name)
        }
    }

    @Test func noTwoPublicTopLevelTypesShareAName() throws {
        var declarations: [String: [String]] = [:]
        for (target, files) in try swiftTargets() {
            for file in files {
                for name in try publicTopLevelTypes(in: file) {
                    declarations[name, default: []].append("\(target)/\(file.lastPathComponent)")
                }
            }
        }
        #expect(declarations.count > 100, "the scan found too few public types; is the pattern broken?")
        let shared = declarations.filter { $0.value.count > 1 }
        #expect(shared.isEmpty, "public types declared more than once: \(shared.sorted { $0.key < $1.key })")
    }

    @Test func everyLibraryTargetHasItsOwnTestTargetAndNoTestTargetIsOrphaned() throws {
        let libraries = Set(try swiftTargets().keys).subtracting(["mapwright"])
        let testFolders = Set(try fileManager.contentsOfDirectory(atPath: root.appendingPathComponent("Tests").path))
        let missing = libraries.filter { !testFolders.contains("\($0)Tests") }.sorted()
        #expect(missing.isEmpty, "library targets without a <Target>Tests folder: \(missing)")
        let orphans = testFolders.filter {
            $0.hasSuffix("Tests") && !libraries.contains(String($0.dropLast("Tests".count)))
        }.sorted()
        #expect(orphans.isEmpty, "test folders named after no library target: \(orphans)")
    }

    /// docs/architecture.md's table is checked by `DocumentationTests`, for every target.
    @Test func packageMapNamesEveryTarget() throws {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let header = manifest.components(separatedBy: "import PackageDescription")[0]
        for target in try swiftTargets().keys.sorted() {
            #expect(header.contains(target), "Package.swift's dependency map does not name \(target)")
        }
    }
}
