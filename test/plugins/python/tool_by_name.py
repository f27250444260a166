#!/usr/bin/env python3
"""bundle-info: reports where its bundled files are. Written like the public multi-file example:
the tool is read from params["name"] (the protocol sends params["tool"]), so every invoke, even of
a tool the manifest declares, ends in ValueError("unknown tool: ...") and the catch-all answers it
as a -32603 error frame. Lines that are not JSON are skipped; other methods get -32601."""
import json
import os
import sys

MANIFEST = {
    "name": "bundle-info",
    "display_name": "Bundle Info",
    "version": "1.0.0",
    "description": "Shows the folders the plugin was installed with.",
    "tools": [
        {"name": "show_home", "description": "Where the plugin is installed", "parameters": []},
        {"name": "list_data", "description": "The files in the bundled data folder", "parameters": []},
    ],
    "runtime": {"binary": {"entrypoint": "bin/bundle-info", "lib_dirs": ["lib"], "data_dirs": ["data"]}},
}


def home():
    return os.environ.get("EXECUTA_HOME") or os.path.dirname(os.path.abspath(sys.argv[0]))


def invoke(params):
    name = params.get("name", "")
    if name == "show_home":
        return {"home": home()}
    if name == "list_data":
        folder = os.path.join(home(), "data")
        return {"files": sorted(os.listdir(folder)) if os.path.isdir(folder) else []}
    raise ValueError(f"unknown tool: {name}")


def main():
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except json.JSONDecodeError as exc:
            print(f"bad line: {exc}", file=sys.stderr)
            continue
        rid = req.get("id")
        method = req.get("method", "")
        params = req.get("params") or {}
        try:
            if method == "describe":
                result = MANIFEST
            elif method == "health":
                result = {"status": "ready", "message": "OK", "details": {}}
            elif method == "invoke":
                result = invoke(params)
            else:
                resp = {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": f"method not found: {method}"}}
                sys.stdout.write(json.dumps(resp) + "\n")
                sys.stdout.flush()
                continue
            resp = {"jsonrpc": "2.0", "id": rid, "result": result}
        except Exception as exc:
            resp = {"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": str(exc)}}
        sys.stdout.write(json.dumps(resp) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
