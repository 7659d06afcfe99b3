"""The server's door: what every HTTP request goes through before the app sees it.

- **Security headers** on every HTTP answer (:data:`SECURITY_HEADERS`): a strict Content Security Policy
  (``default-src 'self'``, no framing), no referrer sent elsewhere, no content-type sniffing — the seat and
  organiser tokens live in the browser's storage, so no script but the server's own may run on its pages.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The pages' Content Security Policy: everything from the server itself, nothing inline, never framed."""

SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
"""Sent with every HTTP answer (``X-Frame-Options`` for browsers older than ``frame-ancestors``)."""


class Guard:
    """The checks of :mod:`.guard` (:meth:`http` wraps the app's HTTP requests)."""

    async def http(self, app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
        """Run an HTTP request through ``app``; every answer gets the security headers."""

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        await app(scope, receive, send_secured)
