"""A minimal chat-completion client for query expansion: Ollama (``/api/chat`` or ``/api/generate``) and
any OpenAI-compatible ``/v1/chat/completions``.

Standard library only, like the embedding providers in :mod:`codesift.embed.http` (it shares their
``post_json`` and :class:`ProviderError`). One call, no retries: the caller has a short time budget and falls
back to the plain query on any error.
"""

from __future__ import annotations

from codesift.embed.http import ProviderError, post_json

PROVIDERS = ("ollama", "openai")
DEFAULT_URLS = {"ollama": "http://127.0.0.1:11434", "openai": "http://127.0.0.1:8000/v1"}


class ChatClient:
    """``complete(system, user)`` → the model's reply text; raises :class:`ProviderError`.

    ``url`` is the server's base (``http://host:11434``, ``http://host/v1``) or a full endpoint
    (``…/api/chat``, ``…/api/generate``, ``…/chat/completions``)."""

    def __init__(self, provider: str, url: str, model: str, *, api_key: str | None = None,
                 timeout: float = 2.0) -> None:
        if provider not in PROVIDERS:
            raise ValueError(f"chat provider must be one of {', '.join(PROVIDERS)}, got {provider!r}")
        self.provider, self.model, self.api_key, self.timeout = provider, model, api_key, timeout
        url = url.rstrip("/")
        if provider == "ollama":
            self.endpoint = url if url.endswith(("/api/chat", "/api/generate")) else f"{url}/api/chat"
        else:
            self.endpoint = url if url.endswith("/chat/completions") else f"{url}/chat/completions"

    @property
    def model_id(self) -> str:
        return f"{self.provider}:{self.model}"

    def complete(self, system: str, user: str) -> str:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        if self.endpoint.endswith("/api/generate"):
            payload = {"model": self.model, "system": system, "prompt": user, "stream": False,
                       "format": "json", "options": {"temperature": 0}}
            data = post_json(self.endpoint, payload, headers, self.timeout)
            text = data.get("response") if isinstance(data, dict) else None
        else:
            messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
            if self.provider == "ollama":
                payload = {"model": self.model, "messages": messages, "stream": False, "format": "json",
                           "options": {"temperature": 0}}
                data = post_json(self.endpoint, payload, headers, self.timeout)
                message = data.get("message") if isinstance(data, dict) else None
                text = message.get("content") if isinstance(message, dict) else None
            else:
                payload = {"model": self.model, "messages": messages, "temperature": 0, "max_tokens": 200}
                data = post_json(self.endpoint, payload, headers, self.timeout)
                try:
                    text = data["choices"][0]["message"]["content"]
                except (KeyError, IndexError, TypeError):
                    text = None
        if not isinstance(text, str):
            raise ProviderError(f"{self.endpoint} answered without a reply text")
        return text
