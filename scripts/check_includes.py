#!/usr/bin/env python3
"""Checks the include graph of LayerFuse's sources (docs/architecture.md, "The floors").

Every quoted #include is resolved the way the build resolves it (the including file's
folder first, then the include directories of its floor) and turned into an arrow between
areas. An area is a folder of core/ or views/ with its subfolders (core/io holds
core/io/onnx), a program of app/ (app/cli, app/layout), or a part of the studio
(app/gui, app/gui/panels, app/gui/controllers, ...). The check fails when
  - an arrow points up a floor: core includes views or app, views includes app;
  - areas include each other in a cycle (core/io -> core/examples -> core/io);
  - a core header uses one of Qt's keyword macros (emit, signals, slots, foreach, forever)
    as a name: included after a Qt header (the Qt floors' precompiled headers come first),
    `emit(a, b)` would silently become the expression `(a, b)`.
Exit 0 when the graph is clean, 1 with one line per problem otherwise.
Usage: check_includes.py [--root DIR] [--graph]   (--graph prints every arrow)
"""
import argparse
import os
import re
import sys

FLOORS = {"core": 0, "views": 1, "app": 2}
# Include directories of each floor, searched in order after the file's own folder
# (the targets' include directories in core/, views/ and app/*/CMakeLists.txt).
SEARCH = {
    "core": ["core"],
    "views": ["views", "core"],
    "app/gui": ["app/gui", "views", "core"],
    "app/layout": ["views", "core"],
    "app/cli": ["app/cli", "views", "core"],  # the CLI links views/repro_plots with the studio
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCE = (".cpp", ".h")
QT_KEYWORDS = re.compile(r"\b(emit|signals|slots|foreach|forever)\b")
COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', re.S)


def floor_of(path):
    return path.split("/", 1)[0]


# How many leading folders name an area, per floor.
AREA_DEPTH = {"core": 2, "views": 2, "app": 3}


def folder_of(path):
    return os.path.dirname(path)


def area_of(path):
    # core/io/onnx/x.cpp -> core/io; views/studio_state.h -> views; app/gui/panels/x.h ->
    # app/gui/panels; app/gui/main.cpp -> app/gui
    parts = folder_of(path).split("/")
    return "/".join(parts[:AREA_DEPTH[parts[0]]])


def search_dirs(path):
    if path.startswith("app/"):
        return SEARCH.get("/".join(path.split("/")[:2]), [])
    return SEARCH.get(floor_of(path), [])


def resolve(root, path, name):
    for base in [folder_of(path)] + search_dirs(path):
        candidate = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None  # a system or generated header (moc, ui): not ours


def sources(root):
    for floor in FLOORS:
        for dirpath, _, files in os.walk(os.path.join(root, floor)):
            for f in files:
                if f.endswith(SOURCE):
                    yield os.path.relpath(os.path.join(dirpath, f), root)


def find_cycles(edges):
    """Strongly connected components with more than one folder (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def check(root):
    """Returns (problems, edges) for the tree at `root`."""
    problems = []
    edges = {}  # area -> set of areas
    witness = {}  # (from, to) -> "file includes header"
    for path in sorted(sources(root)):
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
        if floor_of(path) == "core" and path.endswith(".h"):
            code = COMMENT_OR_STRING.sub(" ", text)
            for word in sorted(set(QT_KEYWORDS.findall(code))):
                problems.append(f"{path}: uses `{word}`, a Qt keyword macro, as a name (a Qt "
                                f"source including it after a Qt header would change its meaning)")
        for name in INCLUDE.findall(text):
            target = resolve(root, path, name)
            if target is None:
                continue
            a, b = area_of(path), area_of(target)
            if FLOORS[floor_of(target)] > FLOORS[floor_of(path)]:
                problems.append(f"{path}: includes {target}, a floor above ({floor_of(path)} "
                                f"may include only the floors below it)")
            if a != b:
                edges.setdefault(a, set()).add(b)
                witness.setdefault((a, b), f"{path} includes {target}")

    for component in find_cycles(edges):
        members = set(component)
        arrows = [witness[(a, b)] for a in component for b in sorted(edges[a]) if b in members]
        problems.append("areas include each other: " + " <-> ".join(component) + "\n    " +
                        "\n    ".join(arrows))

    return problems, edges


def self_test():
    """The check itself: a small tree with one upward include, two cycles and a core header
    using a Qt keyword macro must fail with exactly those problems, and the same tree without
    them must pass."""
    import tempfile

    files = {
        "core/io/reader.h": '#include "network/net.h"\n',
        "core/io/onnx/onnx.h": '#include "io/reader.h"\n',
        "core/io/reader.cpp": '#include "io/onnx/onnx.h"\n#include <vector>\n',
        "core/network/net.h": "// emits nothing; \"emit\" in a comment or a string is fine\n"
                              'const char* kWhat = "emit";\n',
        "views/graph/canvas.h": '#include "io/reader.h"\n',
        "app/gui/main_window.cpp": '#include "graph/canvas.h"\n#include "panels/dock.h"\n',
        "app/gui/panels/dock.h": '#include "graph/canvas.h"\n',
    }
    bad = {
        "core/network/net.cpp": '#include "graph/canvas.h"\n',  # resolves nowhere in core
        "core/examples/bundled.h": '#include "io/reader.h"\n',
        "core/io/project.cpp": '#include "examples/bundled.h"\n',  # io <-> examples
        "views/graph/scene.cpp": '#include "main_window.h"\n',  # not found from views
        "app/gui/panels/status.cpp": '#include "main_window.h"\n',  # app/gui <-> panels
    }
    upward = {"core/teaching/t.cpp": '#include "../../views/graph/canvas.h"\n'}
    keyword = {"core/search/pairs.h": "template <class E> void pairs(E emit) { emit(1, 2); }\n"}

    def run(tree):
        with tempfile.TemporaryDirectory() as root:
            for name, text in tree.items():
                os.makedirs(os.path.join(root, os.path.dirname(name)), exist_ok=True)
                with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                    f.write(text)
            with open(os.path.join(root, "app/gui/main_window.h"), "w") as f:
                f.write("")
            return check(root)[0]

    clean = run(files)
    found = run({**files, **bad, **upward, **keyword})
    expected = ["core/teaching/t.cpp: includes views/graph/canvas.h",
                "core/search/pairs.h: uses `emit`",
                "areas include each other: app/gui <-> app/gui/panels",
                "areas include each other: core/examples <-> core/io"]
    ok = not clean and len(found) == len(expected) and all(
        any(p.startswith(e) for p in found) for e in expected)
    print("self-test " + ("passed" if ok else "FAILED"))
    for p in clean + found:
        print("  " + p.splitlines()[0])
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    parser.add_argument("--graph", action="store_true", help="print every arrow between areas")
    parser.add_argument("--self-test", action="store_true",
                        help="check the checker on a small tree with known problems")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    problems, edges = check(os.path.abspath(args.root))
    if args.graph:
        for a in sorted(edges):
            print(f"{a} -> {', '.join(sorted(edges[a]))}")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include-graph problem(s); the rules: docs/architecture.md")
        return 1
    print(f"include graph clean: {len(edges)} areas, "
          f"{sum(len(v) for v in edges.values())} arrows, none upward, no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
