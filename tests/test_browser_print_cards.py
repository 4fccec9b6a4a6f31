"""The cards a comparison, a roll and a kept mission print: one A4 page each.

Printed by Chromium with print media on A4, as test_browser_answer_card.py prints a
calculator's answer card: a comparison link prints both options (the inputs that
differ, each outcome's values for A and B) and their difference, its QR code the
comparison's link; a roll link prints the roll's dice and outcomes with its seed
and the command that repeats it, its QR code the roll's link; a mission kept on
this device prints from In play (its Print button) with its dice so far in words,
the next roll and the odds of what happens next. Every figure expected here is
the engine's, asked in this process (rules_py, as the CLI answers): nothing on a
card is worked out in the page.
"""

from __future__ import annotations

import json
import subprocess
from urllib.parse import parse_qsl, urlsplit

import pytest

import rules_py
from conftest import BOOT_TIMEOUT_MS, cli, open_tab

pytestmark = [pytest.mark.browser, pytest.mark.site]

FFE = "chq-fire-for-effect"
A = {"fire_dice": "7", "cover": "light"}
COMPARE = f"calculators/{FFE}/?fire_dice=7&cover=light&vs.cover=heavy"
ROLL = f"calculators/{FFE}/?fire_dice=7&cover=light&seed=42"
# The page's controls and notices, which no card carries.
WEB_ONLY = ("Use my dice", "Compare with another option", "Stop comparing", "Link to these inputs", "Copy link", "Dismiss", "Search", "How it changes", "Exactly", "change any input")


def pdf_of(tab, path) -> tuple[str, str]:
    """The page printed as the browser's Print does (print media, A4): its text, in the
    order the page wrote it (pdftotext -raw), and its pdfinfo."""
    tab.page.emulate_media(media="print")
    tab.page.pdf(path=str(path), format="A4", print_background=True, prefer_css_page_size=True)
    text = subprocess.run(["pdftotext", "-raw", str(path), "-"], capture_output=True, text=True, check=True).stdout
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return " ".join(text.split()), info


def qr_of(pdf, tmp_path) -> str:
    """The QR code on the printed page, read back by zbarimg from the page at 150 dpi."""
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", str(pdf), str(tmp_path / "read")], check=True)
    read = subprocess.run(["zbarimg", "--quiet", "--raw", str(tmp_path / "read.png")], capture_output=True, text=True)
    assert read.returncode == 0, read.stderr
    return read.stdout.strip()


def one_a4_page(info: str) -> None:
    assert "Pages:           1\n" in info, info
    width, height = (float(v) for v in info.split("Page size:")[1].split("pts")[0].split(" x "))
    assert abs(width - 595.3) < 1 and abs(height - 841.9) < 1, info  # A4: 210 x 297 mm


def test_a_comparison_prints_both_options_and_their_difference_on_one_page(browser, server, tmp_path):
    tab = open_tab(browser, server)
    try:
        tab.goto(COMPARE)
        tab.calculator(FFE)
        tab.page.wait_for_selector(f'.calculator[data-calculator="{FFE}"][data-compare-status="ready"]', timeout=BOOT_TIMEOUT_MS)
        tab.page.wait_for_selector("[data-card] [data-card-qr] svg", state="attached")
        text, info = pdf_of(tab, tmp_path / "compare.pdf")
        assert not tab.errors, tab.errors
    finally:
        tab.close()
    one_a4_page(info)
    answer = rules_py.compare(FFE, A, {"cover": "heavy"})
    assert answer["headline"] in text  # "Suppressed 80.0% → 69.6%, −10.4 points · Forced back ..."
    # The input that differs, A's value then B's, in words (the schema's labels); those alike once.
    assert "Cover Light cover (1D) Heavy cover (3D)" in text
    assert "Battery's Fire Dice: 7" in text
    assert text.count("Battery's Fire Dice") == 1
    for d in answer["differences"]:
        # The difference's line as the page's table has it: A, B and B − A.
        pair = [d["chance"][k] for k in ("a_percent", "b_percent", "difference")] if d["chance"] else [d["mean"][k] for k in ("a_text", "b_text", "difference")]
        assert f"{d['label']} ({'chance of yes' if d['chance'] else 'mean'}) {' '.join(pair)}" in text, d["name"]
        for v in d["values"]:
            # Every value's chance and exact fraction for A and for B, and B − A.
            row = f"{v['label']} {v['texts']['a']['exactly']} {v['a']} {v['texts']['b']['exactly']} {v['b']} {v['difference']}"
            assert row in text, (d["name"], row)
    # Worked by hand: Forced back is no Disruption against one or more; with light cover the unit
    # cancels with 3+1 dice, with heavy 3+3 (the page's 72.6% and 50.0%, cli's 743/1024 and 1/2).
    assert "Forced back (chance of yes) 72.6% 50.0% −22.6 points" in text
    for words in WEB_ONLY:
        assert words not in text, words
    url = qr_of(tmp_path / "compare.pdf", tmp_path)
    assert urlsplit(url).path == f"/calculators/{FFE}/"
    assert dict(parse_qsl(urlsplit(url).query)) == {**A, "vs.cover": "heavy"}
    # Under the code, its words whole (they broke mid-word with the link: "compariso n:"), then the link.
    assert "Scan for the live comparison:" in text


def test_a_roll_prints_its_dice_seed_and_command_on_one_page(browser, server, tmp_path):
    tab = open_tab(browser, server, color_scheme="dark")
    try:
        tab.goto(ROLL)
        tab.calculator(FFE)
        tab.page.wait_for_selector('.fm-roll-log[data-seed="42"] [data-roll-link]', timeout=BOOT_TIMEOUT_MS)
        link = tab.page.get_attribute("[data-roll-link]", "data-roll-link")
        tab.page.wait_for_selector("[data-card] [data-card-qr] svg", state="attached")
        text, info = pdf_of(tab, tmp_path / "roll.pdf")
        assert not tab.errors, tab.errors
    finally:
        tab.close()
    one_a4_page(info)
    answer = cli("answer", FFE, "fire_dice=7", "cover=light", "--seed", "42")
    assert "Rolled with seed 42" in text
    assert answer["command"] == "python -m rules_py roll chq-fire-for-effect --seed 42 fire_dice=7 cover=light"
    assert answer["command"] in text
    assert answer["headline"] in text
    assert "Cover: Light cover (1D)" in text
    for die in answer["dice"]:
        # Its label, its dice, every face in the order rolled, and what they decided.
        faces = " ".join(str(f["face"]) for f in die["faces"])
        assert f"{die['label']} {die['dice']}: {faces} → {die['result']}" in text, die["label"]
        assert die["working"] in text
    # The seed 42's Fire Dice, worked out by the engine and printed on the card: 6 1 1 6 3 2 2.
    assert "7D6: 6 1 1 6 3 2 2 → 2 successes, 2 sixes" in text
    for outcome in answer["outcomes"]:
        assert f"{outcome['label']}: {outcome['value_label']}" in text, outcome["name"]
    for words in (*WEB_ONLY, "Roll again", "Seed (a number or a phrase)", "Open this link"):
        assert words not in text, words
    url = qr_of(tmp_path / "roll.pdf", tmp_path)
    assert url == link
    assert urlsplit(url).path == f"/calculators/{FFE}/"
    assert dict(parse_qsl(urlsplit(url).query)) == {**A, "seed": "42"}
    # Dark scheme: the paper is white, corner and all (10 dpi grey: a header of three lines, then a byte a pixel).
    subprocess.run(["pdftoppm", "-r", "10", "-gray", "-singlefile", str(tmp_path / "roll.pdf"), str(tmp_path / "grey")], check=True)
    pixels = (tmp_path / "grey.pgm").read_bytes().split(b"\n", 3)[3]
    assert pixels[0] == 255 and pixels[-1] == 255, (pixels[0], pixels[-1])


MISSION = {"key": "kept42", "calculator": FFE, "inputs": {"fire_dice": "7"}, "dice": "6,1,1,6,3,2,2", "name": "Battery B on the farm", "kept": "2026-12-01T22:00:00.000Z"}


def test_a_kept_mission_prints_from_in_play(browser, server, tmp_path):
    tab = open_tab(browser, server)
    try:
        tab.goto("in-play/")
        tab.page.evaluate("([key, text]) => localStorage.setItem(key, text)", ["fm-missions", json.dumps({"format": "fire-mission missions 1", "missions": [MISSION]})])
        tab.goto("in-play/")
        tab.page.wait_for_selector('[data-in-play][data-status="ready"]', timeout=BOOT_TIMEOUT_MS)
        # The browser's print dialog is not Playwright's to answer: Print is seen to ask for it.
        tab.page.evaluate("() => { window.print = () => { document.documentElement.dataset.printAsked = 'true'; }; }")
        tab.page.click('[data-mission="kept42"] [data-print]', timeout=5000)
        tab.page.wait_for_selector("html[data-print-asked]", state="attached")
        tab.page.wait_for_selector("[data-card] [data-card-qr] svg", state="attached")
        text, info = pdf_of(tab, tmp_path / "mission.pdf")
        assert not tab.errors, tab.errors
    finally:
        tab.close()
    one_a4_page(info)
    doc = rules_py.answer(FFE, {"fire_dice": "7"}, dice=MISSION["dice"])
    assert doc["status"] == "need"
    assert "Battery B on the farm" in text
    assert "Battery's Fire Dice: 7" in text
    # The dice so far in the engine's words: 6 1 1 6 3 2 2 at 4+ is two successes, two of them 6s.
    assert doc["given_words"] == ["battery's Fire Dice: 2 successes, 2 sixes"]
    assert "Dice so far battery's Fire Dice: 2 successes, 2 sixes" in text
    assert f"Next roll {doc['need']['label']} ({doc['need']['dice']})" in text
    assert doc["headline"] in text
    for outcome in doc["outcomes"]:
        assert outcome["label"] in text
        for value in outcome["values"]:
            assert f"{value['label']} {value['percent']} {value['p']}" in text, (outcome["name"], value)
    assert doc["command"] in text
    for words in ("Continue", "Remove", "Export", "Import", "No missions in play", "Search"):
        assert words not in text, words
    url = qr_of(tmp_path / "mission.pdf", tmp_path)
    assert urlsplit(url).path == f"/calculators/{FFE}/"
    assert dict(parse_qsl(urlsplit(url).query)) == {"fire_dice": "7", "dice": MISSION["dice"]}


def test_a_page_reached_from_a_calculator_by_instant_navigation_prints_whole(browser, server, tmp_path):
    """A calculator's page marks <html> for its card, and instant navigation keeps <html>:
    the rules page reached from it prints its own text, not a blank page."""
    tab = open_tab(browser, server)
    try:
        tab.goto(f"calculators/{FFE}/")
        tab.calculator(FFE)
        tab.page.wait_for_selector("[data-card] [data-card-qr] svg", state="attached")
        tab.navigate("sources/")
        assert tab.page.evaluate("() => document.documentElement.classList.contains('fm-card-print')")  # kept, as the case asks
        text, info = pdf_of(tab, tmp_path / "sources.pdf")
    finally:
        tab.close()
    assert "Fire Mission covers excerpts of the published rule sets below." in text, text[:300]  # its prose, not a blank page
