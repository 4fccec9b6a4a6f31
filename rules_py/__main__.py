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
changes from option a (see :func:`rules_py.compare_odds` and guides/command-line.md);
``odds`` with ``--sweep NAME`` gives the odds at every value of one input
(:func:`rules_py.sweep`); ``resolve`` takes the dice a player rolled
(``--dice 6,3,=2/1``, see :mod:`rules_py.given`) and prints the first roll
still needed with the odds of what happens next, or the outcomes
(:func:`rules_py.resolve`); ``answer`` (and ``roll --answer``) prints the typed answer the page renders
(:mod:`rules_py.answer`), with ``--dice`` the typed resolution and with
``--sweep NAME`` the typed sweep, with what it takes (:func:`rules_py.sweep.sweep_answer`). A seed is a whole number or a phrase
(:mod:`rules_py.seeds`). The options are read by :mod:`argparse`, the command
and the calculator being the first two words. Bad input exits with status 2
and one ``error:`` line on stderr, nothing on stdout; a value in a message is
quoted by :func:`rules_py.calculator.quoted`, cut short, and more than
:data:`MAX_ARGUMENTS` words are refused before any is read. Output that cannot be written (a full
disk, a closed pipe) is no fault of the input: it exits with status 1 and
one ``error:`` line.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from . import answer, calculators, compare_odds, odds, resolve, roll
from .calculator import InputError, quoted
from .seeds import parse_seed
from .sweep import sweep, sweep_answer

USAGE = (
    "usage: python -m rules_py list | odds ID [name=value ...] [--vs name=value ... | --sweep NAME]"
    " | roll ID --seed S [--answer] [name=value ...] | answer ID [--seed S | --dice D | --sweep NAME] [name=value ...]"
    " | resolve ID [name=value ...] [--dice D]"
)
COMMANDS = ("odds", "roll", "answer", "resolve")
# Far more words than any command needs (the largest calculator has 31 inputs;
# each option's inputs, a --vs and every flag come to under 70), and a bound
# that makes a flood of arguments a refusal at once, before anything reads them.
MAX_ARGUMENTS = 200


class _Once(argparse.Action):
    """``--flag V`` (or ``--flag=V``), given at most once: ``needs`` is the error
    for a missing value, ``twice`` for a second flag, both on the field named
    by the option; ``empty`` lets the value be empty text (no dice yet)."""

    def __init__(self, option_strings: list[str], dest: str, *, needs: str, twice: str, empty: bool = False, **kwargs: Any):
        super().__init__(option_strings, dest, **kwargs)
        self.needs, self.twice, self.empty = needs, twice, empty

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option_string: str | None = None) -> None:
        if getattr(namespace, self.dest) is not None:
            raise InputError(self.twice, self.dest)
        if not values and not self.empty:
            raise InputError(self.needs, self.dest)
        setattr(namespace, self.dest, values)


class _Parser(argparse.ArgumentParser):
    """argparse with the CLI's contract: a bad argument is an :class:`InputError`
    (exit 2, one ``error:`` line, see :func:`main`), never argparse's usage block;
    and only a word that begins ``--`` can be an option, so that ``--seed -4``
    and ``--seed "-dawn raid"`` hand the seed parser what was typed (it says
    what is wrong with it) and ``-x`` is an input like any other word.
    ``_parse_optional``, argparse's test of whether a word is an option, is its
    one private name used here (argparse offers no public switch for it; the
    same on CPython 3.11 and Pyodide's 3.14): tests/test_cli.py's hyphen test
    fails if a Python changes it."""

    def _parse_optional(self, arg_string: str) -> Any:
        return super()._parse_optional(arg_string) if arg_string.startswith("--") else None

    def error(self, message: str) -> Any:
        raise InputError(message)


def _parser() -> tuple[_Parser, dict[str, _Once]]:
    """The options every command is parsed with, and those of them that take a
    value, by name; which command takes which is checked after (:func:`_text`),
    so that each refusal says what to do instead. Words that are no option (the
    ``name=value`` inputs) come back in the order given."""
    parser = _Parser(prog="python -m rules_py", usage=USAGE, add_help=False, allow_abbrev=False, exit_on_error=False)
    valued = [
        parser.add_argument("--seed", action=_Once, needs="--seed needs a value", twice="--seed given twice"),
        parser.add_argument("--dice", action=_Once, needs="--dice needs the dice rolled: --dice 6,3,4", twice="--dice given twice: give every die in one list", empty=True),
        parser.add_argument("--sweep", action=_Once, needs="--sweep needs an input's name", twice="--sweep given twice: sweep one input"),
    ]
    parser.add_argument("--answer", action="store_true")
    parser.add_argument("--vs", nargs=argparse.REMAINDER)  # option B's changes: every word after it
    return parser, {a.option_strings[0]: a for a in valued if isinstance(a, _Once)}


_PARSER, _VALUED = _parser()


def _pairs(args: list[str]) -> dict[str, str | list[str]]:
    """name=value arguments; a name given more than once keeps all its values,
    which the calculator refuses with the same message a page's link gets."""
    inputs: dict[str, str | list[str]] = {}
    for arg in args:
        name, sep, value = arg.partition("=")
        if not sep or not name:
            raise InputError(f"{quoted(arg)} is not name=value")
        before = inputs.get(name)
        if before is None:
            inputs[name] = value
        elif isinstance(before, list):
            before.append(value)  # in place: a name given thousands of times costs no more than once each
        else:
            inputs[name] = [before, value]
    return inputs


def _parse(options: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """The options and, in order, the other words."""
    try:
        return _PARSER.parse_known_args(options)
    except argparse.ArgumentError as e:  # --seed with no value after it; --answer=yes
        valued = _VALUED.get(e.argument_name or "")
        if valued is not None:
            raise InputError(valued.needs, valued.dest) from None
        raise InputError(f"{e.argument_name} takes no value") from None


def _text(args: list[str]) -> str:
    if not args:
        raise InputError(USAGE)
    if len(args) > MAX_ARGUMENTS:
        raise InputError(f"{len(args)} arguments given: at most {MAX_ARGUMENTS}")
    command, rest = args[0], args[1:]
    if command == "list":
        if rest:
            raise InputError("list takes no arguments")
        return "".join(f"{c.id} {c.title}\n" for c in calculators())
    if command not in COMMANDS:
        raise InputError(f"unknown command {quoted(command)}; {USAGE}")
    if not rest:
        raise InputError(f"{command} needs a calculator id; 'list' shows them")
    # The calculator is the word after the command, whatever it is.
    calculator_id, (given, words) = rest[0], _parse(rest[1:])
    if given.sweep is not None or any(w == "--sweep" or w.startswith("--sweep=") for w in given.vs or ()):
        if command not in ("odds", "answer"):
            raise InputError(f"--sweep gives the odds at every value of an input: odds and answer take it, not {command}", "sweep")
        if given.vs is not None or given.seed is not None or given.dice is not None or given.answer or any(w.startswith("--") for w in words):
            raise InputError(f"{command} --sweep takes name=value inputs only (no --vs, --seed, --dice or --answer)", "sweep")
        inputs = _pairs(words)
        made = sweep_answer(calculator_id, inputs, given.sweep) if command == "answer" else sweep(calculator_id, inputs, given.sweep)
        return json.dumps(made, indent=2) + "\n"
    if given.vs is not None:
        if command != "odds":
            raise InputError("--vs compares two options: only odds takes it")
        if not given.vs or "--vs" in given.vs:
            raise InputError("--vs needs option B's changes, once: --vs name=value ...", "vs")
        if any(w.startswith("--") for w in given.vs):
            raise InputError("after --vs come option B's changes only (name=value)", "vs")
    seed = None if given.seed is None else parse_seed(given.seed)
    inputs, dice = _pairs(words), given.dice
    if dice is not None and command not in ("resolve", "answer"):
        raise InputError(f"--dice gives the dice a player rolled: resolve and answer take it, not {command}", "dice")
    if dice is not None and seed is not None:
        raise InputError("--dice and --seed: give the dice rolled at the table, or a seed to roll with, not both", "dice")
    if command == "resolve":
        if seed is not None or given.answer:
            raise InputError("resolve takes --dice, not --seed or --answer (answer ID --dice D prints the typed form)")
        result = resolve(calculator_id, inputs, dice or "")
    elif command == "odds":
        if seed is not None or given.answer:
            raise InputError("odds takes no --seed or --answer (roll takes them)")
        result = odds(calculator_id, inputs) if given.vs is None else compare_odds(calculator_id, inputs, _pairs(given.vs))
    elif command == "roll":
        if seed is None:
            raise InputError("roll needs --seed S", "seed")
        result = answer(calculator_id, inputs, seed) if given.answer else roll(calculator_id, seed, inputs)
    else:
        if given.answer:
            raise InputError("answer prints the typed answer already: drop --answer")
        result = answer(calculator_id, inputs, seed, dice=dice)
    return json.dumps(result, indent=2) + "\n"


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
