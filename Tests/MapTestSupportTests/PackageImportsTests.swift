import Foundation
import MapTestSupport
import Testing

/// The package's targets declare what they import: a target that imports a module it reaches
/// only through another target's dependencies builds today and breaks when that dependency goes.
/// And they import what they declare: a dependency no file imports links a tool the target does
/// not use (unless the script's `LINK_ONLY` names it with its reason).
struct PackageImportsTests {
    @Test func everyTargetDeclaresTheModulesItImports() throws {
        let script = RepositoryFiles.root.appendingPathComponent("scripts/tools/check-imports.py").path
        let run = try ExternalCommand.run("python3", [script, RepositoryFiles.root.path])
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.standardOutput.contains(", 0 undeclared import(s), 0 unused dependency(ies)"), "\(run.transcript)")
    }

    /// docs/architecture.md draws the target graph and lists each target's direct dependencies
    /// as Package.swift declares them (`scripts/tools/target-graph.py` writes both).
    @Test func theArchitecturePageDrawsThePackagesTargetGraph() throws {
        let script = RepositoryFiles.root.appendingPathComponent("scripts/tools/target-graph.py").path
        let run = try ExternalCommand.run("python3", [script, "--check", RepositoryFiles.root.path])
        #expect(run.status == 0, "\(run.transcript)")
    }
}
