"""Odds mode: every path through a procedure's steps, with its exact weight.

``dice`` is an :class:`Enumerating` object. Every atom (a die, a chart, a
pool) is a *choice point*, a finite distribution; a sub-procedure is one too,
over its distinct results (enumerated on its own, once per distinct ``fn``
and ``args``, cached). The procedure is replayed once per path through the
tree of choice points, depth first: on each replay the choice points up to
the last branching one repeat the choices of the previous path, the last one
advances to its next value, and any later one takes its first value. A
path's weight is the product of the exact probabilities of the values chosen
along it, kept as an unreduced integer numerator and denominator, so the
weights of all paths sum to exactly 1 (:func:`_summed` checks it).

Composite steps (:mod:`.plan`) are worked out whole (:mod:`.composite`),
never replayed roll by roll. A composite returns a real dict of outcomes; if
the procedure then returns that very dict and asks for nothing more, the
path ends there and carries the composite's whole distribution (its
marginals, where the enumeration wants each outcome's own distribution, or
its joint distribution, inside a sub-procedure): a fold at the end of a
procedure, after other dice or inside a sub-procedure costs one fold, not a
replay per roll. If the procedure reads the dict and goes on, the path is
replayed with the composite as one choice point over its joint distribution:
exact either way.

Given dice (:func:`enumerate_given`) fix the first rolls: the first atoms
take the values given, weight 1, and a sub-procedure or composite reached
while some are left takes its share of them (it is enumerated given those,
and says how many it used), so that no step is probed. A wait past the
horizon (:meth:`Dice.beyond`) rolls nothing here; given dice, it takes the
values it used.

A procedure must be deterministic given its choices: no clocks, no global
random state, and the same sequence of steps for the same choices.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast

from .composite import Edges, Fixed, WorkedOut, work_out
from .convolve import _pool_counts
from .distribution import Distribution, _chart, _pool
from .faces import Counts, FaceTable, counting, face_table, faces
from .plan import Composite, Dice, pack, unpack
from .steps import Step, _StepLog

Marginals = dict[str, Distribution]
# A part enumerated on its own (_Context.joint): its distribution, its rolls'
# weights (with steps, else None) and how many fixed values it took.
Part = tuple[Distribution, Edges | None, int]
# A composite kept aside as the path's result (Enumerating.take): what it
# showed, what it carries, its place, its rolls' weights, the depth and the
# fixed values taken when it was met.
_Pending = tuple[dict[str, Any], Any, tuple[tuple[Hashable, int], ...], Edges | None, int, int]


class Enumerating(Dice):
    """Odds mode: one replay of the procedure along a given path of choices.

    Args:
        path: the index of the value each choice point takes (grown as new ones are met).
        context: the enumeration's caches and its fixed values (see _Context).
        fixed: the values the first atoms take (given dice), weight 1 each.
        steps: where the labelled rolls are recorded (enumerate_steps), or None.
        changed: the first depth whose choice point took a value no earlier
            replay took along this prefix (-1 on the first replay).
        joint_at: the prefixes at whose end a composite is one choice point.
        redo: the depth of a composite replayed as a choice point, whose rolls are new.
    """

    def __init__(self, path: list[int], context: "_Context", fixed: Fixed = (), steps: _StepLog | None = None, changed: int = -1,
                 joint_at: set[tuple[int, ...]] | None = None, redo: int = -1):
        self._path = path
        self._sizes: list[int] = []
        self._context = context
        self._fixed = fixed
        self._used = 0  # fixed values taken
        self._steps = steps
        self._changed = changed
        self._joint_at = joint_at
        self._redo = redo
        self._seen: dict[Hashable, int] = {}  # labels, parts and composites met so far on this path
        self._pending: _Pending | None = None  # a composite whose dict may be the path's result
        self._spoiled = False  # a step after a pending composite: replay with it as a choice point
        # The path's weight: integer products are far cheaper than a Fraction normalised at every step.
        self._num = 1
        self._den = 1

    def _pick(self, dist: Distribution) -> Any:
        """This path's value at the next choice point, its weight multiplied in."""
        weights = dist._weights
        depth = len(self._sizes)
        if depth == len(self._path):
            self._path.append(0)
        self._sizes.append(len(weights))
        value, num, den = weights[self._path[depth]]
        self._num *= num
        self._den *= den
        return value

    def _fixed_value(self) -> Any:
        value = self._fixed[self._used]
        self._used += 1
        return value

    # The atoms: the procedure runs once per path, so a choice point only
    # looks its distribution up (labels are for rolls and steps).
    def die(self, sides: int, label: str, chart: FaceTable | Callable[[int], Hashable] | None = None) -> Any:
        if self._used < len(self._fixed):
            return self._fixed_value()
        if chart is None:
            chart = faces(sides)
        elif type(chart) is not tuple:
            chart = face_table(sides, chart)
        if self._steps is None:
            return self._pick(_chart(sides, chart))
        # A chart's results read best in the order of the faces that give them.
        order = tuple(dict.fromkeys(chart)) if chart != faces(sides) else None
        return self._pick_step(self._steps, _chart(sides, chart), label, order, None, False)

    def pool(
        self, n: int, sides: int, label: str, key: FaceTable | Callable[[int], Hashable], counts: Counts | None = None,
        alike_from: int | None = None,
    ) -> Any:
        if self._used < len(self._fixed):
            return self._fixed_value()
        table = key if type(key) is tuple else face_table(sides, key)
        dist = _pool(n, sides, table) if alike_from is None else _alike(n, sides, table, alike_from)
        if self._steps is None:
            return self._pick(dist)
        return self._pick_step(self._steps, dist, label, None, counts, counting(sides, table), None if alike_from is None else _pool(n, sides, table))

    def _pick_step(self, steps: _StepLog, dist: Distribution, label: str, order: tuple[Hashable, ...] | None, names: Counts | None, is_counting: bool,
                   exact: Distribution | None = None) -> Any:
        """_pick, and the edge it takes recorded in ``steps`` under its label when it is new on this replay.

        A label met again on the same path is a roll of its own ("2nd roll"),
        so that each step's chance of being rolled is a probability. ``exact``
        is the roll's own distribution when ``dist`` joins its tail (a pool's
        ``alike_from``): the joined value is recorded as the totals it stands
        for, each with its own chance, so the step reads as the roll made."""
        depth = len(self._sizes)
        num, den = self._num, self._den
        value = self._pick(dist)
        seen = self._seen.get(label, 0)
        self._seen[label] = seen + 1
        if depth >= self._changed and self._pending is None:
            if exact is None or dist.p(value) == exact.p(value):
                steps.add((label, seen), label, order, names, is_counting, value, self._num, self._den)
            else:
                for total, n, d in exact._weights:
                    if total >= value:
                        steps.add((label, seen), label, order, names, is_counting, total, num * n, den * d)
        return value

    def _rest(self) -> Fixed:
        """The fixed values not yet taken: a sub-procedure or composite takes its share."""
        return self._fixed[self._used:] if self._used < len(self._fixed) else ()

    def _place(self, key: Hashable) -> tuple[tuple[Hashable, int]]:
        """Where a part's rolls are recorded: behind the part and how many times
        it was met before on this path (see _StepLog)."""
        seen = self._seen.get(key, 0)
        self._seen[key] = seen + 1
        return ((key, seen),)

    def _new_part(self) -> bool:
        """Whether this replay reaches the step at the current depth along a new path."""
        depth = len(self._sizes)
        return (depth > self._changed or depth == self._redo) and self._pending is None

    def sub(self, fn: Callable[..., Any], *args: Hashable, **labels: Any) -> Any:
        # A part's rolls are known by the part's function and how many times
        # it was reached before on this path, not by its arguments: the same
        # roll made with other arguments (fewer dice, say) on other paths is
        # the same step, and each step is still made at most once per path.
        dist, edges, used = self._context.joint(fn, args, labels, self._rest(), self._steps is not None)
        self._used += used
        if self._steps is not None:
            place = self._place(fn)
            if self._new_part():
                self._steps.add_edges(place, cast(Edges, edges), self._num, self._den)  # with steps, a part's are there
        return unpack(self._pick(dist))

    def beyond(self, fn: Callable[..., Any], *args: Any) -> None:
        # Past the horizon nothing is weighed: the wait ends with certainty and
        # decides no outcome. Given dice it used are taken, as far as they go.
        rest = self._rest()
        if not rest:
            return
        reading = _Reading(rest)
        try:
            fn(reading, *args)
        except _RanOut:
            pass
        self._used += reading.used

    def take(self, step: Composite) -> dict[str, Any]:
        with_steps = self._steps is not None
        rest = self._rest()
        if self._pending is not None:
            self._spoiled = True
        depth = len(self._sizes)
        place: tuple[tuple[Hashable, int], ...] = () if not self._seen else self._place(type(step).__name__)
        if not self._spoiled and not (self._joint_at and tuple(self._path[:depth]) in self._joint_at):
            # Perhaps the path's result: worked out whole, kept aside until the procedure returns.
            spread, edges, used, shown = self._context.whole(step, rest, with_steps)
            self._used += used
            self._pending = (shown, spread, place, edges, depth, self._used)
            return shown
        # Read and gone on from: one choice point over its joint distribution.
        dist, edges, used, _ = self._context.composite(step, rest, with_steps, False)
        self._used += used
        if self._steps is not None and self._new_part():
            self._steps.add_edges(place, cast(Edges, edges), self._num, self._den)
        outcomes: dict[str, Any] = unpack(self._pick(dist))
        return outcomes


class _RanOut(Exception):
    """The given values ran out inside a wait past the horizon."""


class _Reading(Dice):
    """A wait past the horizon (:meth:`Dice.beyond`) read off given values:
    each atom takes the next value, as the given dice's run recorded it, one
    roll at a time as a roll makes them, until the wait is over or the values
    run out. What it reads decides no outcome, so nothing is weighed."""

    def __init__(self, fixed: tuple[Any, ...]):
        self.fixed = fixed
        self.used = 0

    def _next(self) -> Any:
        if self.used >= len(self.fixed):
            raise _RanOut
        self.used += 1
        return self.fixed[self.used - 1]

    def die(self, sides: int, label: str, chart: FaceTable | Callable[[int], Hashable] | None = None) -> Any:
        return self._next()

    def pool(
        self, n: int, sides: int, label: str, key: FaceTable | Callable[[int], Hashable], counts: Counts | None = None,
        alike_from: int | None = None,
    ) -> Any:
        return self._next()

    def sub(self, fn: Callable[..., Any], *args: Hashable, **labels: Any) -> Any:
        return fn(self, *args, **labels)

    def take(self, step: Composite) -> dict[str, Any]:
        outcomes: dict[str, Any] = step.run(self)
        return outcomes

    def beyond(self, fn: Callable[..., Any], *args: Any) -> None:
        fn(self, *args)


@lru_cache(maxsize=None)
def _alike(n: int, sides: int, table: FaceTable, alike_from: int) -> Distribution:
    """n dice through ``table`` (a number key), every total from ``alike_from`` up taken as ``alike_from``.

    Integer counts of the sides**n rolls are joined, then divided once (as _pool does)."""
    pooled = _pool_counts(n, sides, table)
    if any(not isinstance(value, int) for value, _ in pooled):
        raise ValueError("alike_from joins the totals of a number key, not of a vector key")
    counts = cast("tuple[tuple[int, int], ...]", pooled)  # numbers, as just checked
    least = min(value for value, _ in counts)
    if alike_from < least:
        raise ValueError(f"alike_from {alike_from} is below the least total, {least}")
    joined: dict[int, int] = {}
    for value, ways in counts:
        value = min(value, alike_from)
        joined[value] = joined.get(value, 0) + ways
    rolls = sides**n
    return Distribution._exact({value: Fraction(ways, rolls) for value, ways in joined.items()})


class _Kept(dict[Hashable, Part]):
    """What a self-contained part gives, kept from one enumeration to the next:
    a part (a module's function, see :class:`.plan.Stage`) gives the same for
    the same arguments and given values, so a calculator asked again with one
    input changed (a sweep, a compare, the page as a player edits a field)
    works out again only the parts that input reaches. At most ``most``
    entries, the oldest let go first; ``cache_clear`` empties it, as the
    functools caches are (a cold engine in the benchmarks)."""

    def __init__(self, most: int):
        super().__init__()
        self.most = most

    def keep(self, key: Hashable, value: Part) -> Part:
        if len(self) >= self.most:
            del self[next(iter(self))]
        self[key] = value
        return value

    def cache_clear(self) -> None:
        self.clear()


# Parts' distributions and rolls. A sweep of the heaviest inputs keeps 254 (the
# air strike's flak shots, 31 values) to 344 (the fire mission's boosts) in
# about 3 to 4 MiB, so 1,024 hold one or two whole sweeps in a worker's memory
# at about 10 MiB at most.
PARTS = _Kept(1024)


# A part's outcomes (_Context.marginals): each one's distribution, its rolls'
# weights (with steps), the fixed values it took and a dict of outcomes it can return.
PartMarginals = tuple[Marginals, Edges | None, int, dict[str, Any]]


class _Context:
    """One enumeration's caches: each part's marginals (its outcomes, a dict
    the procedure may extend, so kept for this enumeration only), and whether
    the enumeration wants marginals (the procedure's outcomes) or the joint
    distribution (a sub-procedure's result) from a path that ends in a
    composite. A sub-procedure's joint distribution (by ``fn``, ``args`` and
    the fixed values it takes) is kept across enumerations (:data:`PARTS`)."""

    def __init__(self, marginal: bool, cache: dict[Hashable, PartMarginals] | None = None):
        self.marginal = marginal
        self.cache = {} if cache is None else cache

    def inner(self, marginal: bool) -> "_Context":
        """The same caches, wanting marginals or not."""
        return self if marginal == self.marginal else _Context(marginal, self.cache)

    def joint(self, fn: Callable[..., Any], args: tuple[Any, ...], labels: Mapping[str, Any], rest: Fixed, with_steps: bool) -> Part:
        """A self-contained part enumerated on its own, kept (:data:`PARTS`): its
        distribution over packed results (see plan.pack), its rolls' exact
        weights with steps (``_StepLog.edges``, kept by its labels too, since
        its rolls' labels may depend on them) and how many of the fixed values
        ``rest`` it took."""
        if with_steps:
            key: tuple[Any, ...] = ("steps", fn, args, rest, tuple(sorted(labels.items())))
            found = PARTS.get(key)
            if found is None:
                inner = _StepLog()
                dist, used = _joint(fn, args, labels, self.inner(False), rest, inner)
                found = PARTS.keep(key, (dist, inner.edges(), used))
                if ("joint", fn, args, rest) not in PARTS:
                    PARTS.keep(("joint", fn, args, rest), found)
            return found
        key = ("joint", fn, args, rest)
        found = PARTS.get(key)
        if found is None:
            dist, used = _joint(fn, args, labels, self.inner(False), rest, None)
            found = PARTS.keep(key, (dist, None, used))
        return found

    def marginals(self, fn: Callable[..., Any], args: tuple[Any, ...], rest: Fixed, with_steps: bool) -> PartMarginals:
        """A part's outcomes, each its own distribution, cached: with its rolls'
        weights (with steps), the fixed values it took and a dict of outcomes it can return."""
        key = ("marginals", fn, args, rest, with_steps)
        found = self.cache.get(key)
        if found is None:
            log = _StepLog() if with_steps else None
            out, used = _marginals(fn, args, self.inner(True), rest, log)
            found = self.cache[key] = (out, log.edges() if log is not None else None, used, {name: next(iter(d)) for name, d in out.items()})
        return found

    def whole(self, step: Composite, rest: Fixed, with_steps: bool) -> WorkedOut:
        """A composite's distribution as a path ending in it carries it: its
        marginals or its joint distribution, as this enumeration wants."""
        return self.composite(step, rest, with_steps, self.marginal)

    def composite(self, step: Composite, rest: Fixed, with_steps: bool, marginal: bool) -> WorkedOut:
        return work_out(step, self, rest, with_steps, marginal)


def _replay(fn: Callable[..., Any], args: tuple[Any, ...], labels: Mapping[str, Any], context: _Context, fixed: Fixed,
            steps: _StepLog | None) -> Iterator[tuple[Any, int, int, Any, int]]:
    """Every path: (result, weight numerator, weight denominator, spread, fixed values taken).

    ``spread`` is None, or the distribution the path carries when it ends in
    a composite (see the module's docstring): then ``result`` is unused. With
    ``steps``, every labelled roll is recorded in it as well."""
    path: list[int] = []
    changed = -1  # the first replay: every choice point on it is new
    redo = -1
    joint_at: set[tuple[int, ...]] = set()
    while True:
        dice = Enumerating(path, context, fixed, steps, changed, joint_at, redo)
        result = fn(dice, *args, **labels)
        pending = dice._pending
        if pending is not None:
            shown, spread, place, edges, depth, used = pending
            if dice._spoiled or result is not shown or len(dice._sizes) != depth or dice._used != used:
                # The procedure went on from the composite: replay this path with it as a choice point.
                joint_at.add(tuple(path[:depth]))
                del path[depth:]
                changed, redo = depth, depth
                continue
            if steps is not None:
                steps.add_edges(place, cast(Edges, edges), dice._num, dice._den)  # worked out with steps
            yield None, dice._num, dice._den, spread, dice._used
        else:
            yield result, dice._num, dice._den, None, dice._used
        redo = -1
        sizes = dice._sizes
        del path[len(sizes):]
        # Advance the deepest choice point that still has an untried value.
        i = len(sizes) - 1
        while i >= 0 and path[i] + 1 >= sizes[i]:
            i -= 1
        if i < 0:
            return
        path[i] += 1
        del path[i + 1:]
        changed = i


def _summed(weighted: Iterable[tuple[Hashable, int, int]], what: str) -> Distribution:
    """The exact distribution of an enumeration's (value, numerator, denominator) paths.

    Numerators are added as integers per (unreduced) denominator, then brought
    over one least common denominator L of them all, making one Fraction per
    value: a Fraction addition per path would otherwise dominate the cost of
    the odds. The paths' weights must sum to exactly 1 (integer numerators
    summing to L), which is checked rather than normalised away.
    """
    sums: dict[Hashable, dict[int, int]] = {}
    for value, num, den in weighted:
        by_den = sums.setdefault(value, {})
        by_den[den] = by_den.get(den, 0) + num
    common = math.lcm(*(d for by_den in sums.values() for d in by_den))
    numerators = {value: sum(n * (common // d) for d, n in by_den.items()) for value, by_den in sums.items()}
    if sum(numerators.values()) != common:
        raise ValueError(f"{what} does not sum to 1")
    return Distribution._exact({value: Fraction(n, common) for value, n in numerators.items() if n})


def _spread(spread: Distribution, num: int, den: int) -> Iterator[tuple[Hashable, int, int]]:
    """A distribution carried by a path of weight num/den, as weighted values."""
    for value, n, d in spread._weights:
        yield value, num * n, den * d


def _joint(fn: Callable[..., Any], args: tuple[Any, ...], labels: Mapping[str, Any], context: _Context, rest: Fixed,
           steps: _StepLog | None) -> tuple[Distribution, int]:
    """The exact distribution of fn's (packed) result, and how many fixed values it took."""
    paths = list(_replay(fn, args, labels, context, rest, steps))
    used = paths[0][4]
    if len(paths) == 1 and paths[0][3] is not None and paths[0][1] == paths[0][2]:
        return paths[0][3], used  # the part is one composite, returned as it is
    weighted = []
    for result, num, den, spread, _ in paths:
        if spread is None:
            weighted.append((pack(result), num, den))
        else:
            weighted.extend(_spread(spread, num, den))
    return _summed(weighted, f"part {getattr(fn, '__name__', fn)!s}"), used


def _marginals(procedure: Callable[..., Any], args: tuple[Any, ...], context: _Context, rest: Fixed, steps: _StepLog | None) -> tuple[Marginals, int]:
    """Each outcome's exact distribution, and how many fixed values the procedure took.

    Paths are gathered per outcome as (value, numerator, denominator) and
    summed exactly once at the end (see _summed); every path must return the
    same outcome names."""
    weighted: dict[str, list[tuple[Hashable, int, int]]] = {}
    names: frozenset[str] | None = None
    used = 0
    for result, num, den, spread, used in _replay(procedure, args, {}, context, rest, steps):
        if spread is not None and num == den:
            # A path of weight 1 is the only one: the procedure is one composite, whose marginals these are.
            return dict(spread), used
        keys = spread if spread is not None else result
        if names is None:
            names = frozenset(keys)
            weighted = {name: [] for name in keys}
        elif keys.keys() != names:
            raise ValueError(f"{procedure.__name__} returned outcomes {sorted(keys)} on one path and {sorted(names)} on another")
        if spread is None:
            for name, value in result.items():
                weighted[name].append((value, num, den))
        else:
            for name, dist in spread.items():
                weighted[name].extend(_spread(dist, num, den))
    return {name: _summed(triples, f"outcome {name}") for name, triples in weighted.items()}, used


def enumerate_values(fn: Callable[..., Hashable], *args: Any) -> Distribution:
    """The exact distribution of fn(dice, *args) over every path (hashable results)."""
    dist, _ = _joint(fn, args, {}, _Context(False), (), None)
    return Distribution._exact({unpack(v): p for v, p in dist.pairs()})


def enumerate_outcomes(procedure: Callable[..., Mapping[str, Hashable]], *args: Any) -> dict[str, Distribution]:
    """The exact marginal distribution of each outcome a procedure returns.

    Every path must return the same outcome names; the weights of each
    outcome's values then sum to exactly 1, which is checked rather than
    normalised away.
    """
    return _marginals(procedure, args, _Context(True), (), None)[0]


def enumerate_steps(procedure: Callable[..., Mapping[str, Hashable]], *args: Any) -> tuple[dict[str, Distribution], list[Step]]:
    """The outcomes of :func:`enumerate_outcomes` and how they come about: one
    :class:`Step` per label the procedure gives its dice, in the order first met.

    A step's ``p_rolled`` is the chance that a roll with that label is made at
    all, and ``values`` the exact distribution of what it decided, given that
    it is made. Both come from the same replay as the outcomes: a choice point
    reached by the prefix of choices ``c_1 .. c_k`` (weight ``w``) and taking
    value ``v`` (chance ``q``) adds ``w * q`` to its label's value ``v``, once
    per edge of the tree of choices; so per label, the sum over ``v`` is the
    chance of reaching such a choice point, ``p_rolled``, and each ``v``'s
    share of it is ``P(v | rolled)``. The rolls inside a sub-procedure or a
    composite come from its own enumeration (once per part), weighted by the
    chance of reaching it (see :mod:`.steps`). A label met twice on one path
    is reported as a roll of its own ("2nd roll").
    """
    steps = _StepLog()
    outcomes, _ = _marginals(procedure, args, _Context(True), (), steps)
    return outcomes, steps.steps()


def enumerate_given(procedure: Callable[..., Mapping[str, Hashable]], args: tuple[Any, ...], values: list[Any]) -> dict[str, Distribution]:
    """Each outcome's exact distribution given that the first rolls decided
    ``values`` (a :class:`Given` run's): P(outcome | those rolls).

    Args:
        procedure: the procedure, called as ``procedure(dice, *args)``.
        args: its arguments.
        values: what each of its first rolls (dice and pools, in the order a
            roll makes them) decided.

    Returns:
        Each outcome's distribution over what is still to be rolled; with no
        values, the plain odds. Independent parts keep their marginals: a part
        that finishes within the values is certain, the part they run out in
        is enumerated given its share, the parts after it as plain odds.
    """
    return _marginals(procedure, tuple(args), _Context(True), tuple(values), None)[0]
