"""The rule systems the site covers (the one list of them): ids, names, packages and credits.

``slug`` is the URL folder of the system's pages (``combat-hq/``), ``package``
the ``rules_py`` subpackage that holds its procedures and tables. ``credit``
(author or publisher) and ``covers`` (what the site takes from it) make the
Sources page's table (scripts/build/build_pages.py); ``source`` is the file of our
excerpt in ``../shared/sources/``, which the tests compare the tables with.
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
    covers: str


SYSTEMS: tuple[System, ...] = (
    System(
        "konflikt47", "konflikt47", "Konflikt '47", "Warlord Games", "000_631df8d4c9f5a7fc.txt",
        "HQ units, officers, medics, artillery and air observers, smoke, air strikes and flak",
    ),
    System(
        "konrad", "konrad", "Operation Konrad", "the Operation Konrad campaign rules", "001_776e12146b526a8a.txt",
        "night attacks, retreats and stacking, isolation, the supply depot",
    ),
    System(
        "combat-hq", "combat_hq", "Combat HQ", "Jim Bambra", "003_d1d0d819054b9ea1.txt",
        "direct-support artillery: deviation, fire for effect, suppression, sheaves, fire dice, comms checks and fire missions",
    ),
    System(
        "plastic-ostfront", "plastic_ostfront", "Plastic Ostfront", "1/72 scale rules (no author is named in our excerpt)", "004_aec295d4bf559134.txt",
        "artillery organisation, the artillery shoot and its tables, registration, intensity, missions, ammunition, cover, counter-battery fire",
    ),
)

BY_SLUG = {s.slug: s for s in SYSTEMS}
BY_PACKAGE = {s.package: s for s in SYSTEMS}


def system(key: str) -> System:
    """A system by its slug or package name."""
    try:
        return BY_SLUG.get(key) or BY_PACKAGE[key]
    except KeyError:
        raise KeyError(f"unknown rule system {key!r}") from None
