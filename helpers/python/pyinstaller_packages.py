"""The Python distributions a PyInstaller build collected, for `executa build`'s SBOM.

Usage: python pyinstaller_packages.py <PyInstaller work folder>

Reads the tables of contents PyInstaller wrote there (pure modules, extensions, binaries, data)
and prints, as JSON, every installed distribution that owns at least one collected file, and every
collected native library no distribution owns (OpenSSL, zlib... from the system or the interpreter):
{"packages": [{"name", "version", "expression", "text", "classifiers", "requires"}],
 "libraries": [{"name", "source"}]}. Runs with the interpreter that ran PyInstaller, so the same
sys.path (the project's virtual environment first) decides which distributions are installed.
"""

import ast
import functools
import json
import os
import re
import sys
from importlib import metadata

TOC_FILES = ("PYZ-00.toc", "PKG-00.toc", "COLLECT-00.toc", "EXE-00.toc")


def tables_of_contents(work):
    """Every (name, source, typecode) entry of PyInstaller's tables of contents."""
    entries = set()

    def walk(value):
        if isinstance(value, (list, tuple)):
            if len(value) == 3 and all(isinstance(v, str) for v in value) and os.path.isabs(value[1]):
                entries.add(tuple(value))
            for item in value:
                walk(item)

    for root, _dirs, files in os.walk(work):
        for name in files:
            if name in TOC_FILES:
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    walk(ast.literal_eval(f.read()))
    return entries


real_folder = functools.lru_cache(maxsize=None)(os.path.realpath)


def resolved(path):
    """os.path.realpath(path), resolving each folder once: a distribution's files share a few
    folders, and realpath checks every part of every path (most of this helper's time before)."""
    head, tail = os.path.split(path)
    joined = os.path.join(real_folder(head), tail)
    return os.path.realpath(joined) if tail in ("", ".", "..") or os.path.islink(joined) else joined


def as_named_and_resolved(path):
    return {os.path.abspath(path), resolved(path)}


def requirement_names(dist):
    """The names a distribution requires (extras' requirements and environment markers left out)."""
    names = []
    for text in dist.requires or []:
        marker = text.partition(";")[2]
        if "extra" in marker:
            continue
        match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", text)
        if match:
            names.append(match.group(1))
    return names


# The interpreter itself (libpython, pythonXY.dll) is the cpython component, not a library of its own.
INTERPRETER = re.compile(r"^(lib)?python\d", re.IGNORECASE)


def main():
    entries = tables_of_contents(sys.argv[1])
    paths = set().union(*(as_named_and_resolved(source) for _name, source, _kind in entries)) if entries else set()
    found = {}
    owned_paths = set()
    for dist in metadata.distributions():
        name = dist.metadata.get("Name")
        if not name or name.lower() in found:
            continue
        files = set()
        for file in dist.files or []:
            try:
                files |= as_named_and_resolved(str(dist.locate_file(file)))
            except (OSError, ValueError):
                continue
        if not files & paths:
            continue
        owned_paths |= files
        found[name.lower()] = {
            "name": name,
            "version": dist.version,
            "expression": dist.metadata.get("License-Expression"),
            "text": dist.metadata.get("License"),
            "classifiers": [c for c in dist.metadata.get_all("Classifier") or [] if c.startswith("License ::")],
            "requires": requirement_names(dist),
        }
    libraries = {
        name: {"name": name, "source": source}
        for name, source, kind in entries
        if kind == "BINARY" and not INTERPRETER.match(os.path.basename(name)) and not as_named_and_resolved(source) & owned_paths
    }
    libraries = [libraries[name] for name in sorted(libraries)]
    json.dump({"packages": sorted(found.values(), key=lambda d: d["name"].lower()), "libraries": libraries}, sys.stdout)


if __name__ == "__main__":
    main()
