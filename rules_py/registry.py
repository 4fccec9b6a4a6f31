"""Every calculator by id, found in the rule-system subpackages.

A module of a rule-system package (``rules_py/<package>/<procedure>.py``)
registers its calculators by defining ``CALCULATORS = (Calculator(...), ...)``.
Discovery walks the packages named in :mod:`rules_py.systems`, so adding a
procedure module needs no edit anywhere else.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from .calculator import Calculator, InputError
from .systems import SYSTEMS


@lru_cache(maxsize=None)
def _all() -> dict[str, Calculator]:
    found: dict[str, Calculator] = {}
    for system in SYSTEMS:
        package = importlib.import_module(f"rules_py.{system.package}")
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            module = importlib.import_module(f"rules_py.{system.package}.{info.name}")
            for calc in getattr(module, "CALCULATORS", ()):
                if calc.id in found:
                    raise ValueError(f"calculator id {calc.id} registered twice")
                if calc.system != system.slug:
                    raise ValueError(f"{calc.id} sits in {system.package} but names system {calc.system}")
                found[calc.id] = calc
    return found


def calculators() -> tuple[Calculator, ...]:
    """All calculators, by rule system in site order, then by id."""
    order = {s.slug: i for i, s in enumerate(SYSTEMS)}
    return tuple(sorted(_all().values(), key=lambda c: (order[c.system], c.id)))


def get(calculator_id: str) -> Calculator:
    try:
        return _all()[calculator_id]
    except KeyError:
        raise InputError(f"unknown calculator {calculator_id!r}; 'list' shows them all") from None
