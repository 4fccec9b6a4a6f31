"""The command line contract: list, odds, roll, and exit 2 with one error line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT
import rules_py


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rules_py", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_list_one_calculator_a_line():
    out = run("list")
    assert out.returncode == 0 and out.stderr == ""
    lines = out.stdout.splitlines()
    assert lines == [f"{c.id} {c.title}" for c in rules_py.calculators()]
    assert "chq-comms-check Combat HQ comms check" in lines


def test_odds_json_shape():
    out = run("odds", "chq-comms-check", "nation=soviet", "boosts=1")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert list(data) == ["calculator", "inputs", "outcomes", "notes"]
    assert data["calculator"] == "chq-comms-check"
    assert data["inputs"] == {"nation": "soviet", "boosts": "1", "air_recon": "false"}  # defaults included
    # Soviet 3D + 1 boost = 4D against 3D: exactly 1/2 (see test_chq_comms).
    assert data["outcomes"]["success"] == {"false": "1/2", "true": "1/2"}
    margins = list(data["outcomes"]["margin"])
    assert margins == [str(m) for m in sorted(int(m) for m in margins)]  # ascending integers
    assert data["notes"] == []


def test_roll_json_shape_and_repeatable():
    a = run("roll", "chq-comms-check", "--seed", "99", "nation=usa")
    b = run("roll", "chq-comms-check", "nation=usa", "--seed=99")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    data = json.loads(a.stdout)
    assert data["seed"] == 99 and data["inputs"]["nation"] == "usa"
    assert [d["dice"] for d in data["dice"]] == ["4D6", "3D6"]
    own, opposed = (sum(f >= 4 for f in d["faces"]) for d in data["dice"])
    assert data["outcomes"] == {"success": "true" if own > opposed else "false", "margin": str(own - opposed)}


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["frobnicate"],
        ["list", "extra"],
        ["odds"],
        ["odds", "no-such-calculator"],
        ["odds", "chq-comms-check", "nation=atlantis"],
        ["odds", "chq-comms-check", "boosts=-1"],
        ["odds", "chq-comms-check", "boosts=two"],
        ["odds", "chq-comms-check", "air_recon=yes"],
        ["odds", "chq-comms-check", "colour=red"],
        ["odds", "chq-comms-check", "boosts"],
        ["odds", "chq-comms-check", "boosts=1", "boosts=2"],
        ["roll", "chq-comms-check"],
        ["roll", "chq-comms-check", "--seed"],
        ["roll", "chq-comms-check", "--seed", "-4"],
        ["roll", "chq-comms-check", "--seed", "1.5"],
        ["roll", "chq-comms-check", "--seed", "\u00b2"],
        ["roll", "chq-comms-check", "--seed", "1", "--seed", "2"],
        ["roll", "chq-comms-check", "--seed", "18446744073709551616"],
        ["odds", "chq-comms-check", "boosts=" + "9" * 131_000],
    ],
)
def test_bad_input_exits_2_with_one_error_line(args):
    out = run(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr


def test_error_names_field_and_allowed_values():
    out = run("odds", "chq-comms-check", "nation=atlantis")
    assert "nation" in out.stderr and "commonwealth, germany, soviet, usa" in out.stderr


def test_answer_command_prints_the_typed_answer():
    out = run("answer", "chq-comms-check", "nation=soviet")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == rules_py.answer("chq-comms-check", {"nation": "soviet"})
    rolled = run("roll", "chq-comms-check", "--seed", "Konrad day 3", "--answer", "nation=usa")
    assert json.loads(rolled.stdout) == rules_py.answer("chq-comms-check", {"nation": "usa"}, "Konrad day 3")
    assert json.loads(run("answer", "chq-comms-check", "--seed", "5").stdout)["kind"] == "roll"


def test_the_command_a_roll_prints_repeats_it():
    doc = rules_py.answer("chq-fire-for-effect", {"fire_dice": "6", "cover": "light"}, "Konrad day 3, sector 14")
    import shlex

    again = run(*shlex.split(doc["command"])[3:])
    assert again.returncode == 0, again.stderr
    data = json.loads(again.stdout)
    assert [d["faces"] for d in data["dice"]] == [[f["face"] for f in d["faces"]] for d in doc["dice"]]
    assert data["outcomes"] == {o["name"]: o["value"] for o in doc["outcomes"]}


def test_a_full_output_gives_one_error_line_not_a_traceback():
    with open("/dev/full", "w") as full:
        out = subprocess.run([sys.executable, "-m", "rules_py", "odds", "chq-comms-check"], cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert out.returncode == 1  # not 2: the input was good
    assert out.stderr.startswith("error: ") and len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_a_name_given_twice_is_refused_alike_in_the_cli_and_call_json():
    out = run("odds", "chq-comms-check", "nation=usa", "nation=soviet")
    assert out.returncode == 2 and out.stdout == ""
    answer = json.loads(rules_py.call_json(json.dumps({"op": "answer", "id": "chq-comms-check", "inputs": {"nation": ["usa", "soviet"]}})))
    assert out.stderr == f"error: {answer['error']}\n"
    assert answer["fields"] == [{"field": "nation", "message": "given 2 times: give nation once"}]


# ------------------------------------------------ limits (issue 34, attack run)

LONGEST_ERROR = 1000  # characters: the longest message a good CLI gives (all 31 inputs named) is under 700


def test_a_flood_of_arguments_is_refused_at_once():
    # 80,000 "x=1" took 35 s before (each repeat rebuilt the list of values): now refused before any is read.
    out = subprocess.run([sys.executable, "-m", "rules_py", "odds", "chq-deviation", *["x=1"] * 80_000], cwd=ROOT, capture_output=True, text=True, timeout=20)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == "error: 80002 arguments given: at most 200\n"


def test_a_name_repeated_under_the_bound_is_counted():
    # 150 times the same name: the calculator's own "given N times", as a link gets it.
    assert cli_main(["odds", "chq-comms-check", *["nation=usa"] * 150]) == (2, "", "error: nation: given 150 times: give nation once\n")


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["odds", "x" * 10_000], id="unknown id"),
        pytest.param(["x" * 10_000], id="unknown command"),
        pytest.param(["odds", "chq-comms-check", "a" * 20_000 + "=1"], id="unknown input"),
        pytest.param(["odds", "chq-comms-check", "a" * 20_000], id="not name=value"),
        pytest.param(["roll", "chq-comms-check", "--seed", "9" * 20_000], id="seed"),
        pytest.param(["resolve", "k47-air-strike", "--dice", "7" * 20_000], id="dice"),
        pytest.param(["odds", "chq-comms-check", "--sweep", "b" * 20_000], id="sweep"),
        pytest.param(["odds", "chq-comms-check", "--vs", "a" * 20_000 + "=1"], id="option B's unknown input"),
        pytest.param(["resolve", "chq-comms-check", "--dice", "=" + "/".join(["1"] * 60_000)], id="a 60,000-count score"),
    ],
)
def test_an_error_line_quotes_a_bounded_excerpt(args):
    status, stdout, stderr = cli_main(args)
    assert status == 2 and stdout == ""
    assert stderr.startswith("error: ") and stderr.count("\n") == 1
    assert len(stderr) < LONGEST_ERROR, len(stderr)


# ------------------------------------------------ argparse's reading of the options

def test_a_value_may_begin_with_a_hyphen():
    # Only words that begin "--" are options: a seed phrase "-dawn raid" is the seed, "-4" is refused by the seed's own check.
    status, stdout, stderr = cli_main(["roll", "chq-comms-check", "--seed", "-dawn raid"])
    assert status == 0, stderr
    assert json.loads(stdout)["seed"] == json.loads(cli_main(["roll", "chq-comms-check", "--seed=-dawn raid"])[1])["seed"]
    assert cli_main(["roll", "chq-comms-check", "--seed", "-4"])[2].startswith("error: seed: '-4' is not allowed")
    assert cli_main(["odds", "chq-comms-check", "-x"])[2] == "error: '-x' is not name=value\n"


def test_vs_takes_its_changes_after_an_equals_sign_too():
    joined = cli_main(["odds", "chq-comms-check", "--vs=nation=soviet"])
    assert joined[0] == 0 and joined == cli_main(["odds", "chq-comms-check", "--vs", "nation=soviet"])


@pytest.mark.parametrize("command", ["roll", "resolve"])
def test_sweep_is_refused_where_it_means_nothing(command):
    assert cli_main([command, "chq-comms-check", "--sweep", "boosts"]) == (
        2, "", f"error: sweep: --sweep gives the odds at every value of an input: odds and answer take it, not {command}\n"
    )



USAGE = (
    "usage: python -m rules_py list | odds ID [name=value ...] [--vs name=value ... | --sweep NAME [--of OUTCOME]]"
    " | roll ID --seed S [--answer] [name=value ...] | answer ID [--seed S | --dice D | --sweep NAME [--of OUTCOME]] [name=value ...]"
    " | resolve ID [name=value ...] [--dice D] | [COMMAND] --help | --version"
)


@pytest.mark.parametrize(
    "args, stderr",
    [
        ([], f"error: {USAGE}\n"),
        (["frob"], f"error: unknown command 'frob'; {USAGE}\n"),
        (["odds"], "error: odds needs a calculator id; 'list' shows them\n"),
        (["list", "x"], "error: list takes no arguments\n"),
        (["odds", "-x"], "error: odds needs a calculator id; 'list' shows them\n"),  # an option-like word is no id
        (["odds", "chq-comms-check", "--of", "success"], "error: sweep_of: --of names the outcome a sweep follows: give --sweep NAME too (odds and answer take them)\n"),
        (["odds", "chq-comms-check", "--sweep", "boosts", "--of"], "error: sweep_of: --of needs an outcome's name\n"),
        (["odds", "chq-comms-check", "--sweep", "boosts", "--of", "success", "--of", "margin"], "error: sweep_of: --of given twice: sweep one outcome\n"),
        (["roll", "chq-comms-check", "--seed", "1", "--sweep", "boosts", "--of", "success"], "error: sweep: --sweep gives the odds at every value of an input: odds and answer take it, not roll\n"),
        (["odds", "chq-comms-check", "--help=yes"], "error: --help takes no value\n"),
        (["roll", "chq-comms-check", "--seed"], "error: seed: --seed needs a value\n"),
        (["roll", "chq-comms-check", "--seed", "1", "--seed", "2"], "error: seed: --seed given twice\n"),
        (["resolve", "k47-air-strike", "--dice"], "error: dice: --dice needs the dice rolled: --dice 6,3,4\n"),
        (["resolve", "k47-air-strike", "--dice", "2", "--dice", "3"], "error: dice: --dice given twice: give every die in one list\n"),
        (["odds", "chq-comms-check", "--sweep"], "error: sweep: --sweep needs an input's name\n"),
        (["odds", "chq-comms-check", "--sweep", "boosts", "--sweep", "nation"], "error: sweep: --sweep given twice: sweep one input\n"),
        (["odds", "chq-comms-check", "--sweep", "boosts", "--seed", "3"], "error: sweep: odds --sweep takes name=value inputs only (no --vs, --seed, --dice or --answer)\n"),
        (["odds", "chq-comms-check", "--vs", "nation=soviet", "--sweep", "boosts"], "error: sweep: odds --sweep takes name=value inputs only (no --vs, --seed, --dice or --answer)\n"),
        (["odds", "chq-comms-check", "--vs"], "error: vs: --vs needs option B's changes, once: --vs name=value ...\n"),
        (["odds", "chq-comms-check", "--vs", "--seed", "4"], "error: vs: after --vs come option B's changes only (name=value)\n"),
        (["odds", "chq-comms-check", "--vs", "nation=soviet", "--vs", "boosts=1"], "error: vs: --vs needs option B's changes, once: --vs name=value ...\n"),
        (["roll", "chq-comms-check", "--vs", "nation=soviet"], "error: --vs compares two options: only odds takes it\n"),
        (["odds", "chq-comms-check", "--dice", "2"], "error: dice: --dice gives the dice a player rolled: resolve and answer take it, not odds\n"),
        (["answer", "chq-comms-check", "--dice", "2", "--seed", "4"], "error: dice: --dice and --seed: give the dice rolled at the table, or a seed to roll with, not both\n"),
        (["resolve", "k47-air-strike", "--seed", "7"], "error: resolve takes --dice, not --seed or --answer (answer ID --dice D prints the typed form)\n"),
        (["odds", "chq-comms-check", "--answer"], "error: odds takes no --seed or --answer (roll takes them)\n"),
        (["roll", "chq-comms-check"], "error: seed: roll needs --seed S\n"),
        (["answer", "chq-comms-check", "--answer"], "error: answer prints the typed answer already: drop --answer\n"),
        (["odds", "chq-comms-check", "nation"], "error: 'nation' is not name=value\n"),
        (["odds", "chq-comms-check", "--frob"], "error: '--frob' is not name=value\n"),
        (["odds", "chq-comms-check", "--se", "5"], "error: '--se' is not name=value\n"),  # no abbreviations
    ],
)
def test_each_refusal_reads_as_before_argparse(args, stderr):
    # The messages as the hand-written parser gave them (recorded on main before the move to argparse).
    out = cli_main(args)
    assert out == (2, "", stderr)


def cli_main(args: list[str]) -> tuple[int, str, str]:
    """main() in this process: its exit status, stdout and stderr."""
    import contextlib
    import io

    from rules_py.__main__ import main

    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = main(list(args))
    return status, stdout.getvalue(), stderr.getvalue()


# ------------------------------------------------ help and version (issue 46 item 6)

COMMAND_NAMES = ["list", "odds", "roll", "answer", "resolve"]


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_names_every_command_and_exits_0(flag):
    out = run(flag)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert out.stdout.startswith("usage: python -m rules_py ")
    listed = [line.split()[0] for line in out.stdout.split("commands:")[1].splitlines() if line.startswith("    ") and not line.startswith("     ")]
    assert listed == COMMAND_NAMES, out.stdout
    assert "--version" in out.stdout and "Exit status: 0 done; 2 bad input" in out.stdout


@pytest.mark.parametrize("command", COMMAND_NAMES)
@pytest.mark.parametrize("where", ["after the command", "after the id"])
def test_each_command_has_its_help(command, where):
    args = [command, "--help"] if where == "after the command" or command == "list" else [command, "k47-air-strike", "flak_shots=2", "-h"]
    status, stdout, stderr = cli_main(args)
    assert (status, stderr) == (0, ""), stderr
    assert stdout.startswith(f"usage: python -m rules_py {command}")
    # Each command's help shows its own options, and no other's.
    own = {"list": [], "odds": ["--sweep", "--of", "--vs"], "roll": ["--seed", "--answer"], "answer": ["--seed", "--dice", "--sweep", "--of"], "resolve": ["--dice"]}[command]
    shown = [flag for flag in ("--seed", "--dice", "--sweep", "--of", "--answer", "--vs") if f"  {flag} " in stdout]
    assert shown == own, stdout


def test_version_is_the_packages():
    from importlib.metadata import version

    out = run("--version")
    assert (out.returncode, out.stdout, out.stderr) == (0, f"rules_py {version('rules_py')}\n", "")


@pytest.mark.parametrize("seed", ["-h", "-dawn"])
def test_a_value_that_looks_like_an_option_is_the_value(seed):
    # The word after --seed is the seed, whatever it is: "-h" rolls with the phrase "-h", not
    # the help; "-dawn" (no space, which argparse alone reads as an option) with "-dawn".
    # Without the CLI's joining of a value option and its value, each was "--seed needs a value".
    status, stdout, stderr = cli_main(["roll", "chq-comms-check", "--seed", seed])
    assert status == 0, stderr
    assert json.loads(stdout)["seed"] == json.loads(cli_main(["roll", "chq-comms-check", f"--seed={seed}"])[1])["seed"]


def test_no_private_argparse_name_is_overridden():
    from rules_py.__main__ import _Parser

    overridden = [name for name in vars(_Parser) if name.startswith("_") and not name.startswith("__")]
    assert overridden == []


# ------------------------------------------------ output that cannot be written (issue 44 item 9)


def test_a_closed_stdout_gives_one_error_line_not_a_traceback():
    # `list >&-`: Python starts with sys.stdout None; before, an AttributeError traceback.
    import shlex

    for args in (["list"], ["odds", "chq-comms-check"], ["--help"]):
        out = subprocess.run(["sh", "-c", f"{shlex.quote(sys.executable)} -m rules_py {' '.join(args)} >&-"], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert out.returncode == 1, out.stderr  # not 2: the input was good
        assert out.stderr == "error: cannot write the output: standard output is closed\n", out.stderr


# ------------------------------------------------ --sweep NAME --of OUTCOME (issue 43 item 7)


def test_of_unknown_names_the_outcomes_in_one_line():
    for command in ("odds", "answer"):
        out = run(command, "k47-air-strike", "--sweep", "friendly_flak", "--of", "unknown")
        assert (out.returncode, out.stdout) == (2, "")
        outcomes = ", ".join(o.name for o in rules_py.get("k47-air-strike").outcomes)
        assert out.stderr == f"error: sweep_of: cannot sweep the odds of 'unknown': the outcomes of k47-air-strike are {outcomes}\n"
        assert "hits" in outcomes and "aborted" in outcomes
