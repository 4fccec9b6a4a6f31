"""Combat HQ fire missions: the list by battery type, and the pages that tie
tasking, comms checks and artillery together."""

from __future__ import annotations

from collections import Counter

import pytest

from rules_py.tables import load

MISSIONS = load("combat_hq", "fire_missions")


def test_every_mission_of_the_source_is_listed_once():
    # The source lists 6 direct-support missions (4 planned, 2 on-call),
    # 3 general-support and 3 close-support ones.
    assert len(MISSIONS.rows) == 12
    assert len(set(MISSIONS.column("mission"))) == 12
    assert Counter(MISSIONS.column("battery")) == {"Direct support": 6, "General support": 3, "Close support": 3}
    kinds = Counter((r["battery"], r["kind"]) for r in MISSIONS.rows)
    assert kinds[("Direct support", "Planned")] == 4
    assert kinds[("Direct support", "On-call")] == 2
    assert MISSIONS.row("mission", "Initial Barrage")["kind"] == "Planned"
    assert MISSIONS.row("mission", "Counter-Battery Fire")["kind"] is None


@pytest.mark.site
def test_missions_page_links_comms_and_artillery_both_ways(site):
    missions = (site / "combat-hq" / "fire-missions" / "index.html").read_text(encoding="utf-8")
    comms = (site / "combat-hq" / "comms" / "index.html").read_text(encoding="utf-8")
    artillery = (site / "combat-hq" / "artillery" / "index.html").read_text(encoding="utf-8")
    index = (site / "combat-hq" / "index.html").read_text(encoding="utf-8")
    assert 'href="../comms/' in missions and 'href="../artillery/' in missions
    assert 'href="../fire-missions/' in comms and 'href="../artillery/' in comms
    assert 'href="../fire-missions/' in artillery and 'href="../comms/' in artillery
    assert 'href="artillery/' in index and 'href="fire-missions/' in index
    assert 'data-calculator="chq-deviation"' in artillery
    assert 'data-calculator="chq-fire-for-effect"' in artillery
    assert "Combat HQ" in missions and "Combat HQ" in artillery
