"""The typed host client of one invoke (``ctx.host``): a helper per host service
(create-executa's docs/host-services.md), each on ``request``."""

from __future__ import annotations

from . import uploads
from .agent import AgentClient
from .models import Embeddings, Images
from .sampling import OnUnsupported, ResponseFormat, SampleResult, SamplingMessage, request_params, sample
from .storage import Storage
from .uploads import Bytes, Files, UploadResult
from .web import Web


class HostClient:
    """Reverse requests on behalf of one invoke. Every call blocks until the host answers, the
    call's timeout passes (in seconds; each method's default is in docs/host-services.md) or the
    invoke's deadline comes, whichever is first.

    Every failure raises :class:`HostError`: an error answer, a timeout (the namespace's TIMEOUT
    code), and, without sending anything, a host whose initialize offered a protocol other than 2.0, a manifest
    without the capability the method needs, or a request the host would refuse (the namespace's
    INVALID_REQUEST code).

    Attributes:
        agent: ``agent/*``: ``complete``, ``create`` -> session, ``list``, ``session(uuid)``.
        embeddings: ``embeddings/create``.
        image: ``image/generate`` and ``image/edit``.
        files: ``files/*``: ``upload``, ``download_url``, ``list``, ``delete``.
        storage: ``storage/*``: ``get``, ``set``, ``delete``, ``list``.
        web: ``web/search`` and ``web/fetch``: ``search``, ``fetch``.
    """

    def __init__(self, r) -> None:
        self._r = r
        self.agent = AgentClient(r)
        self.embeddings = Embeddings(r)
        self.image = Images(r)
        self.files = Files(r)
        self.storage = Storage(r)
        self.web = Web(r)

    def request(self, method: str, params: dict | None = None, timeout: float | None = None):
        """Any reverse request; returns the host's ``result``.

        Args:
            method: e.g. ``sampling/createMessage``.
            params: The request's params; ``context.invoke_id`` is added (and ``metadata.executa_invoke_id``
                to sampling, agent/complete and image requests, whose hosts read it).
            timeout: Seconds to wait (the method's default when not given), never past the invoke's deadline.
        """
        return self._r.request(method, params, timeout)

    def sample(
        self,
        messages: list[SamplingMessage] | None = None,
        *,
        prompt: str | None = None,
        max_tokens: int = 1024,
        system_prompt: str | None = None,
        temperature: float | None = None,
        stop_sequences: list[str] | None = None,
        model_preferences: dict | None = None,
        metadata: dict | None = None,
        response_format: ResponseFormat | None = None,
        on_unsupported: OnUnsupported | None = None,
        timeout: float | None = None,
    ) -> SampleResult:
        """``sampling/createMessage``: asks the host's language model (needs ``llm.sample``).

        Returns the host's result (``role``, ``content``, ``model``, ``stopReason``, ``usage``,
        ``_meta``) with ``text``, ``structured_valid``, ``downgraded`` and ``parsed`` (the JSON value
        of the text when a response format was asked for and the text is valid for it, else None).

        Args:
            messages: ``[{"role": "user", "content": {"type": "text", "text": ...}}]``; or give ``prompt``.
            prompt: A single user message, when ``messages`` is not given.
            max_tokens: ``maxTokens`` (the host caps it at 8192).
            system_prompt: ``systemPrompt``.
            temperature: The sampling temperature (the host uses 0.7 when omitted).
            stop_sequences: ``stopSequences``.
            model_preferences: ``modelPreferences``: ``{hints: [{name}], costPriority, ...}``.
            metadata: Extra ``metadata``, e.g. ``{"tool": "summarize"}``.
            response_format: ``{"type": "json_object"}``, or ``{"type": "json_schema", "json_schema":
                {"name", "schema", "strict"}}`` (strict True when not given). A schema past the host's
                limits (name ``^[a-zA-Z0-9_-]{1,64}$``, 32,768 bytes, 8 levels, 512 subschemas) is
                refused before sending (-32004 INVALID_REQUEST).
            on_unsupported: When the model cannot honour ``response_format``: ``"error"`` (the host's
                default, -32010), or downgrade to ``"json_object"`` or ``"text"``.
            timeout: Seconds to wait; 90 by default.
        """
        optional = {
            "systemPrompt": system_prompt,
            "temperature": temperature,
            "stopSequences": stop_sequences,
            "modelPreferences": model_preferences,
            "metadata": metadata,
            "responseFormat": response_format,
            "onUnsupported": on_unsupported,
        }
        method = "sampling/createMessage"
        return sample(self._r, method, request_params(self._r, method, messages, prompt, max_tokens, optional), timeout)

    def upload(
        self,
        data: Bytes,
        *,
        filename: str,
        mime_type: str,
        purpose: str | None = None,
        metadata: dict | None = None,
        timeout: float | None = None,
    ) -> UploadResult:
        """``host/uploadFile`` (needs ``host.upload``): a transient upload; returns ``{download_url,
        r2_key, expires_at, size_bytes}``. Up to 8 MiB goes inline, larger is negotiated, PUT to
        the host's URL and confirmed.

        Args:
            data: The bytes (a str is sent as its UTF-8).
            filename: The file's name.
            mime_type: e.g. ``image/png``.
            purpose: ``image_input``, ``image_reference`` or ``user_artifact``.
            metadata: Extra ``metadata``.
            timeout: Seconds to wait for each step (inline 120, negotiate 60, confirm 30; the PUT 120 by default).
        """
        return uploads.upload(self._r, data, filename=filename, mime_type=mime_type, purpose=purpose, metadata=metadata, timeout=timeout)
