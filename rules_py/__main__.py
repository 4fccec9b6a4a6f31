"""The command line: ``python -m rules_py list | odds ID [name=value ...] | roll ID --seed N [name=value ...]``.

Output is one JSON object on stdout (one line per calculator for ``list``).
Bad input exits with status 2 and one ``error:`` line on stderr, nothing on stdout.
"""

from __future__ import annotations

import json
import sys

from . import calculators, odds, roll
from .calculator import InputError

USAGE = "usage: python -m rules_py list | odds ID [name=value ...] | roll ID --seed N [name=value ...]"


def _pairs(args: list[str]) -> dict[str, str]:
    inputs: dict[str, str] = {}
    for arg in args:
        name, sep, value = arg.partition("=")
        if not sep or not name:
            raise InputError(f"{arg!r} is not name=value")
        if name in inputs:
            raise InputError(f"{name} given twice", name)
        inputs[name] = value
    return inputs


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if not args:
            raise InputError(USAGE)
        command, rest = args[0], args[1:]
        if command == "list":
            if rest:
                raise InputError("list takes no arguments")
            text = "".join(f"{c.id} {c.title}\n" for c in calculators())
        elif command == "odds":
            if not rest:
                raise InputError("odds needs a calculator id; 'list' shows them")
            text = json.dumps(odds(rest[0], _pairs(rest[1:])), indent=2) + "\n"
        elif command == "roll":
            if not rest:
                raise InputError("roll needs a calculator id; 'list' shows them")
            seed, others = _seed(rest[1:])
            text = json.dumps(roll(rest[0], seed, _pairs(others)), indent=2) + "\n"
        else:
            raise InputError(f"unknown command {command!r}; {USAGE}")
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def _seed(args: list[str]) -> tuple[int, list[str]]:
    seed = None
    others = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--seed" or arg.startswith("--seed="):
            if arg == "--seed":
                if i + 1 >= len(args):
                    raise InputError("--seed needs a value", "seed")
                raw = args[i + 1]
                i += 1
            else:
                raw = arg.split("=", 1)[1]
            if not raw.isdigit() or len(raw) > 18:
                raise InputError(f"{raw!r} is not allowed: expected a whole number from 0 to 999999999999999999", "seed")
            seed = int(raw)
        else:
            others.append(arg)
        i += 1
    if seed is None:
        raise InputError("roll needs --seed N", "seed")
    return seed, others


if __name__ == "__main__":
    sys.exit(main())
