#!/usr/bin/env python3
"""The correct plugin: passes every conformance check."""
from _core import serve

serve()
