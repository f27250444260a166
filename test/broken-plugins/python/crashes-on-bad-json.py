#!/usr/bin/env python3
"""Fault: an uncaught exception on a line that is not JSON (fails jsonrpc.parse-error)."""
from _core import serve

serve(crash_on_bad_json=True)
