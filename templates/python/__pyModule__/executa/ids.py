"""Random ids: reverse-request ids and file-transport names."""

import os


def random_hex() -> str:
    """32 random hex characters."""
    return os.urandom(16).hex()
