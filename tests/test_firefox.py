"""The built site in Firefox (Debian's firefox-esr, over WebDriver BiDi): every
calculator answers as the CLI does, rolls, compares, keeps a mission In play,
glossary terms open on a tap, a comparison and a roll print their one-page
cards, and the site works offline after one visit. See tests/engine_checks.py."""

from __future__ import annotations

import subprocess
from urllib.parse import parse_qsl, urlsplit

import pytest

import engine_checks as checks
from conftest import cli
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


# What a card never carries: the calculator page's controls and notices (tests/test_browser_print_cards.py).
WEB_ONLY = ("Use my dice", "Compare with another option", "Stop comparing", "Link to these inputs", "Copy link", "Search", "How it changes", "Exactly")


@pytest.mark.parametrize(
    ("link", "kind"),
    [
        pytest.param("calculators/chq-fire-for-effect/?fire_dice=7&cover=light&vs.cover=heavy", "compare", id="comparison"),
        pytest.param("calculators/chq-fire-for-effect/?fire_dice=7&cover=light&seed=42", "roll", id="roll"),
    ],
)
def test_a_comparison_and_a_roll_print_their_card_alone_on_one_page(firefox, server, tmp_path, link, kind):
    """Firefox's own print to PDF (print media, A4): the card and nothing of the page's
    controls, on one page, its QR code read back as the link printed."""
    page = firefox.page(server.base)
    try:
        page.goto(link)
        page.wait("kind => document.querySelector(`[data-card][data-card-kind='${kind}'] [data-card-qr] svg`) !== null", kind)
        page.pdf(str(tmp_path / "card.pdf"))
        checks.assert_no_errors(page, link)
    finally:
        page.close()
    info = subprocess.run(["pdfinfo", str(tmp_path / "card.pdf")], capture_output=True, text=True, check=True).stdout
    assert "Pages:           1\n" in info, info
    text = " ".join(subprocess.run(["pdftotext", "-raw", str(tmp_path / "card.pdf"), "-"], capture_output=True, text=True, check=True).stdout.split())
    for words in WEB_ONLY:
        assert words not in text, words
    if kind == "compare":
        assert "Cover Light cover (1D) Heavy cover (3D)" in text
        assert "Forced back (chance of yes) 72.6% 50.0% −22.6 points" in text  # as the CLI's odds --vs: 743/1024 against 1/2
    else:
        answer = cli("answer", "chq-fire-for-effect", "fire_dice=7", "cover=light", "--seed", "42")
        assert "Rolled with seed 42" in text and answer["command"] in text
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", str(tmp_path / "card.pdf"), str(tmp_path / "card")], check=True)
    read = subprocess.run(["zbarimg", "--quiet", "--raw", str(tmp_path / "card.png")], capture_output=True, text=True)
    assert read.returncode == 0, read.stderr
    assert dict(parse_qsl(urlsplit(read.stdout.strip()).query)) == dict(parse_qsl(urlsplit(link).query))


def test_offline_after_one_visit(firefox, site):
    # Its own host (another origin, so another service worker), stopped halfway.
    own = StaticServer(site).start()
    page = firefox.page(own.url(""), width=390, height=844)
    try:
        checks.check_offline_after_one_visit(page, own)
    finally:
        page.close()
        own.stop()
