"""Every calculator by id, found in the rule-system subpackages.

A module of a rule-system package (``rules_py/<package>/<procedure>.py``)
registers its calculators by defining ``CALCULATORS = (Calculator(...), ...)``.
Discovery walks the packages named in :mod:`rules_py.systems`, so adding a
procedure module needs no edit anywhere else.

Discovery imports every procedure module and loads its tables. The browser's
first answer needs one calculator, and there importing the others costs a
tenth of a second or more (WebAssembly, on a phone several times that). So the
site's wheel carries what discovery found, each id with its module
(``data/calculator_modules.json``, written by scripts/build/build_wheel.py from
:func:`modules`), and :func:`get` imports only the module it names until
discovery has run. A source tree has no such file: the CLI and the tests
discover. An index that does not hold the id asked for, or names a module
that does not register it, is passed over for discovery, which is the truth.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from functools import lru_cache
from importlib import resources

from .calculator import Calculator, InputError, quoted
from .systems import SYSTEMS

INDEX = "calculator_modules.json"  # in rules_py/data/ of the site's wheel only


@lru_cache(maxsize=None)
def _discover() -> dict[str, tuple[Calculator, str]]:
    """Every calculator by id, with the name of the module that registers it."""
    found: dict[str, tuple[Calculator, str]] = {}
    for system in SYSTEMS:
        package = importlib.import_module(f"rules_py.{system.package}")
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            name = f"rules_py.{system.package}.{info.name}"
            module = importlib.import_module(name)
            for calc in getattr(module, "CALCULATORS", ()):
                if calc.id in found:
                    raise ValueError(f"calculator id {calc.id} registered twice")
                if calc.system != system.slug:
                    raise ValueError(f"{calc.id} sits in {system.package} but names system {calc.system}")
                found[calc.id] = (calc, name)
    return found


@lru_cache(maxsize=None)
def _all() -> dict[str, Calculator]:
    return {calc_id: calc for calc_id, (calc, _) in _discover().items()}


def modules() -> dict[str, str]:
    """Each calculator's id with the module that registers it, as the wheel's index holds them."""
    return {calc_id: name for calc_id, (_, name) in _discover().items()}


@lru_cache(maxsize=None)
def _index() -> dict[str, str]:
    try:
        text = resources.files(__package__).joinpath("data", INDEX).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    index: dict[str, str] = json.loads(text)
    return index


def _indexed(calculator_id: str) -> Calculator | None:
    """The calculator from the module the wheel's index names, importing no other; None if it cannot say."""
    if _discover.cache_info().currsize:  # discovery has run: it knows
        return None
    name = _index().get(calculator_id)
    if not isinstance(name, str) or not name.startswith("rules_py."):
        return None
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    return next((c for c in getattr(module, "CALCULATORS", ()) if c.id == calculator_id), None)


def calculators() -> tuple[Calculator, ...]:
    """All calculators, by rule system in site order, then by id."""
    order = {s.slug: i for i, s in enumerate(SYSTEMS)}
    return tuple(sorted(_all().values(), key=lambda c: (order[c.system], c.id)))


def get(calculator_id: str) -> Calculator:
    found = _indexed(calculator_id) if isinstance(calculator_id, str) else None
    if found is not None:
        return found
    try:
        return _all()[calculator_id]
    except (KeyError, TypeError):
        raise InputError(f"unknown calculator {quoted(calculator_id)}; 'list' shows them all") from None
