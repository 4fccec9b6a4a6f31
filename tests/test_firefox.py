"""The built site in Firefox (Debian's firefox-esr, over WebDriver BiDi): every
calculator answers as the CLI does, rolls, compares, keeps a mission In play,
glossary terms open on a tap, and the site works offline after one visit. See tests/engine_checks.py."""

from __future__ import annotations

import pytest

import engine_checks as checks
from scripts.support.local_site import StaticServer

pytestmark = pytest.mark.firefox


@pytest.fixture(scope="module")
def page(firefox, server):
    """One page (a fresh browser context, no service worker yet) for the module's checks."""
    opened = firefox.page(server.url(""))
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


def test_a_tapped_glossary_term_shows_its_definition(page):
    checks.check_term_popover(page)


def test_a_calculator_takes_two_columns_by_its_own_width(page):
    seen = checks.check_columns_by_the_calculators_own_width(page)
    # The rules page's calculator, beside the contents sidebar, is narrower than on its own page.
    assert seen[1]["rem"] < seen[0]["rem"], seen


def test_offline_after_one_visit(firefox, site):
    # Its own host (another origin, so another service worker), stopped halfway.
    own = StaticServer(site).start()
    page = firefox.page(own.url(""), width=390, height=844)
    try:
        checks.check_offline_after_one_visit(page, own)
    finally:
        page.close()
        own.stop()
