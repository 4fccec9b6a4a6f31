"""rules_py.sweep and ``odds --sweep``: one input over every value it allows,
each row exactly what plain ``odds`` prints at that value."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT

import rules_py
from rules_py import calculators, get, odds, sweep
from rules_py.__main__ import main
from rules_py.calculator import InputError
from rules_py.sweep import values_of

SWEPT = [(c.id, f.name) for c in calculators() for f in c.fields if f.type in ("bool", "choice") or (f.type == "int" and f.minimum is not None and f.maximum is not None)]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rules_py", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("calc_id, name", SWEPT)
def test_every_row_is_plain_odds(calc_id, name):
    calc = get(calc_id)
    base: dict = {}  # the defaults: an example's heavier inputs cost make check seconds
    got = sweep(calc_id, base, name)
    assert got["calculator"] == calc_id and got["sweep"] == name and name not in got["inputs"]
    assert [row["value"] for row in got["values"]] == values_of(calc.field(name))
    for row in got["values"]:
        try:
            expected = odds(calc_id, {**base, name: row["value"]})["outcomes"]
        except InputError as e:
            assert row == {"value": row["value"], "error": str(e)}
            continue
        assert row["outcomes"] == expected, row["value"]


def test_values_in_the_schemas_order():
    ffe = get("chq-fire-for-effect")
    # Fire Dice 1..12, the choices as listed, a yes/no as false then true.
    assert values_of(ffe.field("fire_dice")) == [str(n) for n in range(1, 13)]
    assert values_of(ffe.field("disruptions")) == ["unopposed", "one_if_more", "if_suppressed"]
    assert values_of(ffe.field("partial")) == ["false", "true"]


def test_fire_dice_by_hand():
    # 1 and 2 Fire Dice against 1 Reaction Die, all on 4+: forced back when
    # hits exceed saves: Bin(1, 1/2) > Bin(1, 1/2) is 1/4; with two dice
    # P(2 hits) (1/4) + P(1 hit) P(0 saves) (1/2 * 1/2): 1/2.
    rows = sweep("chq-fire-for-effect", {"reaction_dice": "1"}, "fire_dice")["values"]
    assert rows[0]["outcomes"]["forced_back"]["true"] == "1/4"
    assert rows[1]["outcomes"]["forced_back"]["true"] == "1/2"


def test_cli_prints_the_sweep():
    out = run("odds", "chq-comms-check", "nation=soviet", "--sweep", "air_recon")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == rules_py.sweep("chq-comms-check", {"nation": "soviet"}, "air_recon")
    assert list(json.loads(out.stdout)) == ["calculator", "sweep", "inputs", "values"]


@pytest.mark.parametrize(
    "args, says",
    [
        (("chq-comms-check", "--sweep", "bogus"), "cannot sweep 'bogus'"),
        (("konrad-supply", "--sweep", "map"), "it is a map"),
        (("chq-comms-check", "boosts=1", "--sweep", "boosts"), "boosts is swept"),
        (("chq-comms-check", "--sweep"), "needs an input's name"),
        (("chq-comms-check", "--sweep", "boosts", "--vs", "boosts=2"), "name=value inputs only"),
        (("chq-comms-check", "--sweep", "boosts", "--sweep", "nation"), "given twice"),
        (("chq-comms-check", "boosts=x", "--sweep", "nation"), "boosts"),
    ],
)
def test_cli_refuses_in_one_line(args, says, capsys):
    # In this process (the CLI's main, as `python -m rules_py` runs it): a process per case costs make check seconds.
    assert main(["odds", *args]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    lines = out.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], out.err
