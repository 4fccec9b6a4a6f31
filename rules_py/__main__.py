"""The command line.

    python -m rules_py list
    python -m rules_py odds ID [name=value ...] [--vs name=value ...]
    python -m rules_py odds ID [name=value ...] --sweep NAME
    python -m rules_py roll ID --seed S [--answer] [name=value ...]
    python -m rules_py answer ID [--seed S | --dice D | --sweep NAME] [name=value ...]
    python -m rules_py resolve ID [name=value ...] [--dice D]

Output is one JSON object on stdout (one line per calculator for ``list``).
``odds`` and ``roll`` print the compact objects of the CLI contract; ``odds``
with ``--vs`` compares two options: the inputs after ``--vs`` are option b's
changes from option a (see :func:`rules_py.compare_odds` and the README);
``odds`` with ``--sweep NAME`` gives the odds at every value of one input
(:func:`rules_py.sweep`); ``resolve`` takes the dice a player rolled
(``--dice 6,3,=2/1``, see :mod:`rules_py.given`) and prints the first roll
still needed with the odds of what happens next, or the outcomes
(:func:`rules_py.resolve`); ``answer`` (and ``roll --answer``) prints the typed answer the page renders
(:mod:`rules_py.answer`), with ``--dice`` the typed resolution and with
``--sweep NAME`` the typed sweep, with what it takes (:func:`rules_py.sweep.sweep_answer`). A seed is a whole number or a phrase
(:mod:`rules_py.seeds`). Bad input exits with status 2 and one ``error:``
line on stderr, nothing on stdout. Output that cannot be written (a full
disk, a closed pipe) is no fault of the input: it exits with status 1 and
one ``error:`` line.
"""

from __future__ import annotations

import json
import sys

from . import answer, calculators, compare_odds, odds, resolve, roll
from .calculator import InputError, quoted
from .seeds import Seed, parse_seed
from .sweep import sweep, sweep_answer

USAGE = (
    "usage: python -m rules_py list | odds ID [name=value ...] [--vs name=value ... | --sweep NAME]"
    " | roll ID --seed S [--answer] [name=value ...] | answer ID [--seed S | --dice D | --sweep NAME] [name=value ...]"
    " | resolve ID [name=value ...] [--dice D]"
)


def _pairs(args: list[str]) -> dict[str, str | list[str]]:
    """name=value arguments; a name given more than once keeps all its values,
    which the calculator refuses with the same message a page's link gets."""
    inputs: dict[str, str | list[str]] = {}
    for arg in args:
        name, sep, value = arg.partition("=")
        if not sep or not name:
            raise InputError(f"{quoted(arg)} is not name=value")
        if name in inputs:
            before = inputs[name]
            inputs[name] = [*before, value] if isinstance(before, list) else [before, value]
        else:
            inputs[name] = value
    return inputs


def _option(args: list[str], flag: str, field: str, needs: str, twice: str, empty: bool = False) -> tuple[str | None, list[str]]:
    """``--flag V`` (or ``--flag=V``), given at most once, and the other arguments.
    ``needs`` and ``twice`` are the errors for a missing value and a second flag;
    ``empty`` lets the value be empty text (no dice yet)."""
    value: str | None = None
    others: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == flag or arg.startswith(flag + "="):
            if arg == flag:
                if i + 1 >= len(args) or args[i + 1].startswith("--"):
                    raise InputError(needs, field)
                given = args[i + 1]
                i += 1
            else:
                given = arg.split("=", 1)[1]
            if value is not None:
                raise InputError(twice, field)
            if not given and not empty:
                raise InputError(needs, field)
            value = given
        else:
            others.append(arg)
        i += 1
    return value, others


def _options(args: list[str]) -> tuple[Seed | None, bool, list[str]]:
    """``--seed S`` (at most once) and ``--answer``, and the other arguments."""
    raw, others = _option(args, "--seed", "seed", "--seed needs a value", "--seed given twice")
    return (None if raw is None else parse_seed(raw)), "--answer" in others, [a for a in others if a != "--answer"]


def _split_dice(args: list[str]) -> tuple[str | None, list[str]]:
    """``--dice D`` (at most once) and the other arguments."""
    return _option(args, "--dice", "dice", "--dice needs the dice rolled: --dice 6,3,4", "--dice given twice: give every die in one list", empty=True)


def _split_sweep(args: list[str]) -> tuple[str | None, list[str]]:
    """``--sweep NAME`` (at most once) and the other arguments."""
    return _option(args, "--sweep", "sweep", "--sweep needs an input's name", "--sweep given twice: sweep one input")


def _text(args: list[str]) -> str:
    if not args:
        raise InputError(USAGE)
    command, rest = args[0], args[1:]
    if command == "list":
        if rest:
            raise InputError("list takes no arguments")
        return "".join(f"{c.id} {c.title}\n" for c in calculators())
    if command not in ("odds", "roll", "answer", "resolve"):
        raise InputError(f"unknown command {quoted(command)}; {USAGE}")
    if not rest:
        raise InputError(f"{command} needs a calculator id; 'list' shows them")
    options = rest[1:]
    if command in ("odds", "answer") and any(a == "--sweep" or a.startswith("--sweep=") for a in options):
        return _sweep_text(rest[0], options, typed=command == "answer")
    vs_args = None
    if "--vs" in options:
        at = options.index("--vs")
        options, vs_args = options[:at], options[at + 1 :]
        if command != "odds":
            raise InputError("--vs compares two options: only odds takes it")
        if not vs_args or "--vs" in vs_args:
            raise InputError("--vs needs option B's changes, once: --vs name=value ...", "vs")
        if any(arg.startswith("--") for arg in vs_args):
            raise InputError("after --vs come option B's changes only (name=value)", "vs")
    dice, options = _split_dice(options)
    seed, as_answer, others = _options(options)
    inputs = _pairs(others)
    if dice is not None and command not in ("resolve", "answer"):
        raise InputError(f"--dice gives the dice a player rolled: resolve and answer take it, not {command}", "dice")
    if dice is not None and seed is not None:
        raise InputError("--dice and --seed: give the dice rolled at the table, or a seed to roll with, not both", "dice")
    if command == "resolve":
        if seed is not None or as_answer:
            raise InputError("resolve takes --dice, not --seed or --answer (answer ID --dice D prints the typed form)")
        result = resolve(rest[0], inputs, dice or "")
    elif command == "odds":
        if seed is not None or as_answer:
            raise InputError("odds takes no --seed or --answer (roll takes them)")
        result = odds(rest[0], inputs) if vs_args is None else compare_odds(rest[0], inputs, _pairs(vs_args))
    elif command == "roll":
        if seed is None:
            raise InputError("roll needs --seed S", "seed")
        result = answer(rest[0], inputs, seed) if as_answer else roll(rest[0], seed, inputs)
    else:
        if as_answer:
            raise InputError("answer prints the typed answer already: drop --answer")
        result = answer(rest[0], inputs, seed, dice=dice)
    return json.dumps(result, indent=2) + "\n"


def _sweep_text(calculator_id: str, options: list[str], typed: bool) -> str:
    """``odds ID [name=value ...] --sweep NAME`` (rules_py.sweep), or with
    ``answer`` the typed sweep (rules_py.sweep.sweep_answer)."""
    name, others = _split_sweep(options)
    if any(arg.startswith("--") for arg in others):
        raise InputError(f"{'answer' if typed else 'odds'} --sweep takes name=value inputs only (no --vs, --seed, --dice or --answer)", "sweep")
    made = sweep_answer(calculator_id, _pairs(others), name) if typed else sweep(calculator_id, _pairs(others), name)
    return json.dumps(made, indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        text = _text(args)
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as e:  # a full disk, a closed pipe: say so in one line, no traceback
        try:
            sys.stdout = None  # nothing more to flush at exit
            print(f"error: cannot write the output: {e.strerror or e}", file=sys.stderr)
        except OSError:
            pass
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
