"""The reverse-RPC namespaces (create-executa's docs/host-services.md): the capabilities that
unlock each method, how long to wait for it, and the codes of its namespace."""

from __future__ import annotations

from . import errors
from .errors import INTERNAL_ERROR, INVALID_PARAMS, HostError, WebError


class Namespace:
    def __init__(self, names: dict, refusal_code: int, timeout_code: int, invalid_code: int, error_codes: dict | None = None) -> None:
        self.names = names  # code -> its name in this namespace (HostError.code_name)
        self.refusal_code = refusal_code  # a local refusal: protocol 2.0 not negotiated, or the manifest lacks the capability
        self.timeout_code = timeout_code
        self.invalid_code = invalid_code  # what the host would refuse, known before sending (a schema over the limits, a bad scope)
        # web/*: the platform names web errors by data.errorCode (invalid_arg, not_implemented, ...), not
        # by codes of their own; these are the names of the runtime's local errors ("refusal", "timeout", "invalid").
        self.error_codes = error_codes


SAMPLING = Namespace(
    errors.code_names("SAMPLING"), errors.SAMPLING_NOT_NEGOTIATED, errors.SAMPLING_TIMEOUT, errors.SAMPLING_INVALID_REQUEST
)
# agent/session.* shares sampling's timeout and refusal codes
AGENT = Namespace(
    {**errors.code_names("AGENT"), errors.SAMPLING_TIMEOUT: "TIMEOUT", errors.SAMPLING_NOT_NEGOTIATED: "NOT_NEGOTIATED"},
    errors.SAMPLING_NOT_NEGOTIATED,
    errors.SAMPLING_TIMEOUT,
    errors.AGENT_INVALID_REQUEST,
)
STORAGE = Namespace(errors.code_names("STORAGE"), errors.STORAGE_NOT_GRANTED, errors.STORAGE_TIMEOUT, errors.STORAGE_INVALID_REQUEST)
UPLOAD = Namespace(errors.code_names("UPLOAD"), errors.UPLOAD_NOT_GRANTED, errors.UPLOAD_TIMEOUT, errors.UPLOAD_INVALID_REQUEST)
IMAGE = Namespace(errors.code_names("IMAGE"), errors.IMAGE_NOT_GRANTED, errors.IMAGE_TIMEOUT, errors.IMAGE_INVALID_REQUEST)
EMBEDDINGS = Namespace(
    errors.code_names("EMBEDDINGS"), errors.EMBEDDINGS_NOT_NEGOTIATED, errors.EMBEDDINGS_TIMEOUT, errors.EMBEDDINGS_INVALID_REQUEST
)


WEB = Namespace(
    {INVALID_PARAMS: "invalid_arg", INTERNAL_ERROR: "internal"},
    INTERNAL_ERROR,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    {"refusal": "permission_denied", "timeout": "timeout", "invalid": "invalid_arg"},
)


class MethodRule:
    def __init__(self, namespace: Namespace, capabilities: tuple, timeout_s: float) -> None:
        self.namespace = namespace
        self.capabilities = capabilities  # manifest host_capabilities, any of which unlocks the method (none: no namespace)
        self.timeout_s = timeout_s  # the default wait


# The capabilities that unlock each method: create-executa's src/protocol/capabilities.ts.
_AGENT_SESSION = ("llm.agent.auto", "llm.agent.fixed")
_KV = (
    "aps.kv",
    "aps.scope.admin",
    "aps.scope.app.read",
    "aps.scope.app.write",
    "aps.scope.tool.read",
    "aps.scope.tool.write",
    "aps.scope.user.read",
    "aps.scope.user.write",
)
_FILES = ("aps.files", "aps.scope.admin")

# A method, or a prefix ending in "/" or "." -> its rule; the first that matches wins.
_METHODS = (
    ("sampling/createMessage", SAMPLING, ("llm.sample",), 90.0),
    ("agent/complete", SAMPLING, ("llm.sample",), 120.0),
    ("agent/session.create", AGENT, _AGENT_SESSION, 30.0),
    ("agent/session.run", AGENT, _AGENT_SESSION, 300.0),
    ("agent/session.list", AGENT, _AGENT_SESSION, 15.0),
    ("agent/session.refresh", AGENT, _AGENT_SESSION, 15.0),
    ("agent/session.", AGENT, _AGENT_SESSION, 60.0),
    ("storage/", STORAGE, _KV, 30.0),
    ("files/upload_begin", STORAGE, _FILES, 60.0),
    ("files/upload_complete", STORAGE, _FILES, 60.0),
    ("files/", STORAGE, _FILES, 30.0),
    ("host/uploadFile", UPLOAD, ("host.upload",), 120.0),
    ("image/generate", IMAGE, ("llm.image",), 120.0),
    ("image/edit", IMAGE, ("llm.image.edit",), 120.0),
    ("embeddings/create", EMBEDDINGS, ("llm.embed",), 30.0),
    ("web/search", WEB, ("web.search",), 30.0),
    ("web/fetch", WEB, ("web.fetch",), 60.0),
)

# The methods whose host reads metadata.executa_invoke_id (the others' metadata is the caller's own, or none).
INVOKE_ID_METADATA = frozenset({"sampling/createMessage", "agent/complete", "image/generate", "image/edit"})

# host/uploadFile waits by mode.
_UPLOAD_TIMEOUTS = {"inline": 120.0, "negotiate": 60.0, "confirm": 30.0}

# The HTTP PUT of an upload (host/uploadFile negotiate, files/upload_begin).
PUT_TIMEOUT_S = 120.0

# A method of no namespace: no capability needed, sampling's codes.
_OTHER = MethodRule(SAMPLING, (), 90.0)


def rule_for(method: str, params: dict | None = None) -> MethodRule:
    """The rule of a method; ``params`` picks host/uploadFile's wait by its ``mode``."""
    for name, namespace, capabilities, timeout_s in _METHODS:
        if method.startswith(name) if name.endswith(("/", ".")) else method == name:
            mode = params.get("mode") if method == "host/uploadFile" and isinstance(params, dict) else None
            if type(mode) is str and mode in _UPLOAD_TIMEOUTS:
                timeout_s = _UPLOAD_TIMEOUTS[mode]
            return MethodRule(namespace, capabilities, timeout_s)
    return _OTHER


def local_data(namespace: Namespace, kind: str):
    """The ``data`` of a local error of ``kind`` ("refusal", "timeout", "invalid"): web errors carry their name there, as the platform's do."""
    return {"errorCode": namespace.error_codes[kind]} if namespace.error_codes else None


def host_error(namespace: Namespace, method: str, code: int, message: str, data: object = None) -> HostError:
    """A HostError of the method, in its namespace; a WebError for ``web/*``."""
    error = WebError if namespace.error_codes else HostError
    return error(code, message, data, method=method, code_name=code_name(namespace, code, data))


def code_name(namespace: Namespace, code: int, data: object = None) -> str:
    """The name of ``code`` in the namespace (for -32602, and every web error, the host's ``data.errorCode``), or ``UNKNOWN``."""
    if (code == INVALID_PARAMS or namespace.error_codes) and isinstance(data, dict):
        error_code = data.get("errorCode")
        if isinstance(error_code, str) and error_code:
            return error_code
    return namespace.names.get(code, "UNKNOWN")
