"""The four rule systems the site covers: ids, names, packages and credits.

``slug`` is the URL folder of the system's pages (``combat-hq/``), ``package``
the ``rules_py`` subpackage that holds its procedures and tables.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class System:
    slug: str
    package: str
    title: str
    credit: str
    source: str


SYSTEMS: tuple[System, ...] = (
    System("konflikt47", "konflikt47", "Konflikt '47", "Warlord Games", "000_631df8d4c9f5a7fc.txt"),
    System("konrad", "konrad", "Operation Konrad", "Operation Konrad campaign rules", "001_776e12146b526a8a.txt"),
    System("combat-hq", "combat_hq", "Combat HQ", "Jim Bambra", "003_d1d0d819054b9ea1.txt"),
    System("plastic-ostfront", "plastic_ostfront", "Plastic Ostfront", "Plastic Ostfront (1/72 scale rules; author not named in our excerpt)", "004_aec295d4bf559134.txt"),
)

BY_SLUG = {s.slug: s for s in SYSTEMS}
BY_PACKAGE = {s.package: s for s in SYSTEMS}


def system(key: str) -> System:
    """A system by its slug or package name."""
    try:
        return BY_SLUG.get(key) or BY_PACKAGE[key]
    except KeyError:
        raise KeyError(f"unknown rule system {key!r}") from None
