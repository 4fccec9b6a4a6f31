"""Seeds that look alike give the same dice; seeds of any length get one clear refusal.

rules_py.seeds normalises a phrase to Unicode NFC, makes its spaces plain and trims it, refuses a
seed with a character nobody can see or type back (control, zero-width,
direction marks, separators, lone surrogates), and checks a seed's length
before it converts it: the CLI (exit 2, one ``error:`` line), call_json (the
page's engine: a message on the ``seed`` field) and parse_seed agree.
"""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules_py
from conftest import ROOT
from rules_py.calculator import InputError
from rules_py.seeds import INVISIBLE_RULE, MAX_PHRASE, SEED_RULE, parse_seed, phrase_number

# Past Python's 4,300-digit limit on int(str): int() itself raises there.
LONG_DIGITS = ["9" * 4301, "1" * 5000, "0" * 4300 + "7", "9" * 100_000]
INVISIBLE = {
    "Konrad\u200bday 3": "U+200B",  # zero width space
    "Konrad day\u200d 3": "U+200D",  # zero width joiner
    "\ufeffKonrad day 3": "U+FEFF",  # byte order mark, where a trim does not reach
    "Konrad\u00adday": "U+00AD",  # soft hyphen
    "Konrad \u202eday": "U+202E",  # right-to-left override
    "Konrad\tday 3": "U+0009",
    "Konrad\nday 3": "U+000A",
    "Konrad\x00day": "U+0000",
    "Konrad\x7fday": "U+007F",
    "Konrad\u2028day": "U+2028",  # line separator
    "Konrad\ud800day": "U+D800",  # a lone surrogate: no UTF-8 bytes to hash
}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rules_py", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def refusal(raw) -> str:
    with pytest.raises(InputError) as caught:
        parse_seed(raw)
    [(field, message)] = caught.value.errors
    assert field == "seed"
    return message


@pytest.mark.parametrize("raw", LONG_DIGITS, ids=lambda r: f"{len(r)}-digits")
def test_a_seed_of_thousands_of_digits_is_refused_not_converted(raw):
    message = refusal(raw)
    assert message.endswith(SEED_RULE) and f"({len(raw)} characters)" in message


def test_length_is_what_is_checked_not_just_the_value():
    # MAX_PHRASE digits with leading zeros is still 7; one more character is too long.
    assert parse_seed("0" * (MAX_PHRASE - 1) + "7").number == 7
    assert refusal("0" * MAX_PHRASE + "7").endswith(SEED_RULE)
    assert parse_seed(" " * 10_000 + "12" + " " * 10_000).number == 12  # the spaces around it go first


@pytest.mark.parametrize("command", ["roll", "answer"])
@pytest.mark.parametrize("raw", ["9" * 4301, "9" * 20_000])
def test_the_cli_refuses_a_long_seed_with_exit_2_and_one_error_line(command, raw):
    out = run(command, "chq-comms-check", "--seed", raw)
    assert (out.returncode, out.stdout) == (2, ""), out.stderr[-500:]
    [line] = out.stderr.splitlines()
    assert line.startswith("error: seed: ") and line.endswith(SEED_RULE)
    assert len(line) < 400  # the seed is quoted cut short, not whole


def test_the_pages_engine_names_the_seed_field_for_a_long_seed():
    # The page sends the seed field's text as it is (view.mjs roll()) through call_json.
    out = json.loads(rules_py.call_json(json.dumps({"op": "answer", "id": "chq-comms-check", "seed": "9" * 4301})))
    assert "internal" not in out
    [error] = out["fields"]
    assert error["field"] == "seed" and error["message"].endswith(SEED_RULE)


def test_phrases_that_look_the_same_give_the_same_dice():
    composed, decomposed = "Caf\u00e9 Konrad", "Cafe\u0301 Konrad"  # é as one character, and as e + combining acute
    assert composed != decomposed and unicodedata.normalize("NFC", decomposed) == composed
    assert parse_seed(decomposed) == parse_seed(composed) == parse_seed(f"  {composed}\u3000")  # an ideographic space trims too
    assert parse_seed(decomposed).number == phrase_number(composed)  # SHA-256 of the NFC form's UTF-8
    a = rules_py.answer("chq-comms-check", {"nation": "usa"}, decomposed)
    b = rules_py.answer("chq-comms-check", {"nation": "usa"}, composed)
    assert a == b and a["seed"] == composed  # the roll is written back in the normal form


def test_the_cli_rolls_a_decomposed_phrase_as_the_composed_one():
    a, b = (json.loads(run("roll", "k47-medic", "--seed", s).stdout) for s in ("Cafe\u0301 Konrad", "Caf\u00e9 Konrad"))
    assert a == b and a["dice"]


@pytest.mark.parametrize("raw", INVISIBLE, ids=lambda r: INVISIBLE[r])
def test_a_seed_with_an_invisible_character_is_refused_and_the_character_named(raw):
    message = refusal(raw)
    assert message.endswith(INVISIBLE_RULE) and f"holds {INVISIBLE[raw]} (" in message
    out = json.loads(rules_py.call_json(json.dumps({"op": "answer", "id": "k47-medic", "seed": raw})))
    assert out["fields"] == [{"field": "seed", "message": message}]


@pytest.mark.parametrize("raw", ["Konrad\u200bday 3", "Konrad\tday 3", "12\u200b3"])
def test_the_cli_refuses_an_invisible_character_with_exit_2(raw):
    out = run("roll", "chq-comms-check", "--seed", raw)
    assert (out.returncode, out.stdout) == (2, "")
    [line] = out.stderr.splitlines()
    assert line.startswith("error: seed: ") and line.endswith(INVISIBLE_RULE)


def test_visible_non_ascii_phrases_are_still_phrases():
    for phrase in ("Конрад день 3", "Überfall bei Kursk", "作戦 3", "Konrad—day"):
        seed = parse_seed(phrase)
        assert seed.phrase == phrase and seed.number == phrase_number(phrase)


# Issue 44, item 6: "dawn raid" typed with a no-break space rolled 11827860359895590069, with a space
# 6290551716522133470, both printed "dawn raid". The second is SHA-256("dawn raid"), first 8 bytes, big-endian.
DAWN_RAID = 6290551716522133470
SPACES = {"\u00a0": "no-break space", "\u2009": "thin space", "\u202f": "narrow no-break space", "\u3000": "ideographic space", "  ": "two spaces", " \u00a0 ": "a run of three"}
ZS = [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Zs"]


def test_dawn_raid_is_the_hash_of_its_plain_form():
    assert phrase_number("dawn raid") == DAWN_RAID == parse_seed("dawn raid").number


@pytest.mark.parametrize("space", SPACES, ids=SPACES.values())
def test_spaces_that_print_alike_roll_alike(space):
    seed = parse_seed(f"dawn{space}raid")
    assert (seed.number, seed.phrase) == (DAWN_RAID, "dawn raid")
    out = json.loads(rules_py.call_json(json.dumps({"op": "answer", "id": "k47-medic", "seed": f"dawn{space}raid"})))
    assert out == rules_py.answer("k47-medic", {}, "dawn raid") and out["seed"] == "dawn raid"  # written back plain


def test_the_cli_rolls_a_no_break_space_as_a_space():
    a, b = (json.loads(run("roll", "k47-medic", "--seed", s).stdout) for s in ("dawn\u00a0raid", "dawn raid"))
    assert a == b and a["dice"]


def test_every_space_python_splits_on_is_a_space_separator_or_refused():
    # plain_spaces joins what str.split() splits: once the invisible characters are refused, only Zs is left.
    from rules_py.seeds import _INVISIBLE

    for c in range(0x110000):
        ch = chr(c)
        if ch.isspace():
            assert unicodedata.category(ch) == "Zs" or unicodedata.category(ch) in _INVISIBLE, f"U+{c:04X}"
    assert len(ZS) == 17  # since Unicode 6.3: U+0020, U+00A0, U+1680, U+2000 to U+200A, U+202F, U+205F, U+3000


# Words with no space and nothing refused in them; phrases built from them with any spaces.
WORD = st.text(alphabet=st.characters(exclude_categories=["Zs", "Cc", "Cf", "Cs", "Zl", "Zp"]), min_size=1, max_size=8)
SPACE_RUN = st.text(alphabet=st.sampled_from(ZS), min_size=1, max_size=3)


@given(st.lists(WORD, min_size=1, max_size=5).filter(lambda ws: any(ch.isalpha() for w in ws for ch in w)), st.data())
def test_any_spacing_of_the_same_words_is_the_same_phrase(words, data):
    plain = " ".join(words)
    try:
        expected = parse_seed(plain)
    except InputError:
        return  # a phrase refused plain ("1e3 x" with its letter a number's) is refused spaced as well: checked below
    gaps = [data.draw(SPACE_RUN) for _ in range(len(words) - 1)]
    spaced = data.draw(st.text(alphabet=st.sampled_from(ZS), max_size=2)) + words[0]
    spaced += "".join(g + w for g, w in zip(gaps, words[1:])) + data.draw(st.text(alphabet=st.sampled_from(ZS), max_size=2))
    assert parse_seed(spaced) == expected


@given(st.lists(st.text(alphabet=st.characters(codec="ascii", categories=["L", "N", "P", "S"]), min_size=1, max_size=8), min_size=1, max_size=5))
def test_a_plain_phrase_rolls_as_it_always_has(words):
    # Single ASCII spaces and none around it: the hash of the phrase as typed, as before issue 44.
    phrase = " ".join(words)
    try:
        seed = parse_seed(phrase)
    except InputError:
        return
    if seed.phrase is not None:
        assert seed.phrase == phrase and seed.number == phrase_number(phrase)


@given(st.text(min_size=1, max_size=40))
def test_a_phrase_written_back_parses_to_itself(raw):
    # The seed a roll writes back (links, the seed box, the log) names the same dice.
    try:
        seed = parse_seed(raw)
    except InputError:
        return
    assert parse_seed(seed.text) == seed


@given(st.text(alphabet=st.characters(categories=["Cc", "Cf", "Zl", "Zp"]), min_size=1, max_size=3), st.text(min_size=1, max_size=20), st.text(max_size=20))
def test_any_invisible_character_inside_a_seed_is_refused(hidden, before, after):
    raw = "Konrad" + before + hidden + after + "x"  # letters at both ends, so no trim can drop it
    message = refusal(raw)
    assert message.endswith((INVISIBLE_RULE, SEED_RULE))
    if len(raw.strip()) <= MAX_PHRASE:
        assert message.endswith(INVISIBLE_RULE)


def test_call_json_refuses_a_seed_sent_as_a_huge_number():
    # json.loads itself refuses an integer of over 4,300 digits (ValueError,
    # not JSONDecodeError): that is bad input, not an engine failure.
    out = json.loads(rules_py.call_json('{"op": "roll", "id": "chq-comms-check", "seed": ' + "9" * 5000 + "}"))
    assert out == {"error": "a number in the request is far too long: send seeds and inputs as text", "fields": []}


@pytest.mark.browser
def test_the_page_rolls_a_no_break_space_as_a_space(tab):
    # The seed box sends the text as typed; the engine makes its spaces plain, the log and the box show
    # "dawn raid", and the dice are the CLI's for "dawn raid".
    from conftest import BOOT_TIMEOUT_MS, cli

    calc_id = "k47-medic"
    scope = f'.calculator[data-calculator="{calc_id}"]'
    tab.visit(f"calculators/{calc_id}/?casualties=5")
    tab.calculator(calc_id)
    tab.page.fill(f"{scope} .fm-seed", "dawn\u00a0raid")
    tab.page.click(f"{scope} .fm-roll-button")
    log = tab.page.wait_for_selector(f'{scope} .fm-roll-log[data-seed="dawn raid"]', timeout=BOOT_TIMEOUT_MS)
    faces = log.eval_on_selector_all("li[data-label]", "els => els.map(e => e.dataset.faces)")
    expected = cli("roll", calc_id, "--seed", "dawn raid", "casualties=5")
    assert faces == [" ".join(map(str, d["faces"])) for d in expected["dice"]] and faces
    assert log.query_selector(".fm-roll-seed").inner_text() == "dawn raid"
    assert tab.page.input_value(f"{scope} .fm-seed") == "dawn raid"
    assert tab.errors == []
