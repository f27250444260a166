"""Protocol tests: spawn the plugin and speak to it over stdio, one test (or more) per line of the
runtime contract and per kind of bad input. Most run the test plugin (tests/fixtures/plugin.py:
this project's runtime and tools plus test-only tools)."""

import hashlib
import hmac
import json
import os
import re
import signal
import stat
import sys
import time

import pytest

MiB = 1024 * 1024
IS_WINDOWS = sys.platform == "win32"
posix_only = pytest.mark.skipif(IS_WINDOWS, reason="POSIX signals")


def health(id):
    return {"jsonrpc": "2.0", "id": id, "method": "health"}


def error_of(frame):
    error = frame.get("error") or {}
    return {"id": frame.get("id"), "code": error.get("code"), "message": error.get("message")}


# framing


def test_white_space_and_a_trailing_cr_are_trimmed_and_blank_lines_skipped(plugin):
    plugin.send(f"\n   \n\t{json.dumps(health(1))}  \r\n\r\n")
    assert plugin.response(1)["result"]["status"] == "ready"
    assert plugin.request("health")["result"]["status"] == "ready"
    assert len(plugin.frames) == 2


def test_a_15_mib_frame_is_accepted_and_answered(plugin):
    text = "a" * (15 * MiB)
    assert plugin.invoke("length", {"text": text}, timeout=30)["result"]["data"] == len(text)


def test_a_frame_of_exactly_16_mib_is_accepted(plugin):
    head = '{"jsonrpc":"2.0","id":1,"method":"health","params":{"pad":"'
    tail = '"}}'
    plugin.send(head + "x" * (16 * MiB - len(head) - len(tail)) + tail + "\n")
    assert plugin.response(1, timeout=30)["result"]["status"] == "ready"


def test_a_frame_over_16_mib_is_answered_32600_with_id_null_and_the_plugin_keeps_running(plugin):
    plugin.send('{"jsonrpc":"2.0","id":1,"method":"health","params":{"pad":"' + "x" * (16 * MiB) + '"}}\n')
    assert error_of(plugin.next(timeout=30)) == {"id": None, "code": -32600, "message": "Frame exceeds 16 MiB"}
    assert plugin.request("health")["result"]["status"] == "ready"


def test_stdout_carries_only_frames_print_os_write_and_subprocesses_go_to_stderr(plugin):
    assert plugin.invoke("chatty", {})["result"]["data"] == {"ok": True}
    for what in ["print", "sys.stdout.write", "sys.__stdout__", "os.write(1)", "subprocess"]:
        assert f"chatty: {what}" in plugin.stderr
    assert plugin.stray_lines == []


# what each frame gets


def test_invalid_utf8_is_a_parse_error_with_id_null(plugin):
    plugin.send(b"\xff\xfe{}\n")
    plugin.send(b'{"jsonrpc":"2.0","id":1,"method":"health","params":{"x":"\xc3\x28"}}\n')
    for _ in range(2):
        answer = plugin.next()
        assert answer["id"] is None
        assert answer["error"]["code"] == -32700
        assert answer["error"]["message"].startswith("Parse error: ")


def test_not_json_is_a_parse_error_with_id_null(plugin):
    plugin.send('this is not json\n{"jsonrpc":\nNaN\n')
    for _ in range(3):
        answer = plugin.next()
        assert answer["id"] is None
        assert answer["error"]["code"] == -32700
        assert answer["error"]["message"].startswith("Parse error: ")


def test_json_that_is_not_an_object_batch_string_number_null_is_an_invalid_request(plugin):
    plugin.send(f'[{json.dumps(health(1))}]\n"health"\n42\nnull\ntrue\n')
    for _ in range(5):
        answer = plugin.next()
        assert answer["id"] is None
        assert answer["error"]["code"] == -32600
        assert answer["error"]["message"].startswith("Invalid Request: ")
    assert plugin.request("health")["result"]["status"] == "ready"
    assert plugin.pending() == []


def test_jsonrpc_missing_or_not_2_0_is_an_invalid_request_with_the_frames_id(plugin):
    plugin.send({"id": 1, "method": "health"})
    plugin.send({"jsonrpc": "1.0", "id": "two", "method": "health"})
    assert plugin.response(1)["error"]["code"] == -32600
    assert plugin.response("two")["error"]["code"] == -32600


def test_a_method_that_is_not_a_string_is_an_invalid_request(plugin):
    plugin.send({"jsonrpc": "2.0", "id": 1, "method": 42})
    assert plugin.response(1)["error"]["code"] == -32600


def test_an_id_that_is_not_a_string_number_or_null_is_an_invalid_request_with_id_null(plugin):
    plugin.send({"jsonrpc": "2.0", "id": {"x": 1}, "method": "health"})
    plugin.send({"jsonrpc": "2.0", "id": True, "method": "health"})
    for _ in range(2):
        assert error_of(plugin.next()) == {
            "id": None,
            "code": -32600,
            "message": "Invalid Request: 'id' must be a string, a number or null",
        }


def test_an_object_without_method_and_without_result_or_error_is_an_invalid_request(plugin):
    plugin.send({"jsonrpc": "2.0", "id": 7})
    plugin.send({"jsonrpc": "2.0"})
    assert plugin.response(7)["error"]["code"] == -32600
    assert error_of(plugin.next()) == {"id": None, "code": -32600, "message": "Invalid Request: no 'method'"}


def test_notifications_are_never_answered_whatever_the_method(plugin):
    plugin.send({"jsonrpc": "2.0", "method": "health"})
    plugin.send({"jsonrpc": "2.0", "method": "no/such/method"})
    plugin.send({"jsonrpc": "2.0", "method": "invoke", "params": {"tool": "nothing"}})
    plugin.send({"jsonrpc": "1.0", "method": 5})
    plugin.send(health("after"))
    assert plugin.next()["id"] == "after"
    time.sleep(0.2)
    assert len(plugin.frames) == 1


def test_a_response_to_an_unknown_id_is_logged_on_stderr_never_answered(plugin):
    plugin.reply("no-such-request", {"ok": True})
    plugin.send({"jsonrpc": "2.0", "id": 99, "error": {"code": -1, "message": "x"}})
    assert plugin.request("health")["result"]["status"] == "ready"
    assert len(plugin.frames) == 1
    plugin.wait_for_stderr('unknown request id "no-such-request"')


def test_an_unknown_method_is_method_not_found(plugin):
    assert error_of(plugin.request("tools/list", {}, id=3)) == {"id": 3, "code": -32601, "message": "Method not found: tools/list"}


def test_id_0_null_and_strings_are_answered_like_any_other_id(plugin):
    assert plugin.request("health", id=0)["id"] == 0
    assert plugin.request("health", id=None)["id"] is None
    assert plugin.request("health", id="s")["id"] == "s"
    assert plugin.request("health", id=1.5)["id"] == 1.5


# methods


def test_initialize_answers_2_0_for_2_x_else_1_1_with_server_info_and_client_capabilities(plugin):
    expected = {"2.0": "2.0", "2.1": "2.0", "1.1": "1.1", "1.0": "1.1", "3.0": "1.1", "": "1.1", 2: "1.1"}
    for asked, answered in expected.items():
        assert plugin.initialize(asked)["protocolVersion"] == answered, f"asked {asked!r}"
    assert plugin.request("initialize", {})["result"] == {
        "protocolVersion": "1.1",
        "serverInfo": {"name": "Test Plugin", "version": "0.1.0"},
        "capabilities": {},
        "client_capabilities": {"sampling": {}, "storage": {"kv": True, "files": True}, "upload": {}},
    }
    assert plugin.request("initialize")["result"]["protocolVersion"] == "1.1"


def test_describe_is_manifest_json_exactly_with_its_key_order(spawn, manifest_path):
    plugin = spawn("main")
    answer = plugin.request("describe")
    with open(manifest_path, encoding="utf-8") as f:
        committed = json.load(f)
    assert json.dumps(answer["result"]) == json.dumps(committed)


def test_describe_does_not_load_tool_modules_the_first_invoke_does(plugin):
    answer = plugin.request("describe")
    assert any(t["name"] == "slow" for t in answer["result"]["tools"])
    assert "test-tools module loaded" not in plugin.stderr
    plugin.invoke("nothing", {})
    plugin.wait_for_stderr("test-tools module loaded")


def test_health_is_ready_with_the_number_of_tools_and_the_invokes_in_flight(plugin):
    tools = len(plugin.request("describe")["result"]["tools"])
    slow = plugin.invoke_async("slow", {"ms": 500})
    plugin.wait_for_stderr("slow 500: started")
    assert plugin.request("health")["result"] == {"status": "ready", "message": "", "details": {"tools": tools, "in_flight": 1}}
    plugin.response(slow)
    # the answer is written just before the invoke counts as finished: allow a moment
    deadline = time.monotonic() + 2
    while plugin.request("health")["result"]["details"]["in_flight"] != 0:
        assert time.monotonic() < deadline, "in_flight stayed above 0"
        time.sleep(0.01)


def test_shutdown_is_answered_ok_then_in_flight_invokes_finish_and_exit_0(plugin):
    slow = plugin.invoke_async("slow", {"ms": 300})
    plugin.wait_for_stderr("slow 300: started")
    assert plugin.request("shutdown")["result"] == {"ok": True}
    assert plugin.response(slow)["result"]["success"] is True
    assert plugin.wait() == 0


# invoke


def test_params_not_an_object_or_no_string_tool_is_missing_tool(plugin):
    for params in [None, [], "text_stats", {}, {"tool": 5}]:
        frame = {"jsonrpc": "2.0", "id": 1, "method": "invoke"}
        if params is not None:
            frame["params"] = params
        plugin.send(frame)
        answer = plugin.response(1)
        assert (answer["error"]["code"], answer["error"]["message"]) == (-32602, "Missing 'tool' in params")


def test_an_unknown_tool_is_32601_with_the_available_tools_in_manifest_order(plugin):
    names = [t["name"] for t in plugin.request("describe")["result"]["tools"]]
    assert plugin.invoke("nope", {})["error"] == {
        "code": -32601,
        "message": "Unknown tool: nope",
        "data": {"available_tools": names},
    }
    assert names[:3] == ["text_stats", "sign_message", "summarize"]


def test_arguments_present_and_not_an_object_is_invalid_params(plugin):
    for args in [[], "x", 3, None]:
        answer = plugin.invoke("nothing", args)
        assert (answer["error"]["code"], answer["error"]["message"]) == (-32602, "'arguments' must be an object")
    assert plugin.invoke("nothing")["result"]["success"] is True


def test_arguments_that_break_the_manifest_get_one_entry_per_problem(plugin):
    answer = plugin.invoke(
        "echo_args", {"i": "1", "n": "x", "b": 1, "o": [], "a": [1, "2", 3.5], "tags": ["x", 2], "e": "c", "extra": 1}
    )
    assert answer["error"]["code"] == -32602
    assert answer["error"]["message"] == "Invalid arguments for tool 'echo_args'"
    assert answer["error"]["data"]["errors"] == [
        {"parameter": "s", "message": "required"},
        {"parameter": "i", "message": "expected integer, got string"},
        {"parameter": "n", "message": "expected number, got string"},
        {"parameter": "b", "message": "expected boolean, got number"},
        {"parameter": "o", "message": "expected object, got array"},
        {"parameter": "a", "message": "item 1: expected integer, got string"},
        {"parameter": "a", "message": "item 2: expected integer, got number"},
        {"parameter": "tags", "message": "item 1: expected string, got number"},
        {"parameter": "e", "message": "must be one of: a, b"},
        {"parameter": "extra", "message": "unknown parameter"},
    ]
    fraction = plugin.invoke("echo_args", {"s": "x", "i": 1.5})
    assert fraction["error"]["data"]["errors"] == [{"parameter": "i", "message": "expected integer, got number"}]
    boolean = plugin.invoke("echo_args", {"s": "x", "i": True, "n": False})
    assert boolean["error"]["data"]["errors"] == [
        {"parameter": "i", "message": "expected integer, got boolean"},
        {"parameter": "n", "message": "expected number, got boolean"},
    ]


def test_the_real_tools_arguments_are_checked_too(plugin):
    answer = plugin.invoke("text_stats", {"text": 1, "letter_case": "title"})
    assert answer["error"]["data"]["errors"] == [
        {"parameter": "text", "message": "expected string, got number"},
        {"parameter": "letter_case", "message": "must be one of: lower, upper, preserve"},
    ]


def test_integers_may_be_written_2_0_null_is_not_given_and_missing_optionals_get_the_default(plugin):
    plugin.send('{"jsonrpc":"2.0","id":"int","method":"invoke","params":{"tool":"echo_args","arguments":{"s":"x","i":2.0}}}\n')
    data = plugin.response("int")["result"]["data"]
    assert data == {"s": "x", "i": 2, "b": False}
    assert plugin.frames[-1]["result"]["data"]["i"] == 2
    answer = plugin.invoke("echo_args", {"s": "x", "i": None, "n": None, "a": [1, 2.0], "tags": ["t"], "o": {"k": 1}, "e": "b"})
    assert answer["result"]["data"] == {"s": "x", "i": 7, "b": False, "o": {"k": 1}, "a": [1, 2], "tags": ["t"], "e": "b"}
    stats = plugin.invoke("text_stats", {"text": "b a b"})
    assert stats["result"]["data"]["top"] == [{"word": "b", "count": 2}, {"word": "a", "count": 1}]


def test_a_handlers_return_value_is_success_true_with_data_and_duration_ms(plugin):
    answer = plugin.invoke("slow", {"ms": 50})
    assert answer["result"]["success"] is True
    assert answer["result"]["data"] == {"slept": 50}
    assert isinstance(answer["result"]["duration_ms"], int) and answer["result"]["duration_ms"] >= 40
    none = plugin.invoke("nothing", {})
    assert "data" in none["result"] and none["result"]["data"] is None


def test_async_def_tools_run_on_an_event_loop(plugin):
    answer = plugin.invoke("slow_async", {"ms": 50})
    assert answer["result"]["data"] == {"slept": 50, "loop": True}


def test_a_tool_error_is_success_false_with_its_message(plugin):
    answer = plugin.invoke("fail", {"kind": "tool"})
    assert answer["result"]["success"] is False
    assert answer["result"]["error"] == "it failed as asked"
    assert isinstance(answer["result"]["duration_ms"], int)
    stats = plugin.invoke("text_stats", {"text": "x", "top": -1})
    assert stats["result"]["success"] is False
    assert "top must be 0 or more" in stats["result"]["error"]


def test_an_uncaught_host_error_is_success_false_with_method_code_and_message(plugin):
    plugin.initialize("2.0")
    id = plugin.invoke_async("raw_request", {"method": "sampling/createMessage", "params": {"messages": []}})
    request = plugin.reverse_request("sampling/createMessage")
    plugin.reply_error(request["id"], -32009, "The user said no")
    result = plugin.response(id)["result"]
    assert result["success"] is False
    assert result["error"] == "sampling/createMessage failed: [-32009] The user said no"


def test_any_other_exception_is_32603_with_the_traceback_on_stderr_only(plugin):
    answer = plugin.invoke("fail", {"kind": "crash"})
    assert answer["error"] == {"code": -32603, "message": "Tool 'fail' failed unexpectedly; see the plugin's stderr"}
    plugin.wait_for_stderr("RuntimeError: boom")
    assert "Traceback (most recent call last)" in plugin.stderr
    assert "boom" not in json.dumps(plugin.frames)
    # sys.exit() in a tool is a crash of that invoke, not of the plugin
    assert plugin.invoke("fail", {"kind": "exit"})["error"]["code"] == -32603
    assert plugin.request("health")["result"]["status"] == "ready"


def test_a_tool_in_the_manifest_without_a_binding_is_32603(plugin):
    assert plugin.invoke("unbound", {})["error"]["code"] == -32603
    plugin.wait_for_stderr("executa manifest")


def test_concurrent_invokes_run_concurrently(plugin):
    started = time.monotonic()
    ids = [plugin.invoke_async("slow", {"ms": 400}) for _ in range(3)]
    ids += [plugin.invoke_async("slow_async", {"ms": 400}) for _ in range(3)]
    answers = [plugin.response(id) for id in ids]
    assert all(a["result"]["success"] for a in answers)
    took = time.monotonic() - started
    assert took < 1.5, f"took {took:.2f} s"


# tool context


def test_invoke_id_and_deadline_ms_from_context_legacy_invoke_id_and_defaults(plugin):
    given = plugin.invoke("context_info", {}, context={"invoke_id": "inv-1", "deadline_ms": 1234567})
    assert given["result"]["data"] == {"tool": "context_info", "invoke_id": "inv-1", "deadline_ms": 1234567, "secret": None}
    assert plugin.invoke("context_info", {}, invoke_id="legacy-1")["result"]["data"]["invoke_id"] == "legacy-1"
    before = time.time() * 1000
    none = plugin.invoke("context_info", {})["result"]["data"]
    assert none["invoke_id"] == ""
    assert abs(none["deadline_ms"] - (before + 5000)) < 1000  # context_info declares timeout 5 (seconds)


def test_credential_reads_context_credentials_then_the_environment(spawn):
    plugin = spawn(env={"TEST_SECRET": "from-env"})
    assert plugin.invoke("context_info", {})["result"]["data"]["secret"] == "from-env"
    given = plugin.invoke("context_info", {}, context={"credentials": {"TEST_SECRET": "from-context"}})
    assert given["result"]["data"]["secret"] == "from-context"


def test_sign_message_reads_signing_secret_the_same_way(spawn):
    plugin = spawn(env={"SIGNING_SECRET": "env-key"})

    def expected(key):
        return hmac.new(key.encode(), "héllo".encode(), hashlib.sha256).hexdigest()

    from_env = plugin.invoke("sign_message", {"message": "héllo"})
    assert from_env["result"]["data"] == {"algorithm": "HMAC-SHA256", "signature": expected("env-key")}
    from_context = plugin.invoke("sign_message", {"message": "héllo"}, context={"credentials": {"SIGNING_SECRET": "ctx-key"}})
    assert from_context["result"]["data"]["signature"] == expected("ctx-key")


def test_sign_message_without_a_secret_is_success_false_with_the_configuration_hint(spawn):
    plugin = spawn(env={"SIGNING_SECRET": ""})
    answer = plugin.invoke("sign_message", {"message": "x"})
    assert answer["result"]["success"] is False
    assert answer["result"]["error"].startswith("SIGNING_SECRET is not configured.")


# reverse requests


def test_summarize_sends_sampling_create_message_stamped_with_the_invoke_id(plugin):
    plugin.initialize("2.0")
    id = plugin.invoke_async("summarize", {"text": "Some text.", "max_words": 10}, context={"invoke_id": "inv-s"})
    request = plugin.reverse_request()
    assert request["jsonrpc"] == "2.0"
    assert re.fullmatch(r"[0-9a-f]{32}", request["id"])
    assert request["params"] == {
        "messages": [
            {"role": "user", "content": {"type": "text", "text": "Summarize the following text in at most 10 words:\n\nSome text."}}
        ],
        "maxTokens": 40,
        "metadata": {"tool": "summarize", "executa_invoke_id": "inv-s"},
        "context": {"invoke_id": "inv-s"},
    }
    plugin.reply(request["id"], {"role": "assistant", "content": {"type": "text", "text": "Short."}, "model": "m-1"})
    assert plugin.response(id)["result"]["data"] == {"summary": "Short.", "model": "m-1"}


def test_a_v1_host_gets_no_reverse_request_summarize_fails_locally(plugin):
    plugin.initialize("1.1")
    answer = plugin.invoke("summarize", {"text": "x"})
    assert answer["result"]["success"] is False
    assert answer["result"]["error"] == (
        "summarize needs an Anna host that speaks Executa protocol 2.0 with sampling; this host did not negotiate it."
    )
    storage = plugin.invoke("kv", {"key": "k"})
    assert storage["result"]["error"].startswith("storage/set failed: [-32021] ")
    assert [f for f in plugin.frames if "method" in f] == []


def test_a_host_refusal_of_summarize_is_success_false_with_the_code_and_the_hint(plugin):
    plugin.initialize("2.0")
    id = plugin.invoke_async("summarize", {"text": "x"})
    plugin.reply_error(plugin.reverse_request()["id"], -32001, "sampling is not granted")
    assert plugin.response(id)["result"]["error"] == (
        "The host refused the sampling request: [-32001] sampling is not granted Grant sampling to this plugin in Anna's settings."
    )


def test_without_the_capability_in_the_manifest_the_call_fails_locally(spawn):
    plugin = spawn(env={"TEST_PLUGIN_CAPABILITIES": "[]"})
    plugin.initialize("2.0")
    sampling = plugin.invoke("sample_echo", {"prompt": "x"})
    assert re.match(r"^sampling/createMessage failed: \[-32008\] .*llm\.sample", sampling["result"]["error"])
    storage = plugin.invoke("kv", {"key": "k"})
    assert re.match(r"^storage/set failed: \[-32021\] .*aps\.kv", storage["result"]["error"])
    assert [f for f in plugin.frames if "method" in f] == []


def test_concurrent_invokes_with_reverse_requests_answered_out_of_order(plugin):
    plugin.initialize("2.0")
    ids = {name: plugin.invoke_async("sample_echo", {"prompt": name}, context={"invoke_id": f"inv-{name}"}) for name in "ABC"}
    requests = [plugin.reverse_request() for _ in ids]
    for r in requests:
        prompt = r["params"]["messages"][0]["content"]["text"]
        assert r["params"]["context"]["invoke_id"] == f"inv-{prompt}"
        assert r["params"]["metadata"]["executa_invoke_id"] == f"inv-{prompt}"
    assert len({r["id"] for r in requests}) == 3
    for r in reversed(requests):
        text = r["params"]["messages"][0]["content"]["text"]
        plugin.reply(r["id"], {"content": {"type": "text", "text": f"answer to {text}"}, "model": "m"})
    for name, id in ids.items():
        assert plugin.response(id)["result"]["data"] == {"text": f"answer to {name}", "invoke_id": f"inv-{name}"}


def test_a_reverse_request_times_out_from_the_deadline_and_a_late_answer_is_dropped(plugin):
    plugin.initialize("2.0")
    started = time.monotonic()
    id = plugin.invoke_async(
        "sample_echo", {"prompt": "x"}, context={"invoke_id": "late", "deadline_ms": time.time() * 1000 + 300}
    )
    request = plugin.reverse_request()
    result = plugin.response(id)["result"]
    assert time.monotonic() - started < 2
    assert result["success"] is False
    assert result["error"].startswith("sampling/createMessage failed: [-32005] ")
    plugin.reply(request["id"], {"content": {"type": "text", "text": "too late"}})
    assert plugin.request("health")["result"]["status"] == "ready"
    plugin.wait_for_stderr("unknown request id")


def test_storage_helpers_set_and_get_with_scope_tool(plugin):
    plugin.initialize("2.0")
    id = plugin.invoke_async("kv", {"key": "k1"}, context={"invoke_id": "inv-kv"})
    set_ = plugin.reverse_request("storage/set")
    assert set_["params"] == {
        "key": "k1",
        "value": {"n": 1},
        "scope": "tool",
        "context": {"invoke_id": "inv-kv"},
        "metadata": {"executa_invoke_id": "inv-kv"},
    }
    plugin.reply(set_["id"], {"etag": "e1", "generation": 1, "size_bytes": 7})
    get = plugin.reverse_request("storage/get")
    assert (get["params"]["key"], get["params"]["scope"]) == ("k1", "tool")
    plugin.reply(get["id"], {"value": {"n": 1}, "etag": "e1", "exists": True})
    assert plugin.response(id)["result"]["data"] == {
        "set": {"etag": "e1", "generation": 1, "size_bytes": 7},
        "got": {"value": {"n": 1}, "etag": "e1", "exists": True},
    }


# large responses


def test_a_response_over_512_kib_goes_by_file_transport_in_a_0600_file(spawn, tmp_path):
    plugin = spawn(env={"TMPDIR": str(tmp_path), "TEMP": str(tmp_path), "TMP": str(tmp_path)})
    answer = plugin.invoke("huge", {"bytes": 600 * 1024})
    assert list(answer) == ["jsonrpc", "id", "__file_transport"]
    path = answer["__file_transport"]
    assert os.path.dirname(path) == str(tmp_path)
    assert re.fullmatch(r"executa-resp-[0-9a-f]{32}\.json", os.path.basename(path))
    if not IS_WINDOWS:
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    with open(path, encoding="utf-8") as f:
        full = json.load(f)
    assert (full["jsonrpc"], full["id"], full["result"]["success"], len(full["result"]["data"])) == ("2.0", answer["id"], True, 600 * 1024)
    os.unlink(path)
    small = plugin.invoke("huge", {"bytes": 500 * 1024})
    assert len(small["result"]["data"]) == 500 * 1024


# stopping


def test_stdin_closed_mid_invoke_the_invoke_is_still_answered_then_exit_0(plugin):
    id = plugin.invoke_async("slow", {"ms": 300})
    plugin.wait_for_stderr("slow 300: started")
    plugin.close_stdin()
    assert plugin.response(id)["result"]["data"] == {"slept": 300}
    assert plugin.wait() == 0


@posix_only
def test_sigterm_during_a_slow_tool_is_answered_within_the_grace_then_exit_0(plugin):
    id = plugin.invoke_async("slow", {"ms": 500})
    plugin.wait_for_stderr("slow 500: started")
    plugin.kill(signal.SIGTERM)
    assert plugin.response(id)["result"]["data"] == {"slept": 500}
    assert plugin.wait() == 0


@posix_only
def test_a_tool_slower_than_the_3_s_grace_exits_0_when_the_grace_is_over(plugin):
    plugin.invoke_async("slow", {"ms": 20_000})
    plugin.wait_for_stderr("slow 20000: started")
    started = time.monotonic()
    plugin.kill(signal.SIGTERM)
    assert plugin.wait() == 0
    took = time.monotonic() - started
    assert 2.9 <= took < 4.5, f"took {took:.2f} s"


@posix_only
def test_a_second_sigterm_exits_at_once(plugin):
    plugin.invoke_async("slow", {"ms": 20_000})
    plugin.wait_for_stderr("slow 20000: started")
    plugin.kill(signal.SIGTERM)
    plugin.wait_for_stderr("waiting up to")
    started = time.monotonic()
    plugin.kill(signal.SIGTERM)
    assert plugin.wait() == 0
    assert time.monotonic() - started < 1


@posix_only
def test_sigint_stops_like_sigterm(plugin):
    plugin.request("health")
    plugin.kill(signal.SIGINT)
    assert plugin.wait() == 0


def test_stdin_eof_with_nothing_in_flight_exits_0_at_once(spawn):
    plugin = spawn("main")
    plugin.request("describe")
    started = time.monotonic()
    plugin.close_stdin()
    assert plugin.wait() == 0
    assert time.monotonic() - started < 1


# load


def test_a_flood_of_10000_frames_is_all_answered_in_a_reasonable_time(plugin):
    started = time.monotonic()
    lines = []
    for i in range(10_000):
        if i % 2 == 0:
            lines.append(json.dumps(health(i)))
        else:
            args = {"text": f"word {i} word"}
            lines.append(json.dumps({"jsonrpc": "2.0", "id": i, "method": "invoke", "params": {"tool": "text_stats", "arguments": args}}))
    plugin.send("\n".join(lines) + "\n")
    plugin.response(9_999, timeout=30)
    deadline = time.monotonic() + 10
    while len(plugin.frames) < 10_000 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len({f["id"] for f in plugin.frames}) == 10_000
    assert all(f["result"].get("status") == "ready" or f["result"].get("success") is True for f in plugin.frames)
    took = time.monotonic() - started
    assert took < 15, f"took {took:.2f} s"
