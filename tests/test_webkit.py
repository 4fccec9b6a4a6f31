"""The built site in WebKit (WebKitGTK's MiniBrowser, the engine of Safari on
iPhones, driven by selenium under xvfb-run): every calculator answers as the
CLI does, rolls, compares, keeps a mission In play, glossary terms keep their tooltip under a mouse,
and the site works offline after one visit. See tests/engine_checks.py.

WebKitGTK cannot emulate a touch screen, so the tapped popover is Firefox's
check (tests/test_firefox.py); nor can it print here (WebKitWebDriver answers
WebDriver's Print Page command with "Unknown command", and offers no print
media emulation), so the printed card is Chromium's and Firefox's check (tests/
test_browser_answer_card.py, test_browser_print_cards.py, test_firefox.py). Console errors are caught from the moment each
page has loaded (tests/browser_engines.py says why)."""

from __future__ import annotations

import pytest

import engine_checks as checks
from scripts.support.local_site import StaticServer

pytestmark = pytest.mark.webkit


@pytest.fixture(scope="module")
def page(webkit, server):
    opened = webkit.page(server.url(""))
    yield opened
    opened.close()


def test_every_calculator_answers_its_default_and_a_changed_input_as_the_cli(page):
    checks.check_every_calculator(page)


def test_a_seeded_roll_is_the_clis_roll(page):
    checks.check_seeded_roll(page)


def test_bad_seeds_get_the_engines_message_at_the_seed_field(page):
    checks.check_bad_seeds_get_a_message_at_the_field(page)


def test_a_comparison_link_shows_both_options_as_the_cli(page):
    checks.check_comparison(page)


def test_a_kept_mission_shows_in_play_with_the_engines_words(page):
    checks.check_a_kept_mission_shows_in_play(page)


def test_a_glossary_term_shows_its_definition_under_the_mouse(page):
    checks.check_term_tooltip(page)


def test_a_calculator_takes_two_columns_by_its_own_width(page):
    seen = checks.check_columns_by_the_calculators_own_width(page)
    # The rules page's calculator, beside the contents sidebar, is narrower than on its own page.
    assert seen[1]["rem"] < seen[0]["rem"], seen


def test_offline_after_one_visit(webkit, site):
    # Its own host (another origin, so another service worker), stopped halfway.
    own = StaticServer(site).start()
    page = webkit.page(own.url(""))
    try:
        checks.check_offline_after_one_visit(page, own)
    finally:
        own.stop()
