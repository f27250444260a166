"""The two errors a tool deals with, and the error codes the runtime uses."""

# JSON-RPC error codes the runtime answers with.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SHUTTING_DOWN = -32000  # a request that arrives while the plugin is stopping

# Reverse-RPC error codes of every namespace (the reference's names); files/* shares storage's.
# sampling/createMessage and agent/complete; the agent sessions share TIMEOUT and NOT_NEGOTIATED.
SAMPLING_NOT_GRANTED = -32001
SAMPLING_QUOTA_EXCEEDED = -32002
SAMPLING_PROVIDER_ERROR = -32003
SAMPLING_INVALID_REQUEST = -32004
SAMPLING_TIMEOUT = -32005
SAMPLING_MAX_CALLS_EXCEEDED = -32006
SAMPLING_MAX_TOKENS_EXCEEDED = -32007
SAMPLING_NOT_NEGOTIATED = -32008
SAMPLING_USER_DENIED = -32009
SAMPLING_UNSUPPORTED_RESPONSE_FORMAT = -32010

# storage/* and files/*
STORAGE_NOT_GRANTED = -32021
STORAGE_NOT_FOUND = -32022
STORAGE_PRECONDITION_FAILED = -32023
STORAGE_QUOTA_EXCEEDED = -32024
STORAGE_VALUE_TOO_LARGE = -32025
STORAGE_RATE_LIMITED = -32026
STORAGE_INVALID_PATH = -32027
STORAGE_INVALID_REQUEST = -32028
STORAGE_UPSTREAM = -32029
STORAGE_TIMEOUT = -32030

# agent/session.*
AGENT_NOT_GRANTED = -32041
AGENT_SESSION_NOT_FOUND = -32042
AGENT_INVALID_REQUEST = -32043
AGENT_SUBMODE_MISMATCH = -32044
AGENT_QUOTA_EXCEEDED = -32045
AGENT_PROVIDER_ERROR = -32046
AGENT_RATE_LIMITED = -32047
AGENT_TOOL_NOT_GRANTED = -32048

# image/generate and image/edit
IMAGE_NOT_GRANTED = -32101
IMAGE_QUOTA_EXCEEDED = -32102
IMAGE_PROVIDER_ERROR = -32103
IMAGE_INVALID_REQUEST = -32104
IMAGE_TIMEOUT = -32105
IMAGE_MAX_IMAGES_EXCEEDED = -32106
IMAGE_NOT_NEGOTIATED = -32107
IMAGE_USER_DENIED = -32108
IMAGE_NO_MODEL_AVAILABLE = -32109
IMAGE_STORAGE_ERROR = -32110
IMAGE_EDIT_NOT_SUPPORTED = -32311
IMAGE_MASK_UNSUPPORTED = -32312
IMAGE_N_UNSUPPORTED = -32313
IMAGE_REFERENCE_FETCH_FAILED = -32314

# host/uploadFile
UPLOAD_NOT_GRANTED = -32201
UPLOAD_QUOTA_EXCEEDED = -32202
UPLOAD_INVALID_REQUEST = -32203
UPLOAD_TOO_LARGE = -32204
UPLOAD_MIME_REJECTED = -32205
UPLOAD_PURPOSE_REJECTED = -32206
UPLOAD_STORAGE_ERROR = -32207
UPLOAD_TIMEOUT = -32208
UPLOAD_USER_DENIED = -32209
UPLOAD_NOT_NEGOTIATED = -32210
UPLOAD_MAX_FILES_EXCEEDED = -32211
UPLOAD_NOT_FOUND = -32212
UPLOAD_PRESIGN_FAILED = -32213

# embeddings/create
EMBEDDINGS_NOT_GRANTED = -32501
EMBEDDINGS_QUOTA_EXCEEDED = -32502
EMBEDDINGS_PROVIDER_ERROR = -32503
EMBEDDINGS_INVALID_REQUEST = -32504
EMBEDDINGS_TIMEOUT = -32505
EMBEDDINGS_MAX_TOKENS_EXCEEDED = -32506
EMBEDDINGS_NOT_NEGOTIATED = -32507
EMBEDDINGS_USER_DENIED = -32508


def code_names(namespace: str) -> dict:
    """Code -> the reference's name, for the constants above named ``<NAMESPACE>_<NAME>``."""
    prefix = namespace + "_"
    return {code: name[len(prefix) :] for name, code in globals().items() if name.startswith(prefix) and type(code) is int}


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

    A HostError a tool does not catch answers the invoke
    ``{success: false, error: "<method> failed: [<code> <code_name>] <message>"}``.

    Attributes:
        code: The JSON-RPC error code, e.g. -32008 (SAMPLING_NOT_NEGOTIATED), -32023 (STORAGE_PRECONDITION_FAILED).
        code_name: The code's name in the method's namespace, e.g. ``PRECONDITION_FAILED``; for -32602
            the host's ``data.errorCode`` (e.g. ``UNKNOWN_INVOKE_CONTEXT``); ``UNKNOWN`` for a code the
            namespace does not define.
        message: The error's message, as the host sent it.
        data: The error's ``data``, if the host sent any.
        method: The reverse-RPC method that failed, e.g. ``sampling/createMessage``.
    """

    def __init__(
        self, code: int, message: str, data: object = None, method: str = "host request", code_name: str = "UNKNOWN"
    ) -> None:
        super().__init__(message)
        self.code = code
        self.code_name = code_name
        self.message = message
        self.data = data
        self.method = method

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"HostError({self.code}, {self.message!r}, method={self.method!r}, code_name={self.code_name!r})"


class WebError(HostError):
    """A ``web/*`` request failed. The platform names web errors by ``data.errorCode`` (``invalid_arg``,
    ``not_implemented``, ``permission_denied``, ...), not by codes of their own.

    Attributes:
        error_code: That name (the runtime's own for a local refusal: ``permission_denied``,
            ``timeout``, ``invalid_arg``); the same as ``code_name``.
    """

    def __init__(self, code: int, message: str, data: object = None, method: str = "host request", code_name: str = "UNKNOWN") -> None:
        super().__init__(code, message, data, method, code_name)
        self.error_code = code_name
