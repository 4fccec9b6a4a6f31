"""Exact dice distributions, and the dice object that runs a procedure three ways.

A rules procedure is an ordinary Python function ``procedure(dice, **inputs)``
that asks ``dice`` for every random number it needs and returns a dict of its
outcomes. What it can ask for (a die, a chart, a pool, a sub-procedure,
independent parts, a fold of pools, a chain of stages, a wait that goes on
past the turns the odds follow) is the *plan*
(:mod:`.plan`); it is written once and read by three modes, each of which
interprets every kind of step in one class:

* **Odds** (:mod:`.odds`, :func:`enumerate_outcomes`): every path through
  the procedure's choice points with its exact weight, the weights summing
  to exactly 1; composite steps worked out whole (:mod:`.composite`). The
  same enumeration records how the outcomes come about
  (:func:`enumerate_steps`, :mod:`.steps`).
* **Roll** (:mod:`.roll`, :class:`Rolling`): real dice from
  ``random.Random(seed)``, every die shown with what it decided.
* **Given dice** (:mod:`.given`, :class:`Given`, :func:`enumerate_given`):
  the dice a player rolled, read in the order a roll makes them; the first
  roll still needed, and the exact odds of what follows given those dice.

Keeping the tree small
----------------------
Replay costs one run of the procedure per leaf, so aggregates are single
choice points: ``sum_of(n, sides)`` is the n-fold convolution of one die and
has ``n*(sides-1)+1`` values instead of ``sides**n`` paths; ``successes(n,
target)`` is a binomial with ``n+1`` values; ``pool(n, sides, key)`` sums
``key``'s entry for each face (a number or a vector, for instance successes
and sixes together) over n dice by convolution (:mod:`.convolve`). A *chart*
roll (``d6(label, chart=...)``) branches once per distinct chart result, not
per face.

Charts and pool keys are data: a tuple whose i-th entry is what face i + 1
reads (:func:`face_table` builds one from a function, :mod:`.faces`). The
engine's caches are keyed on that tuple. A function is still accepted and
turned into its table at the call.

``dice.sub(fn, *args, **labels)`` runs a self-contained part of a procedure;
in odds mode the part is enumerated on its own (once per distinct ``fn`` and
``args``, cached) and becomes one choice point over its distinct return
values. Keyword arguments are passed on to ``fn`` but are not part of the
cache key: they are for what a roll shows (labels) and must not change the
part's distribution.

``dice.parts((fn, *args), ...)`` is a procedure made of independent parts,
each returning a dict of its own outcomes: the odds enumerate each part's
marginals on its own, so the cost is the sum of the parts' sizes, never
their product. ``dice.fold(groups, outcome, reads)`` rolls independent pools
(:class:`Pool`) and gives ``outcome`` of the groups' values: the odds are one
loop over the groups' values with integer counts, not a replay.
``dice.chain(start, stages, outcome)`` is for stages that depend on one
another (:class:`Stage`, each built by :func:`stage`): the odds are a
forward pass over the distribution of the state after each stage. Each of the three returns an ordinary dict,
in every mode; the odds stay exact and fast where it ends a procedure, sits
inside a sub-procedure or follows other dice (see :mod:`.odds`).

``dice.beyond(fn, *args)`` is a wait past the horizon: a procedure that
follows a chart rolled each turn for so many turns, and counts what has not
come by then as "later", hands it the rest of the wait. A roll rolls it to its
end and given dice ask for its dice before anything that follows the wait;
the odds roll nothing for it, as it decides no outcome (see :meth:`Dice.beyond`).

A procedure must be deterministic given its choices: no clocks, no global
random state, and the same sequence of steps for the same choices.
"""

from __future__ import annotations

from .convolve import _PACKED_SLOTS, _group_counts, _packed, _pool_counts
from .distribution import Distribution, _chart, _pool, die, pool, successes, sum_of
from .faces import SUCCESSES, Counts, FaceTable, at_least, face_table, faces
from .given import Counted, Given, GivenError, NeedRoll
from .odds import Enumerating, enumerate_given, enumerate_outcomes, enumerate_steps, enumerate_values
from .plan import Dice, Label, Pool, Stage, past_horizon, stage
from .roll import Rolling
from .steps import Step

__all__ = [
    "face_table",
    "past_horizon",
    "Distribution",
    "Dice",
    "Enumerating",
    "Rolling",
    "Given",
    "Counted",
    "NeedRoll",
    "GivenError",
    "enumerate_given",
    "die",
    "sum_of",
    "successes",
    "pool",
    "Pool",
    "Stage",
    "stage",
    "enumerate_outcomes",
    "enumerate_steps",
    "enumerate_values",
    "Step",
    "Label",
    "SUCCESSES",
    "Counts",
    "FaceTable",
    "at_least",
    "faces",
]

# Names the engine's own tests and benchmarks reach for (convolution, caches).
_internal = (_PACKED_SLOTS, _group_counts, _packed, _pool_counts, _chart, _pool)
