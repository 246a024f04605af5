#!/usr/bin/env python3
"""Fails, listing file:line of each, when a public symbol of a module has no doc comment.

Reads the symbol graphs that `swift package generate-documentation` extracts (public and open symbols only), so the
check sees exactly the API the documentation shows. A symbol is exempt when:
  - it has no source location: the compiler synthesized it (`hashValue`, `hash(into:)`, memberwise parts);
  - it is an extension block (`extension CGPoint`): its members are checked one by one instead;
  - its doc comment is inherited from another module's protocol requirement (`description`, `==`, `init(rawValue:)`):
    the symbol graph carries that comment and DocC shows it.
Everything else, including the members of extensions on Foundation and standard-library types, needs its own `///`.

Usage: check-doc-coverage.py MODULE [SYMBOL_GRAPH_DIR]
Without a directory, the newest `.build/*/extracted-symbols/*/MODULE` is used (what the plugin just wrote).
"""
import glob
import json
import os
import sys


def newest_symbol_graph_dir(module):
    candidates = [d for d in glob.glob(os.path.join(".build", "*", "extracted-symbols", "*", module)) if os.path.isdir(d)]
    if not candidates:
        sys.exit(f"error: no symbol graph for {module} under .build/*/extracted-symbols/ "
                 f"(run `swift package generate-documentation --target {module}` first)")
    return max(candidates, key=os.path.getmtime)


def undocumented_symbols(module, directory):
    files = sorted(glob.glob(os.path.join(directory, "*.symbols.json")))
    if not files:
        sys.exit(f"error: no *.symbols.json in {directory}")
    found, total = [], 0
    for path in files:
        with open(path, encoding="utf-8") as file:
            graph = json.load(file)
        for symbol in graph["symbols"]:
            location = symbol.get("location")
            if location is None or symbol["kind"]["identifier"] == "swift.extension":
                continue
            total += 1
            comment = symbol.get("docComment")
            lines = [line.get("text", "") for line in comment.get("lines", [])] if comment else []
            if any(line.strip() for line in lines):
                continue
            uri = location["uri"].removeprefix("file://")
            # Symbol graph positions count from 0; editors and compilers from 1.
            line = location["position"]["line"] + 1
            name = ".".join(symbol["pathComponents"])
            found.append((os.path.relpath(uri) if uri.startswith("/") else uri, line, symbol["kind"]["displayName"], name))
    return sorted(set(found)), total


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: check-doc-coverage.py MODULE [SYMBOL_GRAPH_DIR]")
    module = sys.argv[1]
    directory = sys.argv[2] if len(sys.argv) == 3 else newest_symbol_graph_dir(module)
    missing, total = undocumented_symbols(module, directory)
    if missing:
        for path, line, kind, name in missing:
            print(f"{path}:{line}: error: public {kind.lower()} `{name}` has no doc comment")
        print(f"{len(missing)} of {total} public symbols of {module} have no doc comment", file=sys.stderr)
        return 1
    print(f"all {total} public symbols of {module} have a doc comment")
    return 0


if __name__ == "__main__":
    sys.exit(main())
