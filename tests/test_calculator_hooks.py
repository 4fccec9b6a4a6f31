"""The build's hooks for pages with a calculator (scripts/hooks/calculator_hooks.py) and the policy (scripts/hooks/csp_hooks.py).

Fed small pages as mkdocs hands them over; no build, no browser.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from types import SimpleNamespace

from scripts.build.html_elements import elements
from scripts.hooks import calculator_hooks as hooks
from scripts.hooks import csp_hooks

CALC = "chq-comms-check"
ROOT = f'<div class="calculator" data-calculator="{CALC}">'
OTHER = '<div class="calculator" data-calculator="k47-officer-morale">'
PAGE = '<html><head><meta charset="utf-8"><title>t</title></head><body><article>{body}</article></body></html>'


def page(url: str):
    return SimpleNamespace(url=url)


def own_page_marks(html: str) -> int:
    """The embedded answers marked as a calculator's own page's."""
    return sum(1 for e in elements(html) if "fm-prerendered" in e.classes and hooks.OWN_PAGE in e.attrs)


def built(url: str, body: str) -> str:
    """The page as the two calculator hooks leave it."""
    content = hooks.on_page_content(body, page(url), None, None)
    return hooks.on_post_page(PAGE.format(body=content), page(url), None)


def test_a_calculators_own_page_is_its_address_holding_it_alone():
    assert hooks.own_calculator_page(f"calculators/{CALC}/", [CALC])
    assert not hooks.own_calculator_page(f"calculators/{CALC}/", [CALC, CALC])  # two of it
    assert not hooks.own_calculator_page("calculators/k47-officer-morale/", [CALC])  # another's page
    assert not hooks.own_calculator_page("combat-hq/comms/", [CALC])  # a rules page that embeds it
    assert not hooks.own_calculator_page("calculators/", [CALC])


def test_the_own_page_alone_is_marked_and_starts_the_worker_in_its_head(monkeypatch):
    monkeypatch.setattr(hooks, "build_id", lambda: None)  # a build with no id yet: the worker's plain address
    own = built(f"calculators/{CALC}/", ROOT + "</div>")
    assert own_page_marks(own) == 1 and hooks.is_own_page(elements(own))
    head = own.split("</head>")[0]
    assert head.index('<meta charset="utf-8">') < head.index("<script")  # the policy goes right after charset, before them
    assert f'<script data-link-inputs="fm-link-inputs">{hooks.head_script("flags.js")}</script><script>{hooks.head_script("glue-failed.js")}</script>' in head
    assert f'<script data-worker="../../assets/calc/worker.mjs">{hooks.head_script("early-worker.js")}</script>' in head
    # Right after the article, once the calculator is parsed: the link's inputs into the build's copy.
    assert f'</article><script id="fm-link-inputs">{hooks.head_script("link-inputs.js")}</script>' in own
    for url, body in [("combat-hq/comms/", ROOT + "</div>"), (f"calculators/{CALC}/", ROOT + "</div>" + OTHER + "</div>")]:
        embedding = built(url, body)
        assert own_page_marks(embedding) == 0 and not hooks.is_own_page(elements(embedding)), url
        assert "data-answers=" in embedding and "data-worker" not in embedding and "</article><script" not in embedding, url
        assert f"<script>{hooks.head_script('flags.js')}</script>" in embedding, url


def test_pages_with_a_calculator_preload_the_form_modules_and_others_are_left_alone():
    own = built(f"calculators/{CALC}/", ROOT + "</div>")
    hrefs = re.findall(r'<link rel="modulepreload" href="([^"]+)">', own)
    assert hrefs == [f"../../assets/calc/{m}" for m in hooks.form_modules()]
    assert hrefs[0].endswith("/view.mjs")
    plain = PAGE.format(body="<p>rules</p>")
    assert hooks.on_post_page(plain, page("konrad/"), None) == plain


def test_head_scripts_are_their_files_code_without_comments():
    for name in ("flags.js", "glue-failed.js", "early-worker.js", "link-inputs.js"):
        source = (hooks.HEAD / name).read_text(encoding="utf-8")
        script = hooks.head_script(name)
        code = [line for line in source.splitlines() if line.strip() and not line.lstrip().startswith(("//", "/**", "*"))]
        assert script.splitlines() == code, name
        assert "//" not in script and script.startswith("(function"), name


def test_the_policy_allows_the_head_scripts_by_their_hashes():
    own = built(f"calculators/{CALC}/", ROOT + "</div>")
    expected = {
        f"'sha256-{base64.b64encode(hashlib.sha256(hooks.head_script(name).encode()).digest()).decode()}'"
        for name in ("flags.js", "glue-failed.js", "early-worker.js", "link-inputs.js")
    }
    assert csp_hooks.script_hashes(own) == expected
    policy = csp_hooks.content_security_policy(csp_hooks.script_hashes(own))
    assert all(h in policy for h in expected)
    with_policy = csp_hooks.add_policy(own, policy)
    assert with_policy.index("Content-Security-Policy") < with_policy.index("<script")


def test_the_build_only_files_are_not_published():
    removed = []
    present = {path: SimpleNamespace(src_uri=path) for path in (*hooks.BUILD_ONLY, "assets/calc/view.mjs")}
    files = SimpleNamespace(get_file_from_path=present.get, remove=lambda f: removed.append(f.src_uri))
    hooks.on_files(files, None)
    assert sorted(removed) == sorted(hooks.BUILD_ONLY)


def test_a_page_with_a_calculator_and_its_worker_carry_the_build_id(monkeypatch):
    monkeypatch.setattr(hooks, "build_id", lambda: "0123abc")
    own = built(f"calculators/{CALC}/", ROOT + "</div>")
    head = own.split("</head>")[0]
    assert '<meta name="fire-mission-build" content="0123abc">' in head
    assert f'<script data-worker="../../assets/calc/worker.mjs?build=0123abc">{hooks.head_script("early-worker.js")}</script>' in head
    embedding = built("combat-hq/comms/", ROOT + "</div>")
    assert '<meta name="fire-mission-build" content="0123abc">' in embedding.split("</head>")[0]
    plain = PAGE.format(body="<p>rules</p>")
    assert hooks.on_post_page(plain, page("konrad/"), None) == plain  # no calculator, no id: unchanged from build to build


def test_the_published_calculators_list_carries_the_builds_id(tmp_path, monkeypatch):
    # on_post_build wraps build_pages.py's list as {"build", "calculators"}: the page refuses
    # another build's list (docs/assets/calc/calculator.mjs); run twice, it wraps once.
    monkeypatch.setattr(hooks, "build_id", lambda: "abc123")
    path = tmp_path / hooks.CALCULATORS_JSON
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps([{"id": "x"}]))
    for _ in range(2):
        hooks.on_post_build({"site_dir": str(tmp_path)})
        assert json.loads(path.read_text()) == {"build": "abc123", "calculators": [{"id": "x"}]}
