#!/usr/bin/env python3
"""Draws the package's target graph in docs/architecture.md, and checks that it is drawn true.

Reads the package as SwiftPM sees it (`swift package dump-package`) and writes, in
docs/architecture.md:
- the Mermaid graph between `<!-- target-graph:begin -->` and `<!-- target-graph:end -->`: every
  library and executable target (test targets and C targets left out), an arrow from a target to
  each target it depends on, arrows implied by others left out (the transitive reduction), so the
  graph stays readable; a target's every direct dependency is in its table row;
- the "depends on" column of the targets tables: each target's direct dependencies as
  Package.swift declares them, targets first in declaration order, then products.

    python3 scripts/tools/target-graph.py [--check] [PACKAGE_FOLDER]   # default: the checkout

With --check nothing is written: it prints what differs and exits 1 when the page is not what it
would write (`PackageImportsTests` runs it so), 0 when it is.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

BEGIN = "<!-- target-graph:begin -->"
END = "<!-- target-graph:end -->"
ROW = re.compile(r"^\| `([A-Za-z0-9_]+)` \|(.*)\|([^|]*)\|\s*$")


def dependencies(target):
    """The target's direct dependencies: (targets, products), each in declaration order."""
    targets, products = [], []
    for dependency in target.get("dependencies", []):
        if "product" in dependency:
            products.append(dependency["product"][0])
        else:
            for kind in ("byName", "target"):
                if kind in dependency:
                    targets.append(dependency[kind][0])
    return targets, products


def reduced_edges(graph):
    """The edges of `graph` (name -> direct dependencies) not implied by a longer path."""
    reach = {}

    def reachable(name):
        if name not in reach:
            found = set()
            for dependency in graph.get(name, []):
                found.add(dependency)
                found |= reachable(dependency)
            reach[name] = found
        return reach[name]

    edges = []
    for name, direct in graph.items():
        for dependency in direct:
            implied = any(dependency in reachable(other) for other in direct if other != dependency)
            if not implied:
                edges.append((name, dependency))
    return edges


def main() -> int:
    arguments = [argument for argument in sys.argv[1:] if argument != "--check"]
    check = "--check" in sys.argv[1:]
    root = os.path.abspath(arguments[0] if arguments else os.path.join(os.path.dirname(__file__), "..", ".."))
    # A scratch folder of its own: `swift test` holds the checkout's .build while it runs this.
    with tempfile.TemporaryDirectory(prefix="target-graph-") as scratch:
        package = json.loads(subprocess.run(
            ["swift", "package", "--package-path", root, "--scratch-path", scratch, "dump-package"],
            check=True, capture_output=True, text=True).stdout)
    kinds = {target["name"]: target["type"] for target in package["targets"]}
    drawn = [target for target in package["targets"] if target["type"] in ("regular", "executable")
             and not target["name"].startswith("C")]
    drawn_names = {target["name"] for target in drawn}
    graph = {target["name"]: [name for name in dependencies(target)[0] if name in drawn_names] for target in drawn}
    lines = ["```mermaid", "graph BT"]
    for target in drawn:
        lines.append(f"    {target['name']}")
    for name, dependency in reduced_edges(graph):
        lines.append(f"    {name} --> {dependency}")
    lines.append("```")
    mermaid = "\n".join(lines)

    page_path = os.path.join(root, "docs", "architecture.md")
    with open(page_path, encoding="utf-8") as handle:
        page = handle.read()
    if BEGIN not in page or END not in page:
        print(f"target-graph: {page_path} has no {BEGIN} ... {END} block")
        return 1
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    written = head + BEGIN + "\n" + mermaid + "\n" + END + tail

    rows = []
    for line in written.split("\n"):
        match = ROW.match(line)
        if match and match.group(1) in kinds and kinds[match.group(1)] != "test":
            target = next(t for t in package["targets"] if t["name"] == match.group(1))
            targets, products = dependencies(target)
            text = ", ".join(targets) if targets else "—"
            if products:
                text += "; " + ", ".join(products)
            line = f"| `{match.group(1)}` |{match.group(2)}| {text} |"
        rows.append(line)
    written = "\n".join(rows)

    if written == page:
        print(f"target-graph: docs/architecture.md is true to Package.swift ({len(drawn)} targets drawn)")
        return 0
    if check:
        old, new = page.split("\n"), written.split("\n")
        for index, (before, after) in enumerate(zip(old, new)):
            if before != after:
                print(f"docs/architecture.md:{index + 1}: is\n  {before[:300]}\nbut Package.swift says\n  {after[:300]}")
        if len(old) != len(new):
            print(f"docs/architecture.md: {len(old)} lines, {len(new)} expected")
        print("target-graph: docs/architecture.md differs from Package.swift; run python3 scripts/tools/target-graph.py")
        return 1
    with open(page_path, "w", encoding="utf-8") as handle:
        handle.write(written)
    print(f"target-graph: docs/architecture.md written ({len(drawn)} targets drawn)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
