"""The Python distributions a PyInstaller build collected, for `executa build`'s SBOM.

Usage: python pyinstaller_packages.py <PyInstaller work folder>

Reads the tables of contents PyInstaller wrote there (pure modules, extensions, binaries, data)
and prints, as JSON, every installed distribution that owns at least one collected file:
[{"name", "version", "license"}]. Runs with the interpreter that ran PyInstaller, so the same
sys.path (the project's virtual environment first) decides which distributions are installed.
"""

import ast
import json
import os
import sys
from importlib import metadata

TOC_FILES = ("PYZ-00.toc", "PKG-00.toc", "COLLECT-00.toc", "EXE-00.toc")


def collected_files(work):
    """Paths (as named and resolved) of every source file named in PyInstaller's tables of contents."""
    paths = set()

    def walk(value):
        if isinstance(value, (list, tuple)):
            if len(value) == 3 and all(isinstance(v, str) for v in value) and os.path.isabs(value[1]):
                paths.add(os.path.abspath(value[1]))
                paths.add(os.path.realpath(value[1]))
            for item in value:
                walk(item)

    for root, _dirs, files in os.walk(work):
        for name in files:
            if name in TOC_FILES:
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    walk(ast.literal_eval(f.read()))
    return paths


def license_of(meta):
    expression = meta.get("License-Expression")
    if expression:
        return expression.strip()
    text = (meta.get("License") or "").strip()
    if text and "\n" not in text and len(text) <= 80 and text.upper() != "UNKNOWN":
        return text
    for classifier in meta.get_all("Classifier") or []:
        if classifier.startswith("License ::"):
            return classifier.split("::")[-1].strip()
    return None


def owned(dist, paths):
    for file in dist.files or []:
        try:
            if os.path.abspath(str(dist.locate_file(file))) in paths:
                return True
        except (OSError, ValueError):
            continue
    return False


def main():
    paths = collected_files(sys.argv[1])
    found = {}
    for dist in metadata.distributions():
        name = dist.metadata.get("Name")
        if not name or name.lower() in found or not owned(dist, paths):
            continue
        found[name.lower()] = {"name": name, "version": dist.version, "license": license_of(dist.metadata)}
    json.dump(sorted(found.values(), key=lambda d: d["name"].lower()), sys.stdout)


if __name__ == "__main__":
    main()
