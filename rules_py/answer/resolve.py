"""The resolve answer (``"kind": "resolve"``): a procedure resolved with the dice a player rolled.

Either the first roll the procedure still needs (``need``), with the exact
odds of every outcome given the dice so far (``outcomes``, as an odds
answer lists them), or, every roll given, the outcomes as a seeded roll
gives them (``rolled``). The trail so far (``given``) is a roll's log, and
``given_words`` the same in a few words a roll each (:func:`roll_words`),
for where a list says how far each kept mission has come. A pool
that counts what it scored may be given by those counts: ``need`` then names
its ``counts`` and, in the typed form, every score its dice can make.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..calculator import Calculator, InputError
from ..dice import Counted, Distribution, Given, GivenError, NeedRoll, faces, pool
from ..dice.faces import counting
from ..formats import dice_words, format_value
from ..given import dice_text, entries_by_roll
from .odds import OddsAnswer, answer_summary, head
from .rolls import cli_die, command, die_doc, rolled_docs, rolled_headline
from .wording import headline_text

if TYPE_CHECKING:
    from . import shapes


def roll_words(die: shapes.Die) -> str:
    """A roll of the trail in a few words: its name, the label up to its
    first aside (a bracket, or a colon before what it counts), and what it
    decided, as the trail says it.

    >>> roll_words({"label": "deviation die (Hit on 1-2, an arrow otherwise)", "result": "An arrow"})
    'deviation die: An arrow'
    """
    name = re.split(r" \(|: ", die["label"], maxsplit=1)[0]
    return f"{name}: {die['result']}"


class Resolution:
    """A procedure resolved with the dice a player rolled (:class:`rules_py.dice.Given`):
    either the first roll it still needs, with the exact odds of every outcome
    given the dice so far, or, every roll given, the outcomes as a seeded roll
    gives them. :meth:`cli` is what ``python -m rules_py resolve`` prints,
    :meth:`doc` the typed answer (InputError on bad input or dice, on ``dice``)."""

    def __init__(self, calc: Calculator, raw: Mapping[str, Any] | None, entries: list[int | Counted]):
        self.calc = calc
        self.inputs = calc.validate(raw)
        self.entries = list(entries)
        given = Given(self.entries)
        self.need: NeedRoll | None = None
        result: Mapping[str, Any] | None = None
        try:
            result = calc.play(given, self.inputs)
        except NeedRoll as need:
            self.need = need
        except GivenError as e:
            raise InputError(str(e), "dice") from None
        if result is not None and given.used < len(self.entries):
            extra = len(self.entries) - given.used
            raise InputError(
                f"the procedure ended after {given.used} {'die' if given.used == 1 else 'dice'}; {extra} more {'was' if extra == 1 else 'were'} given", "dice"
            )
        self.given = given
        self.result = dict(result) if result is not None else None
        if self.result is not None:
            odds = calc.odds_of(self.inputs, {name: Distribution({value: 1}) for name, value in self.result.items()})
        else:
            odds = calc.odds_given(self.inputs, given.values)
        self.odds = OddsAnswer(calc, odds)

    @property
    def status(self) -> str:
        return "need" if self.need else "done"

    def _need_doc(self, typed: bool) -> shapes.Need | None:
        need = self.need
        if need is None:
            return None
        doc: shapes.Need = {"label": need.label, "dice": need.dice, "faces": need.sides, "count": need.count}
        table = need.table
        if table is not None and table != faces(need.sides) and need.count > 1:
            # A pool that counts what it scored may be given by those counts instead of its faces.
            doc["counts"] = [list(n) for n in need.names] if need.names else None
            if typed:
                names = need.names
                scoring = counting(need.sides, table)  # one number a die, not a vector of counts
                doc["scores"] = [
                    {"value": "/".join(map(str, v)) if isinstance(v, tuple) else str(v), "label": dice_words(v, names, scoring)}
                    for v in pool(need.count, need.sides, table)
                ]
        return doc

    def cli(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "calculator": self.calc.id,
            "inputs": {k: format_value(v) for k, v in self.inputs.items()},
            "status": self.status,
            "given": [cli_die(d) for d in self.given.log],
        }
        if self.need:
            out["need"] = self._need_doc(False)
        out["odds"] = self.odds.cli()["outcomes"]
        if self.result is not None:
            out["outcomes"] = {o.name: format_value(self.result[o.name]) for o in self.calc.outcomes_for(self.inputs)}
        return out

    def doc(self) -> shapes.ResolveAnswer:
        calc = self.calc
        first = head(calc, self.inputs, "resolve")
        text = dice_text(self.entries)
        outcomes, units = self.odds.outcome_docs()
        given: list[shapes.Die] = [{**die_doc(d, calc.page), "entries": e} for d, e in zip(self.given.log, entries_by_roll(self.entries, self.given.log), strict=True)]
        if self.result is not None:
            rolled: list[shapes.RolledOutcome] | None = rolled_docs(calc, self.inputs, self.result)
            parts = rolled_headline(calc, self.inputs, self.result)
        else:
            rolled = None
            parts = self.odds.headline_parts()
        if self.need:
            summary = f"Next: {self.need.label} ({self.need.dice}). " + answer_summary(outcomes, units)
        else:
            summary = "Resolved with the dice given: " + "; ".join(o["summary"] for o in rolled or ())
        return {
            **first,
            "status": "need" if self.need else "done",
            "dice_text": text,
            "command": command("resolve", calc, first["changed"], after=("--dice", text) if self.entries else ()),
            # Each roll with the entries it read (a pool of no dice read none): what Undo takes back.
            "given": given,
            "given_words": [roll_words(d) for d in given],
            "need": self._need_doc(True),
            "outcomes": outcomes,
            "notes": list(self.odds.odds.notes),
            "rolled": rolled,
            "headline": headline_text(parts),
            "headline_parts": parts,
            "summary": summary,
        }
