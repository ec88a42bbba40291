#!/usr/bin/env python3
"""Checks how the sources cite the papers (CONTRIBUTING.md, "Citations").

Every equation or algorithm a comment names carries its paper, so that one grep finds the
code of an equation: `ConvFusion §IV-E`, `Optimus Eq. 3`, `Optimus Alg. 1`, `TSO Eq. 9`,
`Stoutchinin Eq. 2`, `HWFF Eq. 8`. The check fails on
  - an `Eq. N` or `Alg. N` in a C++ comment without one of the five paper names right
    before it;
  - a reference to a specification that is not in the repository (the files it had before
    docs/models/ existed, or the papers' file names).
Exit 0 when clean, 1 with one line per problem. Usage: check_citations.py [--root DIR]
"""
import argparse
import os
import re
import subprocess
import sys

PAPERS = r"(ConvFusion|Optimus|TSO|Stoutchinin|HWFF)"
NUMBERED = re.compile(r"\b(Eqs?|Algs?)\.\s*\d")
CANONICAL = re.compile(PAPERS + r" $")
OUTSIDE = re.compile(r"MODELS\.md|INTERFACES\.md|STYLE\.md|RECIPES\.md|seed 00\d|\.\./shared|"
                     r"\d{3}_[0-9a-f]{16}\.txt")


def problems_in(path, text, is_cpp):
    out = []
    for n, line in enumerate(text.split("\n"), 1):
        if OUTSIDE.search(line):
            out.append(f"{path}:{n}: cites a file outside the repository: {line.strip()[:100]}")
        if not is_cpp:
            continue
        at = line.find("//")
        if at < 0:
            continue
        comment = line[at:]
        for m in NUMBERED.finditer(comment):
            if not CANONICAL.search(comment[:m.start()]):
                out.append(f"{path}:{n}: '{m.group(0)}' without its paper (e.g. 'HWFF Eq. 8'): "
                           f"{comment.strip()[:100]}")
    return out


def tracked(root):
    try:
        files = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True,
                               check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        files = []
        for base in ("core", "views", "app", "tests", "docs", "scripts", "packaging"):
            for d, _, names in os.walk(os.path.join(root, base)):
                files += [os.path.relpath(os.path.join(d, f), root) for f in names]
        files += ["README.md", "CONTRIBUTING.md", "CMakeLists.txt"]
    return [f for f in files if not f.startswith("examples/") and
            f.endswith((".cpp", ".h", ".md", ".py", ".cmake", ".txt", ".sh"))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    root = os.path.abspath(parser.parse_args().root)
    problems = []
    me = os.path.relpath(os.path.abspath(__file__), root)
    for f in tracked(root):
        if f == me or not os.path.isfile(os.path.join(root, f)):
            continue
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            problems += problems_in(f, fh.read(), f.endswith((".cpp", ".h")))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} citation problem(s); the convention: CONTRIBUTING.md")
        return 1
    print("citations: every Eq./Alg. in a comment names its paper; nothing cites outside files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
