"""Random ids: reverse-request ids."""

import os


def random_hex() -> str:
    """32 random hex characters."""
    return os.urandom(16).hex()
