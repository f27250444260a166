#!/usr/bin/env python3
"""Fault: describe returns a manifest with no tools (fails describe)."""
from _core import MANIFEST, serve

serve(manifest={**MANIFEST, "tools": []})
