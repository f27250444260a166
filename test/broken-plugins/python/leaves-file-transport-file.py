#!/usr/bin/env python3
"""Fault: file transport leaves a second file in the temp folder (fails transport.file)."""
from _core import serve

serve(leave_file=True)
