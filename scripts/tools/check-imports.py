#!/usr/bin/env python3
"""Checks that every target imports only what Package.swift declares for it.

Reads the package as SwiftPM sees it (`swift package dump-package`), then each target's Swift
files, and prints one line per module a target imports without declaring it (directly: a
dependency's own dependencies do not count). Exits 1 when there is any, 0 otherwise.

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
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def main() -> int:
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
    # A scratch folder of its own: `swift test` holds the checkout's .build while it runs this.
    with tempfile.TemporaryDirectory(prefix="check-imports-") as scratch:
        package = json.loads(subprocess.run(
            ["swift", "package", "--package-path", root, "--scratch-path", scratch, "dump-package"],
            check=True, capture_output=True, text=True).stdout)
    problems = []
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
        for directory, _, files in os.walk(folder):
            for file in sorted(files):
                if not file.endswith(".swift"):
                    continue
                path = os.path.join(directory, file)
                with open(path, encoding="utf-8") as handle:
                    # Text inside multi-line string literals (Python scripts in tests) is not Swift.
                    text = re.sub(r'"""(?:.|\n)*?"""', "", handle.read())
                for module in sorted(set(IMPORT.findall(text))):
                    if module in TOOLCHAIN or module == name or module in declared:
                        continue
                    problems.append(f"{os.path.relpath(path, root)}: target {name} imports {module} without declaring it")
    for line in problems:
        print(line)
    print(f"check-imports: {len(package['targets'])} targets, {len(problems)} undeclared import(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
