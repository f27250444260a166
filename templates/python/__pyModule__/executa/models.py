"""The host's other models: ``embeddings/create`` and ``image/generate`` / ``image/edit``."""

from __future__ import annotations

from typing import TypedDict


class EmbeddingsResult(TypedDict, total=False):
    """The host's ``{object: "list", model, data: [{object, index, embedding}], usage, _meta}`` and ``vectors``."""

    object: str
    model: str
    data: list
    usage: dict
    _meta: dict
    vectors: list[list[float]]  # the embeddings in input order (by index)


class ImageResult(TypedDict, total=False):
    """``{images: [{url, mimeType, width?, height?}], model, quota_used, _meta?}``."""

    images: list[dict]
    model: str
    quota_used: dict
    _meta: dict


def _given(members: dict) -> dict:
    return {k: v for k, v in members.items() if v is not None}


def _index(item: dict) -> float:
    index = item.get("index")
    return index if isinstance(index, (int, float)) else 0


class Embeddings:
    """``embeddings/create`` (``ctx.host.embeddings``; needs ``llm.embed``)."""

    def __init__(self, r) -> None:
        self._r = r

    def create(self, input: str | list[str], *, model: str | None = None, timeout: float | None = None) -> EmbeddingsResult:
        """Embeds one string or a non-empty list of strings.

        Args:
            input: The text(s) to embed.
            model: A model alias; the host's default (``anna-managed-v1``) when not given.
            timeout: Seconds to wait; 30 by default.
        """
        method = "embeddings/create"
        items = [input] if isinstance(input, str) else input
        if not isinstance(items, (list, tuple)) or not items:
            raise self._r.invalid(method, "input must be a string or a non-empty list of strings")
        bad = next((i for i, item in enumerate(items) if not isinstance(item, str)), None)
        if bad is not None:
            raise self._r.invalid(method, f"input[{bad}] is not a string")
        result = self._r.call(method, {"input": list(items), **_given({"model": model})}, timeout)
        given = result.get("data")
        data = [d for d in given if isinstance(d, dict)] if isinstance(given, list) else []
        return {**result, "data": data, "vectors": [d.get("embedding") for d in sorted(data, key=_index)]}


class Images:
    """``image/generate`` (needs ``llm.image``) and ``image/edit`` (needs ``llm.image.edit``): ``ctx.host.image``."""

    def __init__(self, r) -> None:
        self._r = r

    def generate(
        self,
        prompt: str,
        *,
        n: int = 1,
        size: str | None = None,
        reference_image_urls: list[str] | None = None,
        model_preferences: dict | None = None,
        metadata: dict | None = None,
        timeout: float | None = None,
    ) -> ImageResult:
        """Generates ``n`` images from a prompt.

        Args:
            prompt: What to draw.
            n: How many images.
            size: ``"WIDTHxHEIGHT"``, e.g. ``"1024x1024"``.
            reference_image_urls: Images to take the style or subject from.
            model_preferences: ``modelPreferences``.
            metadata: Extra ``metadata``.
            timeout: Seconds to wait; 120 by default.
        """
        optional = {"size": size, "reference_image_urls": reference_image_urls, "modelPreferences": model_preferences, "metadata": metadata}
        return self._r.call("image/generate", {"prompt": prompt, "n": n, **_given(optional)}, timeout)

    def edit(
        self,
        image_url: str,
        prompt: str,
        *,
        mask_url: str | None = None,
        n: int = 1,
        size: str | None = None,
        model_preferences: dict | None = None,
        metadata: dict | None = None,
        timeout: float | None = None,
    ) -> ImageResult:
        """Edits an image as the prompt says.

        Args:
            image_url: The image to edit.
            prompt: The change to make.
            mask_url: A one-channel PNG of the same size, white where the image is edited.
            n: How many images.
            size: ``"WIDTHxHEIGHT"``.
            model_preferences: ``modelPreferences``.
            metadata: Extra ``metadata``.
            timeout: Seconds to wait; 120 by default.
        """
        optional = {"size": size, "modelPreferences": model_preferences, "metadata": metadata, "mask_url": mask_url}
        return self._r.call("image/edit", {"image_url": image_url, "prompt": prompt, "n": n, **_given(optional)}, timeout)
