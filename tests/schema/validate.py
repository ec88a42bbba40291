#!/usr/bin/python3
"""Checks the JSON Schemas of LayerFuse's file formats (docs/schema/).

1. Every schema is itself a valid draft 2020-12 schema.
2. Every bundled example file (examples/**) validates against the schema of its kind.
3. Every file in tests/schema/good validates; every file in tests/schema/bad is rejected,
   for the reason its first line names (`# schema-error: TOKEN`: TOKEN appears in the path
   or the message of one of the errors).
4. With --cli, the same good and bad network, hardware and schedule files are given to
   layerfuse-cli: good files load (exit 0), bad ones are refused with exit 1 and a
   FILE:LINE:COLUMN message, so schemas and readers agree. (Projects and lessons have no
   command-line reader; the bundled lessons are loaded by the core tests.)

Files are read as YAML 1.2 (the core schema that yaml-cpp follows, not PyYAML's YAML 1.1
defaults) and duplicate keys are refused, as LayerFuse's readers do.

Needs Debian's python3-yaml and python3-jsonschema; exits 77 (skipped) without them.
"""

import argparse
import json
import pathlib
import re
import subprocess
import sys
import warnings

SKIP = 77

try:
    import jsonschema
    import yaml
except ImportError as exc:  # pragma: no cover - depends on the machine
    print(f"schema test skipped: {exc.name} is missing "
          "(install python3-yaml and python3-jsonschema: scripts/install-deps.sh)")
    sys.exit(SKIP)

KINDS = {
    ".net.yaml": "network",
    ".hw.yaml": "hardware",
    ".sched.yaml": "schedule",
    ".lfproj": "project",
    ".lesson.yaml": "lesson",
}


class Yaml12Loader(yaml.SafeLoader):
    """YAML 1.2 core schema: only true/false are booleans, integers are decimal (or 0o/0x),
    floats may omit the dot (1e3); no timestamps, no sexagesimals. Duplicate keys fail."""


Yaml12Loader.yaml_implicit_resolvers = {}
_RESOLVERS = [
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("tag:yaml.org,2002:float",
     r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
     r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+0123456789."),
]
for _tag, _regex, _first in _RESOLVERS:
    Yaml12Loader.add_implicit_resolver(_tag, re.compile(_regex), list(_first))


def _construct_int(loader, node):
    text = loader.construct_scalar(node)
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text, 10)


def _construct_mapping(loader, node):
    loader.flatten_mapping(node)
    result = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in result:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=True)
    return result


Yaml12Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
Yaml12Loader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)


def kind_of(path):
    name = path.name
    for suffix, kind in KINDS.items():
        if name.endswith(suffix):
            return kind
    return None


def load_schemas(schema_dir):
    schemas, store = {}, {}
    for kind in KINDS.values():
        path = schema_dir / f"{kind}.schema.json"
        schema = json.loads(path.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        schemas[kind] = (path, schema)
        store[path.resolve().as_uri()] = schema
        store[schema.get("$id", path.name)] = schema
    validators = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for kind, (path, schema) in schemas.items():
            resolver = jsonschema.RefResolver(path.resolve().as_uri(), schema, store=store)
            validators[kind] = jsonschema.Draft202012Validator(schema, resolver=resolver)
    return validators


def all_errors(errors):
    for e in errors:
        yield e
        yield from all_errors(e.context or [])


def where(error):
    return "/" + "/".join(str(p) for p in error.absolute_path)


def validate_file(validators, path):
    """Returns (document or None, list of errors or a load-error string)."""
    kind = kind_of(path)
    try:
        doc = yaml.load(path.read_text(encoding="utf-8"), Loader=Yaml12Loader)
    except yaml.YAMLError as exc:
        return None, f"not YAML 1.2: {exc}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        errors = sorted(validators[kind].iter_errors(doc), key=lambda e: list(e.absolute_path))
    return doc, errors


def expected_token(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    m = re.match(r"#\s*schema-error:\s*(\S+)", first)
    return m.group(1) if m else None


def cli_command(cli, kind, path):
    if kind == "network":
        return [cli, "convert", str(path), "-"]
    if kind == "hardware":
        return [cli, "evaluate", "l2net", "--hardware", str(path), "--format", "csv"]
    if kind == "schedule":
        return [cli, "evaluate", "l2net", "--schedule", str(path), "--format", "csv"]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", required=True, help="the source tree")
    ap.add_argument("--cli", help="layerfuse-cli to cross-check the readers with")
    args = ap.parse_args()
    root = pathlib.Path(args.root)
    validators = load_schemas(root / "docs" / "schema")
    failures, checked = [], 0

    # Bundled examples.
    examples = sorted(p for p in (root / "examples").rglob("*") if p.is_file() and p.suffix != ".txt"
                      and p.name != "CMakeLists.txt")
    for path in examples:
        kind = kind_of(path)
        rel = path.relative_to(root)
        if kind is None:
            failures.append(f"{rel}: no schema for this kind of file")
            continue
        _, errors = validate_file(validators, path)
        checked += 1
        if isinstance(errors, str):
            failures.append(f"{rel}: {errors}")
        for e in errors if not isinstance(errors, str) else []:
            failures.append(f"{rel}: {where(e)}: {e.message}")
    bundled = checked

    # Fixtures.
    fixtures = root / "tests" / "schema"
    good = sorted((fixtures / "good").iterdir())
    bad = sorted((fixtures / "bad").iterdir())
    for path in good:
        _, errors = validate_file(validators, path)
        checked += 1
        if isinstance(errors, str):
            failures.append(f"{path.relative_to(root)}: {errors}")
        for e in errors if not isinstance(errors, str) else []:
            failures.append(f"{path.relative_to(root)}: {where(e)}: {e.message}")
    for path in bad:
        token = expected_token(path)
        rel = path.relative_to(root)
        if token is None:
            failures.append(f"{rel}: first line must be '# schema-error: TOKEN'")
            continue
        _, errors = validate_file(validators, path)
        checked += 1
        if isinstance(errors, str):
            failures.append(f"{rel}: expected a schema error, got a YAML error: {errors}")
            continue
        if not errors:
            failures.append(f"{rel}: the schema accepts this file (expected an error about '{token}')")
            continue
        if not any(token in where(e) or token in e.message for e in all_errors(errors)):
            found = "; ".join(f"{where(e)}: {e.message}" for e in errors)
            failures.append(f"{rel}: rejected, but not for '{token}': {found}")

    # The readers agree with the schemas.
    cli_runs = 0
    if args.cli:
        location = re.compile(r":[0-9]+:[0-9]+: ")
        for expect_ok, paths in ((True, good), (False, bad)):
            for path in paths:
                cmd = cli_command(args.cli, kind_of(path), path)
                if cmd is None:
                    continue
                run = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
                cli_runs += 1
                rel = path.relative_to(root)
                if expect_ok and run.returncode != 0:
                    failures.append(f"{rel}: valid by the schema but the reader refuses it "
                                    f"(exit {run.returncode}): {run.stderr.strip()}")
                elif not expect_ok:
                    if run.returncode != 1:
                        failures.append(f"{rel}: invalid by the schema but the reader exits "
                                        f"{run.returncode} (expected 1)")
                    elif not (str(path) in run.stderr and location.search(run.stderr)):
                        failures.append(f"{rel}: the reader's message has no FILE:LINE:COLUMN: "
                                        f"{run.stderr.strip()}")

    print(f"{bundled} bundled files, {len(good)} good and {len(bad)} bad fixtures checked "
          f"against {len(validators)} schemas; {cli_runs} reader cross-checks")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
