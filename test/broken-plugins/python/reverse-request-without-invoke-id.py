#!/usr/bin/env python3
"""Fault: reverse requests carry no context.invoke_id (fails reverse.invoke-id)."""
from _core import serve

serve(no_invoke_id=True)
