"""The command line.

    python -m rules_py list
    python -m rules_py odds ID [name=value ...] [--vs name=value ...]
    python -m rules_py odds ID [name=value ...] --sweep NAME [--of OUTCOME]
    python -m rules_py roll ID --seed S [--answer] [name=value ...]
    python -m rules_py answer ID [--seed S | --dice D | --sweep NAME [--of OUTCOME]] [name=value ...]
    python -m rules_py resolve ID [name=value ...] [--dice D]
    python -m rules_py [COMMAND] --help | --version

Output is one JSON object on stdout (one line per calculator for ``list``).
``odds`` and ``roll`` print the compact objects of the CLI contract; ``odds``
with ``--vs`` compares two options: the inputs after ``--vs`` are option b's
changes from option a (see :func:`rules_py.compare_odds` and guides/command-line.md);
``odds`` with ``--sweep NAME`` gives the odds at every value of one input
(:func:`rules_py.sweep`), with ``--of OUTCOME`` of that outcome only; ``resolve`` takes the dice a player rolled
(``--dice 6,3,=2/1``, see :mod:`rules_py.given`) and prints the first roll
still needed with the odds of what happens next, or the outcomes
(:func:`rules_py.resolve`); ``answer`` (and ``roll --answer``) prints the typed answer the page renders
(:mod:`rules_py.answer`), with ``--dice`` the typed resolution and with
``--sweep NAME`` the typed sweep of the headline's outcome, or with ``--of
OUTCOME`` of that one, with what it takes (:func:`rules_py.sweep.sweep_answer`). A seed is a whole number or a phrase
(:mod:`rules_py.seeds`).

The words are read by :mod:`argparse`: one sub-parser per command, each with
its ``-h``/``--help``, the command's own options in its help. Every option is
registered on every command, its help hidden where the command does not take
it, so that such an option is refused with what to do instead (:func:`_text`)
and not as an unknown word. The calculator is the word after the command;
the ``name=value`` inputs are the words that are no option, in their order.
Only a word that begins ``--`` is an option: a value option and the word after
it are handed to argparse as one (``--seed -4`` as ``--seed=-4``), so that a
seed such as ``-dawn`` reaches the seed parser (which says what is wrong with
``-4``), and ``-x`` is a word like any other (not name=value).

Bad input exits with status 2 and one ``error:`` line on stderr, nothing on
stdout; a value in a message is quoted by :func:`rules_py.calculator.quoted`,
cut short, and more than :data:`MAX_ARGUMENTS` words are refused before any is
read. ``--help`` and ``--version`` print to stdout and exit 0. Output that
cannot be written (a full disk, a closed pipe, stdout closed with ``>&-``) is
no fault of the input: it exits with status 1 and one ``error:`` line.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import metadata
from typing import Any, Callable, Mapping

from . import answer, calculators, compare_odds, odds, resolve, roll
from .calculator import InputError, quoted
from .seeds import parse_seed
from .sweep import sweep, sweep_answer

PROG = "python -m rules_py"
# Each command's words after the command, as the usage line and its help show them.
COMMAND_USAGE = {
    "list": "list",
    "odds": "odds ID [name=value ...] [--vs name=value ... | --sweep NAME [--of OUTCOME]]",
    "roll": "roll ID --seed S [--answer] [name=value ...]",
    "answer": "answer ID [--seed S | --dice D | --sweep NAME [--of OUTCOME]] [name=value ...]",
    "resolve": "resolve ID [name=value ...] [--dice D]",
}
USAGE = f"usage: {PROG} " + " | ".join(COMMAND_USAGE.values()) + " | [COMMAND] --help | --version"
COMMANDS = ("odds", "roll", "answer", "resolve")  # the commands that take a calculator
# Far more words than any command needs (the largest calculator has 31 inputs;
# each option's inputs, a --vs and every flag come to under 70), and a bound
# that makes a flood of arguments a refusal at once, before anything reads them.
MAX_ARGUMENTS = 200

EXIT_STATUS = "Exit status: 0 done; 2 bad input (one 'error:' line on stderr, nothing on stdout); 1 the output could not be written."
INPUTS = "Inputs are name=value, each calculator's own: 'odds ID' prints them all with their values."
# What each command does, for its line in the command's help and the head of its own.
COMMAND_HELP = {
    "list": "every calculator, one a line: its id and title",
    "odds": "the exact odds of every outcome, as fractions; --vs compares two options, --sweep takes one input over every value it allows",
    "roll": "one seeded roll: the same seed and inputs give the same dice everywhere, the page included",
    "answer": "the typed answer the page renders: the odds, a roll (--seed), the dice rolled at the table (--dice) or a sweep (--sweep)",
    "resolve": "the dice a player rolled (--dice): the next roll still needed with the odds of what happens next, or the outcomes",
}


class _Done(Exception):
    """--help or --version was asked for: ``text`` is all the command prints (exit 0)."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


class _Say(argparse.Action):
    """``--help`` or ``--version``: the command ends with ``say(parser)`` on stdout (see :func:`main`)."""

    def __init__(self, option_strings: list[str], dest: str, *, say: Callable[[argparse.ArgumentParser], str], help: str | None = None):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)
        self.say = say

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option_string: str | None = None) -> None:
        raise _Done(self.say(parser))


class _Once(argparse.Action):
    """``--flag V`` (or ``--flag=V``), given at most once: ``needs`` is the error
    for a missing value, ``twice`` for a second flag, both on the field named
    by ``dest``; ``empty`` lets the value be empty text (no dice yet)."""

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
    (exit 2, one ``error:`` line, see :func:`main`), never argparse's usage block."""

    def error(self, message: str) -> Any:
        raise InputError(message)


def version() -> str:
    """The installed package's version (pyproject.toml's), as ``--version`` prints it."""
    try:
        return metadata.version("rules_py")
    except metadata.PackageNotFoundError:  # the sources run without being installed
        return "unknown (not installed)"


# The options, each with its metavar, the commands that take it and its help; a
# value option is an _Once (its errors said on its field), the others flags.
VALUED: dict[str, dict[str, Any]] = {
    "--seed": {"metavar": "S", "takes": ("roll", "answer"), "needs": "--seed needs a value", "twice": "--seed given twice",
               "help": "a whole number or a phrase: the same seed and inputs roll the same dice everywhere"},
    "--dice": {"metavar": "D", "takes": ("resolve", "answer"), "needs": "--dice needs the dice rolled: --dice 6,3,4", "twice": "--dice given twice: give every die in one list", "empty": True,
               "help": "the dice rolled at the table, in order: 6,3,4 (a pool by what it scored: =2/1)"},
    "--sweep": {"metavar": "NAME", "takes": ("odds", "answer"), "needs": "--sweep needs an input's name", "twice": "--sweep given twice: sweep one input",
                "help": "an input to take over every value it allows (a whole number with bounds, a choice or a yes/no), the others as given"},
    "--of": {"metavar": "OUTCOME", "takes": ("odds", "answer"), "dest": "sweep_of", "needs": "--of needs an outcome's name", "twice": "--of given twice: sweep one outcome",
             "help": "with --sweep: the outcome it follows (odds: that outcome's odds only; answer: its chance, or its average and chance of at least 1), not the headline's"},
}  # fmt: skip


def _add_options(parser: argparse.ArgumentParser, command: str) -> None:
    """Every option on ``command``'s parser; the help shows those it takes."""
    parser.add_argument("-h", "--help", action=_Say, say=lambda p: p.format_help(), help="show this help and exit")
    for flag, o in VALUED.items():
        shown = o["help"] if command in o["takes"] else argparse.SUPPRESS
        parser.add_argument(flag, dest=o.get("dest", flag[2:]), metavar=o["metavar"], action=_Once, needs=o["needs"], twice=o["twice"], empty=o.get("empty", False), help=shown)
    parser.add_argument("--answer", action="store_true", help="print the typed answer the page renders" if command == "roll" else argparse.SUPPRESS)
    vs_help = "option B's changes from the inputs before --vs: every word after it is one" if command == "odds" else argparse.SUPPRESS
    parser.add_argument("--vs", nargs=argparse.REMAINDER, metavar="name=value", help=vs_help)


def _parser() -> _Parser:
    """The command line's parser: ``--help``, ``--version`` and a sub-parser per command."""
    top = _Parser(prog=PROG, usage=f"{PROG} COMMAND ... | [COMMAND] --help | --version", description="Fire Mission's rules engine: exact odds, seeded rolls and the dice rolled at the table, as JSON.",
                  epilog=f"{INPUTS} {EXIT_STATUS} '{PROG} COMMAND --help' gives a command's options.", add_help=False, allow_abbrev=False, exit_on_error=False)  # fmt: skip
    top.add_argument("-h", "--help", action=_Say, say=lambda p: p.format_help(), help="show this help and exit")
    top.add_argument("--version", action=_Say, say=lambda p: f"rules_py {version()}\n", help="show the package's version and exit")
    commands = top.add_subparsers(title="commands", dest="command", metavar="COMMAND", prog=PROG, parser_class=_Parser)
    for command, usage in COMMAND_USAGE.items():
        sub = commands.add_parser(command, help=COMMAND_HELP[command], description=COMMAND_HELP[command][0].upper() + COMMAND_HELP[command][1:] + ".",
                                  usage=f"{PROG} {usage}", epilog=EXIT_STATUS if command == "list" else f"{INPUTS} {EXIT_STATUS}", add_help=False, allow_abbrev=False, exit_on_error=False)  # fmt: skip
        if command == "list":
            sub.add_argument("-h", "--help", action=_Say, say=lambda p: p.format_help(), help="show this help and exit")
            continue
        sub.add_argument("id", nargs="?", metavar="ID", help="a calculator's id: 'list' shows them")
        _add_options(sub, command)
    return top


_PARSER = _parser()


def _joined(words: list[str]) -> list[str]:
    """The words with each value option and its value as one (``--seed=-4``), up
    to ``--vs``, whose words are option B's as typed: argparse then takes a
    value beginning with a hyphen as the value, not as an option."""
    out: list[str] = []
    for i, word in enumerate(words):
        if word == "--vs" or word.startswith("--vs="):
            return out + words[i:]
        if out and out[-1] in VALUED and not word.startswith("--"):
            out[-1] = f"{out[-1]}={word}"
        else:
            out.append(word)
    return out


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


def _parse(args: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """The command, its calculator, the options and, in order, the other words."""
    try:
        return _PARSER.parse_known_args(_joined(args))
    except argparse.ArgumentError as e:  # --seed with no value after it; --answer=yes
        flag = (e.argument_name or "").split("/")[-1]
        valued = VALUED.get(flag)
        if valued is not None:
            raise InputError(valued["needs"], valued.get("dest", flag[2:])) from None
        raise InputError(f"{flag} takes no value") from None


def _text(args: list[str]) -> str:
    """What the command prints; an InputError for bad input, _Done for --help and --version."""
    if not args:
        raise InputError(USAGE)
    if len(args) > MAX_ARGUMENTS:
        raise InputError(f"{len(args)} arguments given: at most {MAX_ARGUMENTS}")
    command = args[0]
    if command not in COMMAND_USAGE and command not in ("-h", "--help", "--version"):
        raise InputError(f"unknown command {quoted(command)}; {USAGE}")
    given, words = _parse(args)
    if command == "list":
        if words:
            raise InputError("list takes no arguments")
        return "".join(f"{c.id} {c.title}\n" for c in calculators())
    if given.id is None:
        raise InputError(f"{command} needs a calculator id; 'list' shows them")
    calculator_id = given.id
    if given.sweep_of is not None and given.sweep is None:
        raise InputError("--of names the outcome a sweep follows: give --sweep NAME too (odds and answer take them)", "sweep_of")
    if given.sweep is not None or any(w == "--sweep" or w.startswith("--sweep=") for w in given.vs or ()):
        if command not in ("odds", "answer"):
            raise InputError(f"--sweep gives the odds at every value of an input: odds and answer take it, not {command}", "sweep")
        if given.vs is not None or given.seed is not None or given.dice is not None or given.answer or any(w.startswith("--") for w in words):
            raise InputError(f"{command} --sweep takes name=value inputs only (no --vs, --seed, --dice or --answer)", "sweep")
        inputs = _pairs(words)
        if command == "answer":
            return json.dumps(sweep_answer(calculator_id, inputs, given.sweep, given.sweep_of), indent=2) + "\n"
        return json.dumps(sweep(calculator_id, inputs, given.sweep, given.sweep_of), indent=2) + "\n"
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
        result: Mapping[str, Any] = resolve(calculator_id, inputs, dice or "")
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


def _error(line: str) -> None:
    """One line on stderr, if there is a stderr to write it to."""
    try:
        if sys.stderr is not None:
            print(line, file=sys.stderr)
    except OSError:
        pass


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        text = _text(args)
    except _Done as done:  # --help, --version
        text = done.text
    except InputError as e:
        _error(f"error: {e}")
        return 2
    if sys.stdout is None:  # started with stdout closed (`>&-`): Python leaves it None
        _error("error: cannot write the output: standard output is closed")
        return 1
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as e:  # a full disk, a closed pipe: say so in one line, no traceback
        sys.stdout = None  # nothing more to flush at exit
        _error(f"error: cannot write the output: {e.strerror or e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
