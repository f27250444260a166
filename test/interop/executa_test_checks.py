"""anna-executa-test's checks on one plugin project, run by test/interop/templates.test.ts with the
platform venv's pytest (which loads anna-executa-test's pytest plugin, the ``executa_spawn`` fixture): ``python -m pytest <this file>``.

Environment:
    INTEROP_PROJECT_DIR   the plugin project
    INTEROP_COMMAND       its launch command as a JSON list; empty for anna-executa-test's own
                          default (``uv run --project <dir> <script>`` from pyproject.toml)
    INTEROP_WIRE_CALLS    JSON list of [method, params] to send for the wire-format check
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from anna_executa_test import contract_for, describe_plugin, wire_format

PROJECT = Path(os.environ["INTEROP_PROJECT_DIR"])
COMMAND = json.loads(os.environ["INTEROP_COMMAND"]) if os.environ.get("INTEROP_COMMAND") else None
WIRE_CALLS = json.loads(os.environ.get("INTEROP_WIRE_CALLS") or "[]")
DECLARED = json.loads((PROJECT / "manifest.json").read_text("utf-8"))
TIMEOUT_S = 60.0


def test_spawn_and_describe_plugin(executa_spawn):
    with executa_spawn(PROJECT, command=COMMAND) as client:
        info = describe_plugin(client)
    assert [t["name"] for t in info["tools"]] == [t["name"] for t in DECLARED["tools"]], "describe lists manifest.json's tools"
    assert info["version"] == DECLARED["version"]


def test_contract_for_reads_the_project():
    if COMMAND is not None:
        return  # contract_for reads the tool id from pyproject.toml: Python projects only
    contract = contract_for(PROJECT)
    assert contract.tool_id == json.loads((PROJECT / "executa.json").read_text("utf-8"))["tool_id"]
    assert contract.launch_command[:2] == ["uv", "run"], contract.launch_command
    assert [t.name for t in contract.tools] == [t["name"] for t in DECLARED["tools"]]


def _answer(client, request: dict) -> dict:
    """Writes one request; returns its response, checking every stdout line on the way is a JSON-RPC envelope."""
    client.proc.stdin.write(json.dumps(request) + "\n")
    client.proc.stdin.flush()
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        line = client.proc.stdout.readline()
        assert line, f"the plugin closed stdout before answering {request['method']}; stderr: {client.stderr_lines[-20:]}"
        envelope = json.loads(line)  # every stdout line is JSON
        if "method" in envelope:
            if "id" in envelope:
                wire_format.validate_request(envelope)
            continue
        wire_format.validate_response(envelope)
        if envelope["id"] == request["id"]:
            return envelope
    raise AssertionError(f"no answer to {request['method']} in {TIMEOUT_S} s")


def test_wire_format(executa_spawn):
    calls = [["describe", None], ["health", None], *WIRE_CALLS]
    with executa_spawn(PROJECT, command=COMMAND) as client:
        for number, (method, params) in enumerate(calls, start=1):
            request = {"jsonrpc": "2.0", "id": number, "method": method, **({"params": params} if params is not None else {})}
            wire_format.validate_request(request)
            response = _answer(client, request)
            if method == "invoke" and "result" in response:
                wire_format.validate_invoke_result(response["result"])
