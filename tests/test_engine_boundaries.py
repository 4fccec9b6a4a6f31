"""Where each rule lives: one recording rule for a seeded roll and the player's
own dice, private names kept in their module, benchmarks that share helpers
rather than reach into one another (issue 46 item 9).

The name checks read the source (ast), so they hold for every module, not
only those a test happens to import."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rules_py.dice import Given, Rolling
from rules_py.dice.roll import Recording

ROOT = Path(__file__).resolve().parents[1]
# The engine's own package shares its internals among its modules (convolution,
# the plan's helpers, the step log) behind the public names of its __init__.
SHARED_WITHIN = ("rules_py.dice",)


def skirmish(dice):
    """A pool read as (hits, sixes), a die read through a chart, then arithmetic on the roll."""
    hits = dice.pool(3, 6, "attack dice", lambda face: (int(face >= 4), int(face == 6)), (("hit", "hits"), ("six", "sixes")))
    side = dice.d6("scatter", chart=("left", "left", "centre", "centre", "right", "right"))
    halved = dice.then("halved, rounding down", hits[0] // 2)
    return {"hits": hits, "side": side, "halved": halved}


def test_a_seeded_roll_and_given_dice_are_one_recording(monkeypatch):
    # Each sets its record up through the one base it shares (no subclass
    # skipping its base's __init__), and given dice are no seeded roll without a seed.
    made = []
    base_init = Recording.__init__

    def spy(self):
        made.append(type(self).__name__)
        base_init(self)

    monkeypatch.setattr(Recording, "__init__", spy)
    Rolling(1)
    Given([1, 2])
    assert made == ["Rolling", "Given"]
    assert isinstance(Given([]), Recording) and not isinstance(Given([]), Rolling)


@pytest.mark.parametrize("seed", range(8))
def test_the_faces_a_seed_rolled_given_back_read_the_same(seed):
    # One rule reads a pool and a chart: the faces a roll showed, entered as the
    # player's own dice, give the same record, result by result, and the same outcomes.
    rolled = Rolling(seed)
    outcome = skirmish(rolled)
    given = Given([face for entry in rolled.log for face in entry["faces"]])
    assert skirmish(given) == outcome
    assert given.log == rolled.log
    # What the pool scored, worked out by hand from its faces: a hit on 4+, a six on 6.
    faces = rolled.log[0]["faces"]
    assert outcome["hits"] == (sum(f >= 4 for f in faces), sum(f == 6 for f in faces))
    assert rolled.log[1]["then"] == [("halved, rounding down", outcome["hits"][0] // 2)]  # after the last roll, the chart's


def _module(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_package(name: str, root: Path) -> bool:
    return (root / Path(*name.split("."))).is_dir()


def _is_module(name: str, root: Path) -> bool:
    return _is_package(name, root) or (root / Path(*name.split("."))).with_suffix(".py").exists()


def _absolute(path: Path, root: Path, node: ast.ImportFrom) -> str:
    """The module an ``import from`` names, relative imports resolved."""
    if not node.level:
        return node.module or ""
    here = path.relative_to(root).parent.parts
    base = here[: len(here) - (node.level - 1)]
    return ".".join((*base, *([node.module] if node.module else [])))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_names_read_elsewhere(root: Path, package: str = "rules_py") -> list[str]:
    """Every private name (one leading underscore) a module of ``package``
    under ``root`` reads from another module: imported by name, or as an
    attribute of a module it imported. Inside SHARED_WITHIN it may."""
    found = []
    for path in sorted((root / package).rglob("*.py")):
        here = _module(path, root)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules: dict[str, str] = {}  # a local name -> the module it is bound to
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                source = _absolute(path, root, node)
                for alias in node.names:
                    if _is_module(f"{source}.{alias.name}", root):
                        modules[alias.asname or alias.name] = f"{source}.{alias.name}"
                    elif _private(alias.name) and not _shared(here, source):
                        found.append(f"{path.relative_to(root)}:{node.lineno}: imports {alias.name} from {source}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        modules[alias.asname] = alias.name
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name) and node.value.id in modules:
                source = modules[node.value.id]
                if source != here and not _shared(here, source):
                    found.append(f"{path.relative_to(root)}:{node.lineno}: reads {node.value.id}.{node.attr} of {source}")
    return found


def _shared(here: str, source: str) -> bool:
    """Whether ``here`` may read ``source``'s private names: both inside one package of SHARED_WITHIN."""
    return any((here == p or here.startswith(p + ".")) and (source == p or source.startswith(p + ".")) for p in SHARED_WITHIN)


def test_no_module_reads_another_modules_private_names():
    assert private_names_read_elsewhere(ROOT) == []


def test_the_private_name_check_finds_a_private_name_read_across_modules(tmp_path):
    # The check itself, on a package made for it: a calculator calling its
    # neighbour's _notes, as the fire mission once did, is found; its own are not.
    package = tmp_path / "rules_py" / "combat_hq"
    package.mkdir(parents=True)
    (tmp_path / "rules_py" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "deviation.py").write_text("def _notes(inputs):\n    return []\n\n\ndef notes(inputs):\n    return _notes(inputs)\n")
    (package / "fire_mission.py").write_text(
        "from . import deviation\nfrom .deviation import _notes as borrowed\n\n\ndef notes(inputs):\n    return deviation._notes(inputs) + borrowed(inputs)\n"
    )
    assert private_names_read_elsewhere(tmp_path) == [
        "rules_py/combat_hq/fire_mission.py:2: imports _notes from rules_py.combat_hq.deviation",
        "rules_py/combat_hq/fire_mission.py:6: reads deviation._notes of rules_py.combat_hq.deviation",
    ]


def test_the_benchmarks_share_helpers_not_each_other():
    # What two benchmarks both need (a cold engine and a call's time, a page's
    # first answer) lives in a helper module of its own, not in one of them.
    reaching = []
    for path in sorted((ROOT / "scripts" / "bench").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names] if isinstance(node, ast.Import) else []
            reaching += [f"{path.name}:{node.lineno}: {name}" for name in names if name.startswith("scripts.bench.bench_")]
    assert reaching == []
