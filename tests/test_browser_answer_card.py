"""The answer card: a calculator's own page printed is one A4 page of its answer.

Printed by Chromium with print media on A4 (as the browser's Print does), a
calculator's page with its inputs is one page whose text has every input in
words, the headline and every outcome with its exact fraction and percentage,
and none of the web page's controls, notices or navigation; its QR code, read
back from the page rendered at 150 dpi by zbarimg, is the link to the
calculator with those inputs. The figures are the CLI's, read here from its
answer: nothing on the card is worked out in the page.
"""

from __future__ import annotations

import subprocess
from urllib.parse import parse_qsl, urlsplit

import pytest

from conftest import cli, open_tab

pytestmark = pytest.mark.browser

FFE = "chq-fire-for-effect"
LINK = f"calculators/{FFE}/?fire_dice=7&cover=light"
# What belongs to the web page and never to the card: controls, notices, navigation.
WEB_ONLY = ("Use my dice", "Compare with another option", "Link to these inputs", "Copy link", "Dismiss", "Search", "How it changes", "Roll", "Exactly")


@pytest.fixture(scope="module")
def printed(browser, server, tmp_path_factory):
    """The card of LINK as Chromium prints it: its PDF's path and text."""
    tab = open_tab(browser, server)
    try:
        tab.goto(LINK)
        tab.calculator(FFE)
        tab.page.wait_for_selector("[data-card] [data-card-qr] svg", state="attached")  # on screen the card is not shown
        tab.page.emulate_media(media="print")
        pdf = tmp_path_factory.mktemp("card") / "card.pdf"
        tab.page.pdf(path=str(pdf), format="A4", print_background=True, prefer_css_page_size=True)
        url = tab.page.eval_on_selector("[data-card-qr]", "e => e.dataset.url")
        assert not tab.errors, tab.errors
    finally:
        tab.close()
    # In the order the page wrote it (-raw): -layout and the default order interleave the card's two columns.
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return pdf, " ".join(text.split()), url


def test_the_card_is_one_a4_page(printed):
    pdf, _, _ = printed
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert "Pages:           1\n" in info, info
    width, height = (float(v) for v in info.split("Page size:")[1].split("pts")[0].split(" x "))
    assert abs(width - 595.3) < 1 and abs(height - 841.9) < 1, info  # A4: 210 x 297 mm


def test_the_card_has_the_inputs_in_words_and_every_figure_of_the_answer(printed):
    _, text, _ = printed
    answer = cli("answer", FFE, "fire_dice=7", "cover=light")
    assert "Battery's Fire Dice: 7" in text
    assert "Cover: Light cover (1D)" in text
    # A reading is marked as one, with the rule it reads.
    assert "Unit's dice score on: 4 (our reading: Reaction Dice target number)" in text
    assert answer["headline"] in text  # "Suppressed 80.0% · Forced back 72.6%"
    for outcome in answer["outcomes"]:
        assert outcome["label"] in text
        for value in outcome["values"]:
            # Each value with its percentage and its exact fraction, in the card's row order.
            assert f"{value['label']} {value['percent']} {value['p']}" in text, (outcome["name"], value)
        if outcome["type"] == "int":
            assert outcome["summary"] in text  # its mean and likeliest value, in the engine's words


def test_nothing_of_the_web_page_reaches_the_card(printed):
    _, text, _ = printed
    for words in WEB_ONLY:
        assert words not in text, words


def test_the_qr_code_is_the_link_to_these_inputs(printed, tmp_path):
    pdf, _, shown = printed
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", str(pdf), str(tmp_path / "card")], check=True)
    read = subprocess.run(["zbarimg", "--quiet", "--raw", str(tmp_path / "card.png")], capture_output=True, text=True)
    assert read.returncode == 0, read.stderr
    url = read.stdout.strip()
    assert url == shown
    parts = urlsplit(url)
    assert parts.path == f"/calculators/{FFE}/"
    assert dict(parse_qsl(parts.query)) == {"fire_dice": "7", "cover": "light"}


def test_the_longest_answer_prints_on_one_white_page_in_the_dark_scheme(browser, server, tmp_path):
    """The air strike's card (18 inputs, eight outcomes, one of them 19 values) keeps to one
    page, and a reader in the dark scheme gets black on white, margins included."""
    tab = open_tab(browser, server, color_scheme="dark")
    try:
        tab.goto("calculators/k47-air-strike/?flak_shots=4&friendly_flak=2")
        tab.calculator("k47-air-strike")
        tab.page.wait_for_selector("[data-card] [data-card-qr] svg", state="attached")
        tab.page.emulate_media(media="print")
        tab.page.pdf(path=str(tmp_path / "air.pdf"), format="A4", print_background=True, prefer_css_page_size=True)
    finally:
        tab.close()
    info = subprocess.run(["pdfinfo", str(tmp_path / "air.pdf")], capture_output=True, text=True, check=True).stdout
    assert "Pages:           1\n" in info, info
    # The page in grey at 10 dpi (a binary PGM: a header of three lines, then a byte a pixel): a corner, in the margin, is white.
    subprocess.run(["pdftoppm", "-r", "10", "-gray", "-singlefile", str(tmp_path / "air.pdf"), str(tmp_path / "air")], check=True)
    pixels = (tmp_path / "air.pgm").read_bytes().split(b"\n", 3)[3]
    assert pixels[0] == 255 and pixels[-1] == 255, (pixels[0], pixels[-1])
