"""The odds of the composite steps, worked out whole: a fold, a chain, parts.

:func:`work_out` gives a composite's distribution either as each outcome's
own distribution (*marginals*, what the odds of a procedure report) or as the
*joint* distribution of its dict of outcomes (what a sub-procedure's result,
or a composite read and gone on from, needs); with the fixed values of given
dice, it takes its share of them first, in the order a roll makes them.

* A **fold** is one loop over its groups' values, with integer counts of
  equally likely rolls over one common denominator (the product of the
  pools' ``sides**n``), never a replay per roll; see :func:`_fold`.
* A **chain** is a forward pass over the distribution of its state; see
  :func:`_chain`.
* **Parts** are each enumerated on their own: their marginals side by side
  (the cost is the sum of the parts' sizes), or the product of their joint
  distributions; see :func:`_parts`.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Hashable, Iterator
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from .convolve import _add, _difference_counts, _group_counts, _pool_counts, _sub
from .distribution import Distribution
from .faces import FaceTable, counting
from .plan import Chain, Composite, Fold, Outcomes, Parts, State, _check_disjoint, _kept, _masked, pack, unpack
from .steps import Edge, _StepLog

if TYPE_CHECKING:
    from .odds import _Context

Fixed = tuple[Any, ...]  # the fixed values of given dice not yet taken
Ways = tuple[tuple[Hashable, int], ...]  # values, each with its number of equally likely rolls (see convolve)
Coordinates = tuple[int, ...]  # what plan.Reads holds: the coordinates of a vector an outcome reads
# A part's rolls with the exact weight of each value, as _StepLog.edges gives
# them (present when the steps are wanted, else None).
Edges = list[Edge]
# What work_out gives: the marginals ({name: Distribution}) or the joint
# Distribution, as asked; the rolls' weights; the fixed values taken; a dict of outcomes.
WorkedOut = tuple[Any, Edges | None, int, dict[str, Any]]


def work_out(step: Composite, context: "_Context", rest: Fixed, with_steps: bool, marginal: bool) -> WorkedOut:
    """A composite step's distribution.

    Args:
        step: the composite.
        context: the enumeration's caches (for the parts and stages it enumerates).
        rest: the fixed values not yet taken (given dice); the step takes its share.
        with_steps: whether its rolls' exact weights are wanted (``_StepLog.edges``).
        marginal: each outcome's own distribution, or the joint distribution of the dict.

    Returns:
        (marginals {name: Distribution} or a Distribution of packed dicts, the
        rolls' weights or None, how many fixed values it took, a dict of outcomes it can return).
    """
    if type(step) is Fold:
        return _fold(step, rest, with_steps, marginal)
    if type(step) is Chain:
        return _chain(step, context, rest, with_steps, marginal)
    # The one kind left (the exact-type tests above do not narrow the union for mypy).
    return _parts(cast(Parts, step), context, rest, with_steps, marginal)


def _joint_of(tally: dict[Hashable, int], total: int) -> tuple[Distribution, dict[str, Any]]:
    """The joint distribution of packed dicts from integer counts over ``total``, and one of them."""
    dist = Distribution._exact({value: Fraction(ways, total) for value, ways in tally.items() if ways})
    return dist, unpack(next(iter(dist)))


def _exact(tally: dict[Hashable, int], total: int, name: str) -> Distribution:
    if sum(tally.values()) != total:
        raise ValueError(f"outcome {name} does not sum to 1")
    return Distribution._exact({value: Fraction(ways, total) for value, ways in tally.items() if ways})


# ---------------------------------------------------------------------------
# Fold


def _fold(fold: Fold, rest: Fixed, with_steps: bool, marginal: bool) -> WorkedOut:
    """A fold's odds from one loop over its groups' values.

    A pool given (one of the first ``len(rest)``) counts as its value, with one
    roll; the others are convolved per group (see convolve._group_counts).
    For marginals, an outcome listed in ``reads`` is folded over the groups'
    marginals on the coordinates it reads (the others set to 0 in every
    pool): exact for its own distribution when it depends on those
    coordinates only. The others are folded over the whole of each group. With
    ``by_difference``, the outcome is evaluated once per distinct difference
    of the two groups (convolve._difference_counts). Each value becomes one
    Fraction at the end.
    """
    pools = list(fold.pools())
    given = dict(enumerate(rest[: len(pools)]))
    used = len(given)
    edges = _fold_edges(fold) if with_steps else None
    total = math.prod(p.sides**p.n for j, p in enumerate(pools) if j not in given)

    def counts(keep: Coordinates | None) -> list[Ways]:
        out: list[Ways] = []
        j = 0
        for group in fold.groups:
            rolled: list[tuple[int, int, FaceTable]] = []
            fixed: Any = None
            for p in group:
                kept = _kept(keep, p.adds)
                if j in given:
                    value = _masked(given[j], kept)
                    fixed = value if fixed is None else _add(fixed, value)
                else:
                    rolled.append((p.n, p.sides, _masked_table(cast(FaceTable, p.key), kept)))
                j += 1
            if not rolled:
                out.append(((fixed, 1),))
                continue
            found = _group_counts(tuple(rolled))[0]
            out.append(found if fixed is None else tuple((_add(v, fixed), w) for v, w in found))
        return out

    outcome = fold.outcome
    if not marginal:
        tally: dict[Hashable, int] = {}
        for result, ways in _evaluations(fold, counts(None)):
            key = pack(dict(result))
            tally[key] = tally.get(key, 0) + ways
        dist, shown = _joint_of(tally, total)
        return dist, edges, used, shown
    # The outcome names, from one evaluation; then the outcomes by what they read.
    some = next(iter(fold.reads.values()), None)
    first = [values[0][0] for values in counts(some)]
    names = list(outcome(*first))
    plan: dict[Coordinates | None, list[str]] = {}
    for name in fold.reads:
        if name not in names:
            raise ValueError(f"fold: reads names outcome {name!r}, which the procedure does not return")
    for name in names:
        plan.setdefault(fold.reads.get(name), []).append(name)
    out: dict[str, Distribution] = {}
    for keep, wanted in plan.items():
        tallies: dict[str, dict[Hashable, int]] = {name: {} for name in wanted}
        _tally(fold, counts(keep), wanted, tallies)
        for name, tally in tallies.items():
            out[name] = _exact(tally, total, name)
    marginals = {name: out[name] for name in names}
    return marginals, edges, used, {name: next(iter(d)) for name, d in marginals.items()}


@lru_cache(maxsize=None)
def _masked_table(table: FaceTable, keep: Coordinates | None) -> FaceTable:
    return table if keep is None else tuple(_masked(entry, keep) for entry in table)


def _fold_edges(fold: Fold) -> Edges:
    """Each pool's exact weights, for the steps: place (label, how many pools of that label before)."""
    edges: Edges = []
    seen: dict[str, int] = {}
    for pool in fold.pools():
        k = seen.get(pool.label, 0)
        seen[pool.label] = k + 1
        rolls = pool.sides**pool.n
        weights = [(value, Fraction(ways, rolls)) for value, ways in _pool_counts(pool.n, pool.sides, pool.key)]
        edges.append(((pool.label, k), pool.label, None, pool.counts, counting(pool.sides, cast(FaceTable, pool.key)), weights))
    return edges


def _evaluations(fold: Fold, weighted: list[Ways]) -> Iterator[tuple[Outcomes, int]]:
    """(outcome dict, number of rolls) for every value of the groups, or of their difference."""
    outcome = fold.outcome
    if fold.by_difference:
        first, second = weighted
        zero = _sub(second[0][0], second[0][0])
        for d, ways in _difference_counts(first, second):
            yield outcome(d, zero), ways
        return
    for combo in itertools.product(*weighted):
        yield outcome(*(v for v, _ in combo)), math.prod(w for _, w in combo)


def _tally(fold: Fold, weighted: list[Ways], wanted: list[str], tallies: dict[str, dict[Hashable, int]]) -> None:
    """Add each wanted outcome's value, with its number of rolls, over the groups' values."""
    pairs = [(name, tallies[name]) for name in wanted]
    if not fold.by_difference and len(weighted) == 2:
        # The common case, two sides, as plain nested loops (the fold's
        # whole cost is this loop): for each value of the first side, the
        # second side's ways are summed per result, small integers, and
        # multiplied by the first side's ways once per distinct result.
        # (Inline rather than through _evaluations: a generator's resumption
        # per value would cost more than the loop's body.)
        outcome = fold.outcome
        first, second = weighted
        get = operator.itemgetter(*wanted)
        single = len(wanted) == 1
        for a, wa in first:
            inner: dict[Any, int] = {}  # by the wanted value, or the tuple of them (itemgetter's)
            for b, wb in second:
                key = get(outcome(a, b))
                inner[key] = inner.get(key, 0) + wb
            for key, ways in inner.items():
                ways *= wa
                for (_, tally), value in zip(pairs, (key,) if single else key):
                    tally[value] = tally.get(value, 0) + ways
        return
    outcome = fold.outcome
    if fold.by_difference:
        # One evaluation per distinct difference (see Dice.fold), the second
        # group's value zero: the pairs are added up in
        # _difference_counts, not here.
        first, second = weighted
        zero = _sub(second[0][0], second[0][0])
        for d, ways in _difference_counts(first, second):
            result = outcome(d, zero)
            for name, tally in pairs:
                value = result[name]
                tally[value] = tally.get(value, 0) + ways
        return
    for combo in itertools.product(*weighted):
        result = outcome(*(v for v, _ in combo))
        ways = math.prod(w for _, w in combo)
        for name, tally in pairs:
            value = result[name]
            tally[value] = tally.get(value, 0) + ways


# ---------------------------------------------------------------------------
# Parts


def _parts(step: Parts, context: "_Context", rest: Fixed, with_steps: bool, marginal: bool) -> WorkedOut:
    """Independent parts: each enumerated on its own (cached by the enumeration),
    taking its share of the fixed values in turn. Their marginals are side by
    side; their joint distribution is the product of theirs (merged dicts).
    A part's rolls' weights are there exactly when ``edges`` is (``with_steps``)."""
    edges: Edges | None = [] if with_steps else None
    used = 0
    if marginal:
        merged: dict[str, Distribution] = {}
        shown: dict[str, Any] = {}
        for fn, *args in step.parts:
            found, part_edges, taken, one = context.marginals(fn, tuple(args), rest[used:], with_steps)
            used += taken
            _check_disjoint(merged, found, fn)
            merged.update(found)
            shown.update(one)
            if edges is not None:
                edges.extend(cast(Edges, part_edges))
        return merged, edges, used, shown
    tally: dict[tuple[tuple[str, Any], ...], int] = {(): 1}  # the merged dict's items so far
    den = 1
    for i, (fn, *args) in enumerate(step.parts):
        dist, part_edges, taken = context.joint(fn, tuple(args), {}, rest[used:], with_steps)
        used += taken
        if edges is not None:
            edges.extend((((fn, i), *place), label, order, names, counts, weights) for place, label, order, names, counts, weights in cast(Edges, part_edges))
        common = math.lcm(*(d for _, _, d in dist._weights))
        after: dict[tuple[tuple[str, Any], ...], int] = {}
        for merged_items, w in tally.items():
            for value, n, d in dist._weights:
                result = unpack(value)
                _check_disjoint(dict(merged_items), result, fn)
                key = merged_items + tuple(result.items())
                after[key] = after.get(key, 0) + w * n * (common // d)
        tally, den = after, den * common
    packed: dict[Hashable, int] = {("__dict__", items): w for items, w in tally.items()}
    dist, shown = _joint_of(packed, den)
    return dist, edges, used, shown


# ---------------------------------------------------------------------------
# Chain

_Plan = dict[State, tuple[Any, ...] | None]  # a stage's: each state's args (None: it rolls nothing)
_Rolls = dict[tuple[Any, ...], tuple[Distribution, Edges | None, int]]  # a stage's: each args' part (odds._Context.joint)


def _chain(chain: Chain[State], context: "_Context", rest: Fixed, with_steps: bool, marginal: bool) -> WorkedOut:
    """Each outcome's exact distribution by a forward pass over the stages.

    The distribution over the state after each stage is kept as integer
    weights over one common denominator D (the state s with weight w(s)/D).
    A stage is enumerated once per distinct ``args(s)`` (a part of its own,
    its values v with P(v | args)); the next state ``then(s, v)`` gets
    ``w(s) * P(v | args)``, brought over the least common multiple L of those
    parts' denominators (D becomes D * L, all weights reduced by their gcd).
    States that meet again are one state, so the cost is the sum over stages
    of (distinct states x the values of their stage), never the product of
    every stage's paths. Each outcome is then tallied over the last states,
    one Fraction per value (or the dicts of outcomes, for the joint).

    Fixed values are taken by the stages in turn: while some are left, the
    state is certain (everything before was given), and the stage reached is
    enumerated given its share of them.

    With steps, each stage's rolls (from its part's enumeration) are added
    per distinct ``args``, times the chance of the states that roll with
    them. They are listed in the order a replay meets them first: the states
    are visited depth first, each stage's values in their distribution's
    order, each (stage, state) once (what follows it depends on nothing else).
    """
    stages = chain.stages
    states: dict[State, int] = {chain.start: 1}
    den = 1
    used = 0
    plans: list[_Plan[State]] = []  # per stage: each state's args
    parts: list[_Rolls] = []  # per stage: each args' part
    weights_at: list[tuple[dict[State, int], int]] = []  # per stage: the states it starts from
    for stage in stages:
        left = rest[used:]
        by_args: _Rolls = {}
        plan: _Plan[State] = {}
        for state in states:
            args = stage.args(state)
            if args is not None:
                args = tuple(args)
                if args not in by_args:
                    by_args[args] = context.joint(stage.roll, args, {}, left, with_steps)
            plan[state] = args
        if left and by_args:
            used += next(iter(by_args.values()))[2]  # one state while fixed values are left
        common = math.lcm(1, *(d for dist, _, _ in by_args.values() for _, _, d in dist._weights))
        scaled = {args: [(unpack(v), n * (common // d)) for v, n, d in dist._weights] for args, (dist, _, _) in by_args.items()}
        then = stage.then
        after: dict[State, int] = {}
        for state, w in states.items():
            args = plan[state]
            if args is None:
                after[state] = after.get(state, 0) + w * common
                continue
            for value, ways in scaled[args]:
                nxt = then(state, value)
                after[nxt] = after.get(nxt, 0) + w * ways
        if with_steps:
            plans.append(plan)
            parts.append(by_args)
            weights_at.append((states, den))
        den *= common
        g = math.gcd(den, *after.values())
        if g > 1:
            after = {s: w // g for s, w in after.items()}
            den //= g
        states = after
    edges = _chain_steps(chain, plans, parts, weights_at) if with_steps else None
    if not marginal:
        tally: dict[Hashable, int] = {}
        for state, w in states.items():
            key = pack(dict(chain.outcome(state)))
            tally[key] = tally.get(key, 0) + w
        dist, shown = _joint_of(tally, den)
        return dist, edges, used, shown
    names: tuple[str, ...] | None = None
    tallies: dict[str, dict[Hashable, int]] = {}
    for state, w in states.items():
        result = chain.outcome(state)
        if names is None:
            names = tuple(result)
            tallies = {name: {} for name in names}
        elif result.keys() != tallies.keys():
            raise ValueError(f"chain: outcomes {sorted(result)} for one state and {sorted(tallies)} for another")
        for name, value in result.items():
            tally = tallies[name]
            tally[value] = tally.get(value, 0) + w
    out = {name: _exact(tally, den, name) for name, tally in tallies.items()}
    return out, edges, used, {name: next(iter(d)) for name, d in out.items()}


def _chain_steps(chain: Chain[State], plans: list[_Plan[State]], parts: list[_Rolls], weights_at: list[tuple[dict[State, int], int]]) -> Edges:
    """The chain's rolls (see _chain): first each place in the order a
    depth-first replay meets it, then the weights. A stage's rolls are known
    by the stage's index and their place in its part (its parts were
    enumerated with steps, so their weights are there)."""
    steps = _StepLog()
    stages = chain.stages
    seen: set[tuple[int, State]] = set()

    def visit(k: int, state: State) -> None:
        while k < len(stages):
            if (k, state) in seen:
                return
            seen.add((k, state))
            args = plans[k][state]
            if args is not None:
                dist, edges, _ = parts[k][args]
                steps.register((k,), cast(Edges, edges))
                for value in dist:
                    visit(k + 1, stages[k].then(state, unpack(value)))
                return
            k += 1

    visit(0, chain.start)
    for k, (states, den) in enumerate(weights_at):
        reaching: dict[tuple[Any, ...], int] = {}
        for state, w in states.items():
            args = plans[k][state]
            if args is not None:
                reaching[args] = reaching.get(args, 0) + w
        for args, w in reaching.items():
            steps.add_edges((k,), cast(Edges, parts[k][args][1]), w, den)
    return steps.edges()
