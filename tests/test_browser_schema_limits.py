"""What the page takes from calculators.json rather than knowing it too: how many
dice a player's own dice may hold (a calculator's max_dice, rules_py/given.py's
MAX_ENTRIES) and which inputs a sweep takes (each field's sweepable, Field.sweepable).

The list is served altered (Playwright's routing): a page that still held its own
copy of either would go on refusing past 200 dice and offering every bounded
whole number, and these tests would fail.
"""

from __future__ import annotations

import json

import pytest

from conftest import BOOT_TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.site]

AIR = "k47-air-strike"
COMMS = "chq-comms-check"


def serve_altered(tab, site, alter) -> None:
    """calculators.json as the site publishes it, each calculator's entry passed through ``alter``."""
    published = json.loads((site / "assets/generated/calculators.json").read_text(encoding="utf-8"))
    body = json.dumps({**published, "calculators": [alter(c) for c in published["calculators"]]}).encode()
    tab.context.route("**/assets/generated/calculators.json*", lambda route: route.fulfill(status=200, body=body, headers={"Content-Type": "application/json"}))


def test_own_dice_past_the_lists_max_dice_are_refused_before_the_engine(tab, site):
    published = json.loads((site / "assets/generated/calculators.json").read_text(encoding="utf-8"))
    assert next(c for c in published["calculators"] if c["id"] == AIR)["max_dice"] == 200  # rules_py/given.py's MAX_ENTRIES
    serve_altered(tab, site, lambda c: {**c, "max_dice": 3} if c["id"] == AIR else c)
    tab.goto(f"calculators/{AIR}/?dice=2,2,2,2")
    root = f'.calculator[data-calculator="{AIR}"] .fm-own-dice'
    tab.page.wait_for_selector(f"{root} .fm-resolve-message:not([hidden])", timeout=BOOT_TIMEOUT_MS)
    assert tab.page.inner_text(f"{root} .fm-resolve-message") == "Not taken: 4 dice is more than the 3 a procedure may be given."


def test_the_sweep_offers_the_inputs_the_list_calls_sweepable(tab, site):
    published = json.loads((site / "assets/generated/calculators.json").read_text(encoding="utf-8"))
    fields = next(c for c in published["calculators"] if c["id"] == COMMS)["fields"]
    assert {f["name"]: f["sweepable"] for f in fields} == {"nation": True, "boosts": True, "air_recon": True}
    # boosts, a whole number from 0 to 20, said not to be sweepable: the page no longer offers it.
    serve_altered(tab, site, lambda c: {**c, "fields": [{**f, "sweepable": f["name"] != "boosts"} for f in c["fields"]]} if c["id"] == COMMS else c)
    tab.goto(f"calculators/{COMMS}/")
    tab.calculator(COMMS)
    scope = f'.calculator[data-calculator="{COMMS}"]'
    offered = tab.page.eval_on_selector_all(f"{scope} select.fm-sweep-select:not(.fm-sweep-of) option", "(options) => options.map((o) => o.value)")
    assert offered == ["", "nation", "air_recon"]
