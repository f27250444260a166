#!/usr/bin/env python3
"""Fault: prints a start-up banner on stdout (fails stdout.frames-only)."""
from _core import serve

serve(banner=True)
