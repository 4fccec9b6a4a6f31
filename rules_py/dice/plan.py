"""The plan: the kinds of step a procedure asks of its dice.

A procedure is ordinary Python, ``procedure(dice, **inputs) -> dict``, read
top to bottom. Everything random it asks of ``dice`` (a :class:`Dice`) is one
of these kinds of step:

* **a die** (``dice.die``, ``d6``, ``d3``), read as its face or through a
  chart (a face table): one value;
* **a pool** (``dice.pool``, ``sum_of``, ``successes``): ``n`` dice, the sum
  of what each face reads, a number or a vector (successes and 6s together);
* **a sub-procedure** (``dice.sub(fn, *args)``): a self-contained part whose
  result is one value;
* **independent parts** (:class:`Parts`, ``dice.parts``): parts, each
  returning outcomes no other part returns, merged;
* **a fold** (:class:`Fold`, ``dice.fold``): independent pools, then a pure
  function of their sums;
* **a chain** (:class:`Chain`, ``dice.chain``): stages that depend on one
  another through a state;
* **a wait past the horizon** (``dice.beyond(fn, *args)``): the rest of a
  roll made every turn until it says otherwise (a chart's "roll again next
  turn"), past the turns the odds follow: see :meth:`Dice.beyond`.

Dice and pools are the atoms: each mode answers them directly. The last three
are *composite* steps: data (the kinds below) that a procedure hands to
:meth:`Dice.take` through ``fold``, ``chain`` and ``parts``; each kind's
:meth:`run` says what it means one roll at a time, which is what a roll and
given dice do, and the odds work out its distribution without a replay of
every roll (see :mod:`.composite`). A composite's value is an ordinary dict of
outcomes in every mode: it may be read, extended or returned, anywhere in a
procedure, in a sub-procedure or after other dice.

The three modes (:mod:`.odds`, :mod:`.roll`, :mod:`.given`) are the three
subclasses of :class:`Dice`; each interprets every kind of step in its own
class, and nothing here asks which mode it is.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from .convolve import _add
from .faces import SUCCESSES, Counts, FaceTable, at_least, face_table, faces

if TYPE_CHECKING:
    from ..rule_refs import Rule

Reads = tuple[int, ...]  # the coordinates of the groups' vector values an outcome reads
Outcomes = Mapping[str, Hashable]
State = TypeVar("State", bound=Hashable)  # a chain's state (Stage, Chain)
Value = TypeVar("Value")  # what one stage of a chain rolls (Stage)
Worked = TypeVar("Worked")  # a value worked out from the last roll (Dice.then)


class Label(str):
    """A roll's label, with what its record says beside the dice: ``rule``,
    the rule section the roll applies (a :class:`rules_py.rule_refs.Rule`),
    and ``means``, what each result the roll can decide means in words, where
    that rests on a rule (a mapping from the result to its words: a chart's
    row, say). It is the label's own text everywhere else (a key, a step's
    name, the ``need`` of a resolution), so the odds never see the rest."""

    rule: Rule | None
    means: Mapping[Hashable, str] | None

    def __new__(cls, text: str, rule: Rule | None = None, means: Mapping[Hashable, str] | None = None) -> "Label":
        self = super().__new__(cls, text)
        self.rule = rule
        self.means = means or None
        return self


class Pool(NamedTuple):
    """What :meth:`Dice.fold` rolls: ``n`` dice of ``sides`` under ``label``,
    each face read through ``key`` and ``counts`` naming what it counts (as
    :meth:`Dice.pool` takes them). ``adds``, when given, lists the
    coordinates of a vector key that count toward the pool's group (the
    others are still rolled and shown, but add 0): a die that shows its 6s
    but whose 6s do not count, say."""

    n: int
    sides: int
    label: str
    key: FaceTable | Callable[[int], Hashable]
    counts: Counts | None = None
    adds: tuple[int, ...] | None = None


def past_horizon(turn: int, turns: int) -> str:
    """What the label of a roll at ``turn`` adds past the ``turns`` a procedure looks ahead
    (a wait that goes on, :meth:`Dice.beyond`): "" within them."""
    return f" (past the {turns} {'turn' if turns == 1 else 'turns'} looked ahead: counted as later)" if turn > turns else ""


class Stage(NamedTuple, Generic[State, Value]):
    """One stage of :meth:`Dice.chain`: ``args(state)`` gives what the stage
    rolls with (a tuple of hashable arguments, or None when it rolls nothing
    and the state carries on as it is), ``roll(dice, *args)`` rolls it (a
    self-contained part, as :meth:`Dice.sub` runs one: a sub-procedure
    returning a dict of outcomes will do) and ``then(state, value)`` is the
    state after it. ``args`` and ``then`` are pure functions of the state;
    ``roll`` should be one function for every call (a module's), since what
    it gives is worked out once per distinct ``(roll, args)``.

    Its types say that every stage of a chain takes and gives the chain's
    ``State``, and that ``then`` takes the ``Value`` its ``roll`` returns.
    The stages of one chain roll values of different types, so a chain holds
    them as ``Stage[State, Any]``: build each with :func:`stage`, which checks
    its ``roll`` and ``then`` agree before the value's type is let go."""

    roll: Callable[..., Value]
    args: Callable[[State], tuple[Hashable, ...] | None]
    then: Callable[[State, Value], State]


def stage(
    roll: Callable[..., Value], args: Callable[[State], tuple[Hashable, ...] | None], then: Callable[[State, Value], State],
) -> Stage[State, Any]:
    """A :class:`Stage` whose ``then`` is checked to take what its ``roll``
    returns, typed as one of a chain's stages (whose values differ: mypy has no
    type for "some value" but Any)."""
    return Stage(roll, args, then)


def _kept(keep: Reads | None, also: Reads | None) -> Reads | None:
    """The coordinates both keep (None keeps every coordinate)."""
    if keep is None:
        return also
    if also is None:
        return keep
    return tuple(i for i in keep if i in also)


def _masked(value: Any, keep: Reads | None) -> Any:
    """A vector value with the coordinates outside ``keep`` set to 0; a number as it is."""
    if keep is None or not isinstance(value, tuple):
        return value
    return tuple(x if i in keep else 0 for i, x in enumerate(value))


def _groups(groups: Iterable[Pool | Iterable[Pool]]) -> tuple[tuple[Pool, ...], ...]:
    """Each group as a tuple of pools with face tables for keys."""
    out = []
    for group in groups:
        pools = (group,) if isinstance(group, Pool) else tuple(group)
        if not pools:
            raise ValueError("fold: a group needs at least one pool")
        out.append(tuple(p._replace(key=face_table(p.sides, p.key)) for p in pools))
    return tuple(out)


def _check_disjoint(merged: Mapping[str, Any], result: Mapping[str, Any], fn: Callable[..., Any]) -> None:
    shared = set(merged) & set(result)
    if shared:
        raise ValueError(f"parts: {getattr(fn, '__name__', 'part')} returns outcomes {sorted(shared)} that another part returns too")


def pack(value: object) -> Hashable:
    """A sub-procedure's result made hashable for a Distribution (a dict as its items).

    Anything else a sub-procedure returns is hashable already (a number, a
    label, a tuple of them): the Distribution that keys on it says so if not."""
    if isinstance(value, dict):
        return ("__dict__", tuple(value.items()))
    return value


def unpack(value: Any) -> Any:
    """The result :func:`pack` packed: a dict again (a new one each time)."""
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "__dict__":
        return dict(value[1])
    return value


# ---------------------------------------------------------------------------
# The composite kinds of step


class Fold(NamedTuple):
    """Independent pools, then ``outcome(*values)``, a pure function of each
    group's value (a group is one pool, or several whose values add up,
    element-wise for vectors, through their ``adds``), returning a dict.
    ``reads`` (outcome -> coordinates) and ``by_difference`` only say how the
    odds may fold it (see :meth:`Dice.fold`); ``working`` what a roll's
    record shows after the last pool."""

    groups: tuple[tuple[Pool, ...], ...]
    outcome: Callable[..., Outcomes]
    reads: Mapping[str, Reads]
    working: Callable[..., Iterable[tuple[str, Any]]] | None
    by_difference: bool

    def pools(self) -> Iterable[Pool]:
        """Every pool, in the order they are rolled."""
        return (p for group in self.groups for p in group)

    def run(self, dice: "Dice") -> dict[str, Any]:
        """One roll at a time: each pool once, in order, then the outcome."""
        values = []
        for group in self.groups:
            total = None
            for p in group:
                value = _masked(dice.pool(p.n, p.sides, p.label, p.key, p.counts), p.adds)
                total = value if total is None else _add(total, value)
            values.append(total)
        if self.working is not None:
            for how, value in self.working(*values):
                dice.then(how, value)
        return dict(self.outcome(*values))


class Chain(NamedTuple, Generic[State]):
    """Stages that depend on one another (see :class:`Stage`): from ``start``,
    each stage rolls with ``args(state)`` and moves to ``then(state, value)``;
    ``outcome(state)`` of the last state gives the outcomes."""

    start: State
    stages: tuple[Stage[State, Any], ...]
    outcome: Callable[[State], Outcomes]

    def run(self, dice: "Dice") -> dict[str, Any]:
        """One roll at a time: each stage's roll a sub-procedure, in order."""
        state = self.start
        for stage in self.stages:
            args = stage.args(state)
            if args is not None:
                state = stage.then(state, dice.sub(stage.roll, *args))
        return dict(self.outcome(state))


Part = tuple[Callable[..., Mapping[str, Any]], *tuple[Hashable, ...]]  # (fn, *args): a part's function, then its arguments (Parts)


class Parts(NamedTuple):
    """Independent parts ``(fn, *args)``, each ``fn(dice, *args)`` returning a
    dict of outcomes no other part returns; the outcomes are their merge."""

    parts: tuple[Part, ...]

    def run(self, dice: "Dice") -> dict[str, Any]:
        """One roll at a time: each part in order, as a sub-procedure."""
        merged: dict[str, Any] = {}
        for fn, *args in self.parts:
            result = dice.sub(fn, *args)
            _check_disjoint(merged, result, fn)
            merged.update(result)
        return merged


# A chain of any state: the kinds a mode works out without looking inside the state.
Composite = Fold | Chain[Any] | Parts


class Dice:
    """What a procedure asks for its randomness (see the module's docstring).

    A mode implements the atoms, :meth:`die` and :meth:`pool`, the
    sub-procedure, :meth:`sub`, and the composite steps, :meth:`take`; the
    rest is said here once in their terms."""

    def die(self, sides: int, label: str, chart: FaceTable | Callable[[int], Hashable] | None = None) -> Any:
        """Roll one die. With ``chart`` (a face table) the face is looked up and the result returned."""
        raise NotImplementedError

    def pool(
        self, n: int, sides: int, label: str, key: FaceTable | Callable[[int], Hashable], counts: Counts | None = None,
        alike_from: int | None = None,
    ) -> Any:
        """Roll n dice and return the sum of key's entry for each face (one step).

        ``counts`` names what the key counts, for a roll shown in words: one
        (singular, plural) pair per number the key gives, e.g. (("success",
        "successes"), ("six", "sixes")). It never changes the odds.

        ``alike_from`` (a number key only) declares that the procedure treats
        every total from ``alike_from`` up alike (hits capped at a threshold,
        say): the odds then take those totals as one value, ``alike_from``,
        with their summed chance, so that what follows is worked out once for
        the tail, not once per total (flak of 100 shots: 7 paths, not 101).
        How it comes about still shows each total with its own chance, and a
        roll and given dice return the total rolled. A procedure that tells
        two such totals apart gets wrong odds: declare it only where it holds."""
        raise NotImplementedError

    def sub(self, fn: Callable[..., Any], *args: Hashable, **labels: Any) -> Any:
        """Run ``fn(dice, *args, **labels)``, a self-contained part of a procedure.
        ``labels`` are for the roll's record only: they are not part of the cache key."""
        raise NotImplementedError

    def take(self, step: Composite) -> dict[str, Any]:
        """The outcomes of a composite step (:class:`Fold`, :class:`Chain`, :class:`Parts`)."""
        raise NotImplementedError

    def beyond(self, fn: Callable[..., Any], *args: Hashable) -> None:
        """A wait that goes on past the horizon: ``fn(dice, *args)`` rolls what
        the table rolls next, turn after turn (the chart again, a new check),
        until the wait is over, and returns nothing.

        A procedure that follows a wait for so many turns (its horizon) and
        counts what has not come by then as "later" calls it there, before the
        dice of what follows the wait: at the table those come only once the
        wait is over. It decides no outcome, so the odds roll nothing for it:
        they are those of the turns followed, and what follows the wait is the
        same whenever the wait ends. ``fn`` must end with certainty (a chance
        above 0 each turn that the wait is over), since a roll rolls it to its
        end; given dice ask for its dice as long as it goes on, and the odds
        given dice take those it used."""
        raise NotImplementedError

    def d6(self, label: str, chart: FaceTable | Callable[[int], Hashable] | None = None) -> Any:
        return self.die(6, label, chart)

    def d3(self, label: str, chart: FaceTable | Callable[[int], Hashable] | None = None) -> Any:
        return self.die(3, label, chart)

    def sum_of(self, n: int, sides: int, label: str) -> int:
        """Roll n dice and return their total."""
        total: int = self.pool(n, sides, label, faces(sides))
        return total

    def successes(self, n: int, target: int, label: str, sides: int = 6, alike_from: int | None = None) -> int:
        """Roll n dice and return how many show ``target`` or more (``alike_from`` as :meth:`pool` takes it)."""
        count: int = self.pool(n, sides, label, at_least(target, sides), SUCCESSES, alike_from)
        return count

    def then(self, how: str, value: Worked) -> Worked:
        """``value``, worked out from the last roll by ``how`` ("less 4 for
        flak", "halved, rounding down"): a roll's record shows the arithmetic
        as "2D6 = 9, less 4 for flak = 5". It changes nothing else, and in
        odds mode it records nothing."""
        return value

    def parts(self, *parts: Part) -> dict[str, Any]:
        """The merged outcomes of independent parts, each ``(fn, *args)`` with
        ``fn(dice, *args) -> dict`` of outcome names no other part returns.
        The odds enumerate each part on its own: the cost is the sum of the
        parts' sizes, not their product."""
        return self.take(Parts(tuple(parts)))

    def fold(
        self,
        groups: Iterable[Pool | Iterable[Pool]],
        outcome: Callable[..., Outcomes],
        reads: Mapping[str, Reads] | None = None,
        working: Callable[..., Iterable[tuple[str, Any]]] | None = None,
        by_difference: bool = False,
    ) -> dict[str, Any]:
        """The outcomes of independent pools: ``outcome(*values)``, a pure
        function of each group's value (a group is a Pool, or several pools
        whose values add up, element-wise for vector keys, through their
        ``adds``), returning a dict of outcomes.

        The pools are rolled in order, each once, like :meth:`pool`. The
        odds are folded instead of replayed: one loop over the groups'
        values, with integer counts of equally likely rolls. ``reads`` may
        name, per outcome, the coordinates of the groups' vector values that
        outcome depends on: where the odds want each outcome's own
        distribution (a fold whose value the procedure returns as it is),
        that outcome is folded over those marginals only. A name left out
        reads everything (the joint).

        ``working``, a function of the groups' values like ``outcome``, gives
        the arithmetic a roll's record shows after the last pool, as
        (how, value) pairs (see :meth:`then`).

        ``by_difference`` declares that ``outcome`` of two groups depends on
        their values only through ``a - b`` (element-wise for vectors: a
        comparison, a margin, who shows more 6s), so that ``outcome(a, b)``
        is ``outcome(a - b, 0)``. The odds then fold over the distribution
        of that difference, one evaluation per distinct difference instead
        of one per pair of values. A roll and given dice still call
        ``outcome(a, b)`` with the values rolled."""
        step = Fold(_groups(groups), outcome, dict(reads or {}), working, by_difference)
        if by_difference and len(step.groups) != 2:
            raise ValueError(f"fold: by_difference needs two groups, not {len(step.groups)}")
        return self.take(step)

    def chain(self, start: State, stages: Iterable[Stage[State, Any]], outcome: Callable[[State], Outcomes]) -> dict[str, Any]:
        """The outcomes of stages that depend on one another: from the state
        ``start``, each :class:`Stage` in turn rolls ``roll(dice, *args(state))``
        (nothing when its args are None) and moves to ``then(state, value)``;
        ``outcome(state)`` of the last state gives the outcomes (a dict).

        The stages are rolled in order, each roll as :meth:`sub` runs a part.
        The odds are a forward pass over the distribution of the state after
        each stage, each stage enumerated once per distinct arguments, not a
        replay per path."""
        return self.take(Chain(start, tuple(stages), outcome))
