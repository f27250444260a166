"""The plugin's entry point: serve the tools in manifest.json over stdio.

Runs as ``python -m <package>``, as the installed script, and as a PyInstaller binary.
``executa manifest`` regenerates manifest.json and executa_bindings.py from tools.py.
"""

import os
import sys


def _manifest_path() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.path.join(here, "manifest.json")]  # installed wheel (force-included)
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        candidates.append(os.path.join(bundle, "manifest.json"))  # PyInstaller (--add-data manifest.json:.)
    candidates.append(os.path.join(os.path.dirname(here), "manifest.json"))  # source checkout
    for path in candidates:
        if os.path.isfile(path):
            return path
    return candidates[-1]


def main() -> None:
    from .executa import run
    from .executa_bindings import BINDINGS

    run(manifest_path=_manifest_path(), bindings=BINDINGS)


if __name__ == "__main__":
    main()
