#!/usr/bin/env python3
"""Checks that every target imports only what Package.swift declares for it, and declares only
what it imports.

Reads the package as SwiftPM sees it (`swift package dump-package`), then each target's Swift
files, and prints one line per module a target imports without declaring it (directly: a
dependency's own dependencies do not count), and one line per declared dependency (a target of
this package or a product) that none of a Swift target's files imports, unless `LINK_ONLY`
names it with its reason. Exits 1 when there is any, 0 otherwise.

    python3 scripts/tools/check-imports.py [PACKAGE_FOLDER]    # default: the checkout

Modules that come with the toolchain or the system (Foundation, Glibc, Dispatch,
Synchronization, ...) need no declaration.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

TOOLCHAIN = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc",
    "Musl", "Dispatch", "Synchronization", "Swift", "_Concurrency", "XCTest", "Testing",
    "os", "Darwin", "CoreFoundation", "RegexBuilder", "Observation", "_StringProcessing",
}
# Dependencies a target declares without importing them, each with the reason it needs them:
# (target, dependency) -> why. Nothing else may be declared and not imported.
LINK_ONLY = {
}
# Unused dependencies known and left for a change under way elsewhere: printed, not counted.
# Empty this as soon as that change lands.
PENDING = {
}
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def main() -> int:
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
    # A scratch folder of its own: `swift test` holds the checkout's .build while it runs this.
    with tempfile.TemporaryDirectory(prefix="check-imports-") as scratch:
        package = json.loads(subprocess.run(
            ["swift", "package", "--package-path", root, "--scratch-path", scratch, "dump-package"],
            check=True, capture_output=True, text=True).stdout)
    problems = []
    unused = []
    for target in package["targets"]:
        if target["type"] in ("system", "binary", "plugin"):
            continue
        name = target["name"]
        declared = set()
        for dependency in target.get("dependencies", []):
            for kind in ("byName", "target", "product"):
                if kind in dependency:
                    declared.add(dependency[kind][0])
        default = "Tests" if target["type"] == "test" else "Sources"
        folder = os.path.join(root, target.get("path") or os.path.join(default, name))
        imported = set()
        swift_files = 0
        for directory, _, files in os.walk(folder):
            for file in sorted(files):
                if not file.endswith(".swift"):
                    continue
                swift_files += 1
                path = os.path.join(directory, file)
                with open(path, encoding="utf-8") as handle:
                    # Text inside multi-line string literals (Python scripts in tests) is not Swift.
                    text = re.sub(r'"""(?:.|\n)*?"""', "", handle.read())
                modules = set(IMPORT.findall(text))
                imported |= modules
                for module in sorted(modules):
                    if module in TOOLCHAIN or module == name or module in declared:
                        continue
                    problems.append(f"{os.path.relpath(path, root)}: target {name} imports {module} without declaring it")
        # A C target (no Swift file) links what it declares; only Swift targets import.
        if swift_files:
            for dependency in sorted(declared - imported):
                if (name, dependency) in PENDING:
                    print(f"pending: target {name} declares {dependency} but no file imports it ({PENDING[(name, dependency)]})")
                elif (name, dependency) not in LINK_ONLY:
                    unused.append(f"{os.path.relpath(folder, root)}: target {name} declares {dependency} but no file imports it")
    for line in problems + unused:
        print(line)
    print(f"check-imports: {len(package['targets'])} targets, {len(problems)} undeclared import(s), {len(unused)} unused dependency(ies)")
    return 1 if problems or unused else 0


if __name__ == "__main__":
    sys.exit(main())
