"""The typed answer: one document per request, made once in Python, rendered by the page.

The CLI's ``odds`` and ``roll`` objects are compact contracts for scripts. A
player needs more from the same numbers: the chance of *at least* and *at
most* each value, a mean that says what it leaves out, a label for every
value, a headline, the cells a map outcome names, and for a roll the dice in
words. All of it is computed here, exactly, from the :class:`Distribution`
the procedure gave, so that the page only renders: no fraction arithmetic,
no label guessing, no re-validation in JavaScript.

The answer is declared once, by its JSON Schema, ``rules_py/data/answer.schema.json``;
``scripts/build/schema_types.py`` generates from it the Python types the builders
below return (:mod:`.shapes`, checked by mypy) and the TypeScript types the
page's renderers read (``types/answer.d.ts``, checked by tsc). Every answer
has ``schema``, ``kind``, ``calculator``, ``title`` and ``summary``; by kind:

* ``"odds"``: every outcome's exact odds, and how they come about (:mod:`.odds`);
* ``"roll"``: one seeded roll, every die in words (:mod:`.rolls`);
* ``"resolve"``: the dice a player rolled, the next roll needed and the odds
  given them, or the outcomes once done (:mod:`.resolve`);
* ``"compare"``: two options and their differences (:mod:`.compare`);
* ``"sweep"``: the headline outcome across one input's values (:mod:`rules_py.sweep`).

What they are made of, one concern a module: one outcome's odds, cumulative
chances and mean (:mod:`.outcome_odds`); the player's words, headline and
summaries (:mod:`.wording`); the charts' bar heights (:mod:`.charts`); a
map's drawing, badges and table of units (:mod:`.units`).
"""

from __future__ import annotations

from .compare import Comparison, Difference, compare_answer, option_b_inputs
from .odds import SCHEMA_ID, OddsAnswer, changed_inputs, odds_answer, step_docs
from .outcome_odds import OutcomeOdds, display_order
from .resolve import Resolution
from .rolls import NO_DICE, NO_DICE_AT_ALL, RollAnswer, die_doc, roll_answer
from .units import units_table
from .wording import HEADLINE_SEP, how_often

__all__ = [
    "HEADLINE_SEP",
    "NO_DICE",
    "NO_DICE_AT_ALL",
    "SCHEMA_ID",
    "Comparison",
    "Difference",
    "OddsAnswer",
    "OutcomeOdds",
    "Resolution",
    "RollAnswer",
    "changed_inputs",
    "compare_answer",
    "die_doc",
    "display_order",
    "how_often",
    "odds_answer",
    "option_b_inputs",
    "roll_answer",
    "step_docs",
    "units_table",
]
