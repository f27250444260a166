"""The two errors a tool deals with, and the error codes the runtime uses."""

# JSON-RPC error codes the runtime answers with.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SHUTTING_DOWN = -32000  # a request that arrives while the plugin is stopping

# Reverse-RPC error codes: the ones the runtime raises locally, and the ones a tool commonly checks for.
SAMPLING_NOT_GRANTED = -32001
SAMPLING_TIMEOUT = -32005
SAMPLING_NOT_NEGOTIATED = -32008
SAMPLING_USER_DENIED = -32009
STORAGE_NOT_GRANTED = -32021
STORAGE_TIMEOUT = -32030


class ToolError(Exception):
    """An expected failure to report to the model.

    The invoke is answered ``{success: false, error: message}``. Raise it for bad input,
    missing credentials and the like.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class HostError(Exception):
    """A reverse request failed: the host answered with an error, the wait timed out, or it was refused locally.

    Attributes:
        code: The JSON-RPC error code, e.g. -32008 NOT_NEGOTIATED, -32001 NOT_GRANTED, -32005 TIMEOUT.
        message: The error's message.
        data: The error's ``data``, if the host sent any.
        method: The reverse-RPC method that failed, e.g. ``sampling/createMessage``.
    """

    def __init__(self, code: int, message: str, data: object = None, method: str = "host request") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data
        self.method = method

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"HostError({self.code}, {self.message!r}, method={self.method!r})"
