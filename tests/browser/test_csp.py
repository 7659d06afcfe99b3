"""The pages under the server's Content Security Policy (``default-src 'self'``, nothing inline, never
framed; :mod:`gouji.server.http.guard`): the lobby, a table in play, a match's scorekeeper and an event's page
work, and the browser reports no violation of the policy."""

from __future__ import annotations

from typing import Any

from .conftest import DESKTOP, LiveServer, shot
from .test_table import create_in_lobby

WATCH = """document.addEventListener("securitypolicyviolation", (e) =>
  (window.__csp = window.__csp || []).push(`${e.violatedDirective} ${e.blockedURI}`));"""


def _page(browser: Any, server: LiveServer) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US", base_url=server.url)
    ctx.set_default_timeout(15_000)
    ctx.add_init_script(WATCH)
    page = ctx.new_page()
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: said.append(f"page error: {e}"))
    return ctx, page, said


def _violations(page: Any, said: list[str]) -> list[str]:
    return [*said, *(page.evaluate("window.__csp || []"))]


def test_the_pages_work_under_the_content_security_policy(browser: Any, server: LiveServer) -> None:
    ctx, page, said = _page(browser, server)
    try:
        response = page.goto("/")
        assert "default-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_selector("#create-form")
        page.wait_for_selector("#event-form")
        code = create_in_lobby(page, "Ann", set_length=1)  # a table: its WebSocket, its cards, its styles
        page.wait_for_selector(".hand .card")
        assert page.evaluate("getComputedStyle(document.querySelector('.felt')).backgroundImage") != ""
        shot(page, "csp-table")
        assert server.room(code).conns
        match = server.request("/api/matches", {"bots": [["random"] * 6, ["random"] * 6], "deals": 1})
        page.goto(f"/?match={match['code']}")
        page.wait_for_selector(".scorekeeper")
        event = server.request("/api/events", {"teams": ["Red", "Blue"], "bots": {"Red": "random", "Blue": "random"}})
        page.goto(f"/?event={event['code']}")
        page.wait_for_selector(".event-view")
        shot(page, "csp-event")
        # a page framed by another is refused by the browser (frame-ancestors 'none')
        blocked = page.evaluate(
            """url => new Promise(done => {
                 const f = document.createElement("iframe");
                 f.src = url;
                 f.onload = () => { let ok = false; try { ok = !!f.contentDocument.querySelector("main"); }
                                   catch (e) { ok = false; } done(ok); };
                 document.body.appendChild(f);
               })""",
            server.url + "/",
        )
        assert blocked is False
        violations = _violations(page, said)
        assert [v for v in violations if "frame-ancestors" not in v] == [], violations
        # (and a violation would be seen: an inline style and another site's image)
        page.evaluate("""() => { const d = document.createElement("div");
            d.innerHTML = '<img src="http://127.0.0.2:9/x.png"><span style="color: red">x</span>';
            document.body.appendChild(d); }""")
        page.wait_for_function("(window.__csp || []).length >= 2")
        assert any("img-src" in v for v in _violations(page, said))
    finally:
        ctx.close()
