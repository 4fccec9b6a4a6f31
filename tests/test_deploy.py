"""A site that can be deployed as it is: its address is a build setting, and it carries a Content-Security-Policy.

* Built without SITE_URL (as ``make site`` builds it unless told), no page,
  sitemap or PDF names an address: no canonical link, an empty sitemap, sheet
  PDFs whose links to the site were made plain text (they are printed from a
  temporary local server, whose address must not end up in them).
* Built with one (a second build into a temporary folder, one sheet printed),
  every canonical link and sitemap entry is under that address, the sitemap
  lists every page, the sheet's links to the site point there, and nothing
  names 127.0.0.1.
* Every page has the policy in a <meta> first in its <head>, listing the
  hash of each of its inline scripts; in Chromium an inline script injected
  into a page, in its HTML or through the DOM, is refused, while the theme's
  own ran (and the calculators answer: every browser test runs under the policy).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zlib
from html import unescape
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import ROOT, open_tab
from scripts.hooks.csp_hooks import script_hashes

ADDRESS = "https://fire-mission.example/rules/"
LOOPBACK = re.compile(r"127\.0\.0\.1|localhost|\[::1\]|0\.0\.0\.0", re.I)
CSP_META = re.compile(r'<meta charset="utf-8">\s*<meta http-equiv="Content-Security-Policy" content="([^"]+)">')


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def named_files(site: Path) -> list[Path]:
    """What names addresses: the pages, the sitemap, the search index."""
    return pages(site) + [site / "sitemap.xml", site / "search" / "search_index.json"]


def pdf_text(pdf: Path) -> bytes:
    """A PDF's bytes with its compressed streams inflated (Chromium deflates its objects)."""
    data = pdf.read_bytes()
    inflated = []
    for match in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        try:
            inflated.append(zlib.decompress(match.group(1)))
        except zlib.error:
            pass  # not deflated (an image, say)
    return b"\n".join([data, *inflated])


def pdf_links(pdf: Path) -> list[str]:
    return [uri.decode("latin-1") for uri in re.findall(rb"/URI\s*\(([^)]*)\)", pdf_text(pdf))]


@pytest.fixture(scope="module")
def addressed_site(tmp_path_factory) -> Path:
    """The site built for ADDRESS, with the Combat HQ sheet printed."""
    out = tmp_path_factory.mktemp("addressed") / "site"
    env = {**os.environ, "SITE_URL": ADDRESS, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(out)], cwd=ROOT, env=env, check=True, timeout=600)
    subprocess.run([sys.executable, "-m", "scripts.build.build_sheets_pdf", str(out), "combat-hq"], cwd=ROOT, env=env, check=True, timeout=600, capture_output=True)
    return out


@pytest.mark.site
def test_the_built_site_names_no_loopback_address_and_without_one_no_address(site):
    addressed = 'rel="canonical"' in (site / "index.html").read_text(encoding="utf-8")  # SITE_URL was set
    for path in named_files(site):
        text = path.read_text(encoding="utf-8")
        assert not LOOPBACK.search(text), path
        assert addressed or 'rel="canonical"' not in text, path
    assert addressed or "<loc>" not in (site / "sitemap.xml").read_text(encoding="utf-8")
    pdfs = sorted((site / "sheets").glob("*.pdf"))
    assert pdfs
    for pdf in pdfs:
        assert not LOOPBACK.search(pdf_text(pdf).decode("latin-1")), pdf
        # Without an address, links to the site were made plain text: any link left leaves the site.
        for uri in pdf_links(pdf):
            assert urlsplit(uri).scheme in ("http", "https") and not LOOPBACK.search(uri), (pdf, uri)


@pytest.mark.site
@pytest.mark.browser
def test_built_with_an_address_everything_names_it_and_no_loopback(addressed_site):
    site = addressed_site
    for path in named_files(site):
        assert not LOOPBACK.search(path.read_text(encoding="utf-8")), path
    for page in site.rglob("index.html"):
        folder = page.parent.relative_to(site).as_posix()
        expected = ADDRESS + ("" if folder == "." else folder + "/")
        assert f'<link rel="canonical" href="{expected}">' in page.read_text(encoding="utf-8"), page
    locs = re.findall(r"<loc>([^<]+)</loc>", (site / "sitemap.xml").read_text(encoding="utf-8"))
    assert f"{ADDRESS}calculators/chq-comms-check/" in locs and ADDRESS in locs
    assert all(loc.startswith(ADDRESS) for loc in locs)
    # The printed sheet links to the site's pages at its address, never to the printing server.
    pdf = site / "sheets" / "combat-hq.pdf"
    assert not LOOPBACK.search(pdf_text(pdf).decode("latin-1"))
    links = pdf_links(pdf)
    # (The web navigation line is not printed; the tables' captions link to themselves on the sheet's page.)
    assert f"{ADDRESS}sheets/combat-hq/#table-comms-dice" in links, links
    assert all(uri.startswith(ADDRESS) and not LOOPBACK.search(uri) for uri in links), links


# ---------------------------------------------------------------- the policy


@pytest.mark.site
def test_every_page_carries_the_policy_with_its_inline_scripts_hashes(site):
    policies = set()
    for page in pages(site):
        text = page.read_text(encoding="utf-8")
        match = CSP_META.search(text)
        assert match and text.count("Content-Security-Policy") == 1, page
        policy = unescape(match.group(1))  # the attribute's value, as the browser reads it
        policies.add(policy)
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        script_src = directives["script-src"].split()
        assert script_src[:2] == ["'self'", "'wasm-unsafe-eval'"]
        assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src
        hashes = script_hashes(text)
        assert hashes and hashes <= set(script_src), page  # the page's own inline scripts (Material's)
        assert directives["default-src"] == "'self'" and directives["object-src"] == "'none'"
    assert len(policies) == 1  # instant navigation keeps the first page's: it must allow every page's scripts


INJECTED = "<script>window.__injected = 'from the HTML'</script>"


@pytest.mark.browser
def test_an_injected_inline_script_is_refused_and_the_themes_own_run(browser, server):
    def inject(route):
        response = route.fetch()
        body = response.text().replace("</article>", INJECTED + "</article>", 1)
        assert INJECTED in body
        route.fulfill(response=response, body=body)

    # Without the policy (a context that bypasses it), the same page runs the injected script:
    # the check below can fail.
    for bypass in (True, False):
        tab = open_tab(browser, server, bypass_csp=bypass)
        try:
            tab.page.route("**/calculators/chq-comms-check/", inject)
            tab.goto("calculators/chq-comms-check/")
            tab.calculator("chq-comms-check")  # the calculators answer under the policy
            assert tab.page.evaluate("typeof __md_scope") == "object"  # Material's inline script ran
            injected = tab.page.evaluate("window.__injected ?? null")
            refused = tab.page.evaluate(
                """() => new Promise((resolve) => {
                    document.addEventListener("securitypolicyviolation", (e) => resolve(e.effectiveDirective), { once: true });
                    const script = document.createElement("script");
                    script.textContent = "window.__injectedByDom = true; document.dispatchEvent(new Event('securitypolicyviolation'))";
                    document.body.append(script);
                })"""
            )
            if bypass:
                assert injected == "from the HTML" and refused is None and tab.page.evaluate("window.__injectedByDom") is True
            else:
                assert injected is None
                assert refused == "script-src-elem"
                assert tab.page.evaluate("window.__injectedByDom ?? null") is None
                assert len(tab.errors) == 2 and all("Content Security Policy" in e for e in tab.errors), tab.errors
        finally:
            tab.close()


@pytest.mark.site
def test_local_servers_sitemap_lists_the_pages_under_their_own_address(site, addressed_site):
    # make serve and the tests' server: instant navigation follows only links the sitemap lists.
    from scripts.support.local_site import sitemap

    base = "http://127.0.0.1:1234/"
    built = re.findall(r"<loc>([^<]+)</loc>", (addressed_site / "sitemap.xml").read_text(encoding="utf-8"))
    for root in (site, addressed_site):
        locs = re.findall(r"<loc>([^<]+)</loc>", sitemap(root, base))
        assert base in locs and f"{base}calculators/chq-comms-check/" in locs, root
        assert all(loc.startswith(base) for loc in locs)
        assert len(locs) == len(built)  # every page, with an address or without
