"""The page on ``codesift serve --http`` in a real headless browser: Debian's Chromium driven by Playwright.

Skipped (with the reason) where either is missing; .ci/run installs both (``apt-get install chromium``,
``pip install -e '.[browser]'``). Playwright's own browser download is never used: the test launches the
system Chromium. Screenshots go to $CODESIFT_SCREENSHOTS when set, else to the test's temporary folder.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from conftest import FILES, http_server, write_repo

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("CODESIFT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
EXTRA = {  # code whose text is markup (shown as text, never run or rendered); a file past 2,000 lines
    "src/banner.py": '''
        def render_banner():
            """Shows <img src=x onerror="window.__xss=1"> and <script>window.__xss=2</script> as text."""
            return "<b>banner</b>"
        ''',
    "src/big.py": "".join(f"X{i} = {i}\n" for i in range(2100)) + "\n\ndef far_down():\n    return X1\n",
}


@pytest.fixture(scope="module")
def playwright_api():
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set CODESIFT_CHROMIUM)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install -e '.[browser]')")
    return sync_playwright


@pytest.fixture
def served(tmp_path):
    """``codesift serve --http`` on a free loopback port over the fixture repository; yields its URL."""
    repo = write_repo(tmp_path / "repo", {**FILES, **EXTRA})
    env = {**os.environ, "CODESIFT_EMBEDDER": "none"}  # keyword answers: deterministic, no model start-up
    with http_server(repo, tmp_path / "server.log", env) as port:
        yield f"http://127.0.0.1:{port}/"


def test_search_open_a_result_and_follow_usages(playwright_api, served, tmp_path):
    shots = Path(os.environ.get("CODESIFT_SCREENSHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []  # script errors and console errors (a CSP violation is one)
    with playwright_api() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 800})
            page.set_default_timeout(20_000)
            page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
            page.on("console", lambda msg: problems.append(f"console: {msg.text}") if msg.type == "error" else None)
            page.goto(served)
            # A locator wait, not wait_for_function: polling a JS predicate needs eval, which the page's
            # Content-Security-Policy forbids (as it should).
            page.locator("#status", has_text="files").wait_for()

            # type a query, see the expected result with the query's words highlighted and path:line
            page.fill("#q", "where are redirects followed")
            page.press("#q", "Enter")
            hit = page.locator("li.result", has_text="SessionRedirectMixin.resolve_redirects").first
            hit.wait_for()
            assert hit.locator(".loc").inner_text() == "src/http/sessions.py:8"
            marked = {m.lower() for m in hit.locator("mark").all_inner_texts()}
            assert {"redirects", "follow"} <= marked and "where" not in marked
            page.screenshot(path=str(shots / "results.png"), full_page=True)

            # open it: the file view with the outline, the live source, the result's lines marked
            hit.locator(".loc").click()
            page.locator("nav.outline li").first.wait_for()
            assert page.locator(".filehead h2").inner_text() == "src/http/sessions.py"
            outline = page.locator("nav.outline").inner_text()
            assert "SessionRedirectMixin" in outline and "rebuild_auth" in outline and "merge_settings" in outline
            assert page.locator("#L8.hl").inner_text().endswith("def resolve_redirects(self, resp, req):")
            end = int(parse_qs(urlsplit(page.url).fragment)["end"][0])  # the result's range (may be merged)
            assert end >= 12 and page.locator(".line.hl").count() == end - 8 + 1
            assert page.locator("#L7.hl").count() == 0
            page.screenshot(path=str(shots / "file.png"), full_page=True)

            # a symbol name → its uses → the file that uses it → back to the uses through the name there
            page.locator("#L8 a.sym", has_text="resolve_redirects").click()
            page.locator("ul.uses-list li", has_text="tests/test_sessions.py:2").wait_for()
            assert "Uses of resolve_redirects" in page.locator("h2.title").inner_text()
            page.screenshot(path=str(shots / "usages.png"), full_page=True)
            page.locator("a.loc", has_text="tests/test_sessions.py:2").click()
            page.locator("#L2.hl a.sym", has_text="resolve_redirects").click()
            page.locator("h2.title", has_text="Uses of resolve_redirects").wait_for()
            for view in (".filehead h2", "h2.title", ".filehead h2"):  # back: test file, uses, sessions.py
                page.go_back()
                page.locator(view).wait_for()
            assert page.locator(".filehead h2").inner_text() == "src/http/sessions.py"

            # markup in code is shown as text, never rendered or run
            page.fill("#q", "render banner")
            page.press("#q", "Enter")
            snippet = page.locator("li.result", has_text="render_banner").first.locator(".snippet")
            assert '<img src=x onerror="window.__xss=1">' in snippet.inner_text()
            assert page.locator("main img, main script, main b").count() == 0
            assert page.evaluate("window.__xss") is None

            # a line past the first 2,000 of a long file opens the definition around it
            page.goto(served + "#file=src/big.py&line=2104")
            assert page.locator("#L2104.hl").inner_text().endswith("return X1")
            assert "showing lines" in page.locator(".filehead").inner_text()

            assert problems == []
            # a refused filter reads as one line, not a blank page (the console logs the 400 itself)
            page.fill("#lang", "cobol")
            page.press("#q", "Enter")
            assert "unknown language 'cobol'" in page.locator("[role=alert]").inner_text()
        finally:
            browser.close()
