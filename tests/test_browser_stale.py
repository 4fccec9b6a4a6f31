"""Nothing old looks current (issue 43 item 4, issue 44 item 2).

From an input's change until its answer, the answer on show is for other
inputs: its parts are marked (data-stale="true" on the headline, every
outcome's line, the tables and the pinned box), dimmed, and the engine's note
says so in words, whatever the engine is doing: starting (its files held
back here by the test), answering, restarting after a worker that died or ran
past its time limit, or failed. A worker that dies while answering is
replaced and asked once more on its own: the answer comes without an input
change. Values are the CLI's.
"""

from __future__ import annotations

import pytest

from conftest import BOOT_TIMEOUT_MS, cli, cli_odds

pytestmark = [pytest.mark.browser, pytest.mark.site]

CALC = "chq-comms-check"
SCOPE = f'.calculator[data-calculator="{CALC}"]'
STALE_WORDS = "The answer shown is for the inputs before your change."


def headline(calc_id: str, inputs: dict[str, str]) -> str:
    return cli("answer", calc_id, *(f"{k}={v}" for k, v in inputs.items()))["headline"]


def marked(tab, scope: str) -> dict:
    """What marks the answer on show: data-stale of its parts, the headline's opacity, the note's words."""
    return tab.page.evaluate(
        """scope => {
            const root = document.querySelector(scope);
            const part = (sel) => root.querySelector(sel)?.dataset.stale ?? null;
            return {
                headline: part('.fm-headline'), summary: part('.fm-summary'), box: part('.fm-answer-box'),
                text: root.querySelector('.fm-headline').textContent,
                note: root.querySelector('.fm-answer-box .fm-engine').hidden ? '' : root.querySelector('.fm-answer-box .fm-engine').textContent,
            };
        }""",
        scope,
    )


def wait_opacity(tab, selector: str, value: str) -> None:
    tab.page.wait_for_function("([sel, v]) => getComputedStyle(document.querySelector(sel)).opacity === v", arg=[selector, value])


def test_a_change_while_the_engine_starts_marks_the_answer_on_show_as_the_other_inputs(tab):
    # chq-fire-mission at its defaults: the build's answer, and no engine yet. Its
    # runtime.json is held back, so the engine stays "starting" while the player changes Nation.
    calc = "chq-fire-mission"
    scope = f'.calculator[data-calculator="{calc}"]'
    held = []
    tab.context.route("**/assets/generated/runtime.json*", lambda route: held.append(route))  # the worker's requests: the context's
    tab.goto(f"calculators/{calc}/")
    tab.calculator(calc)
    germany = headline(calc, {})
    assert tab.page.inner_text(f"{scope} .fm-headline") == germany
    tab.page.select_option(f'{scope} [data-input="nation"]', "soviet")
    tab.page.wait_for_function("() => fireMissionEngine.state === 'starting'")
    tab.page.wait_for_selector(f'{scope} .fm-headline[data-stale="true"]')
    shown = marked(tab, scope)
    # Germany's answer, still on show, is marked as the other inputs', and said so.
    assert shown["text"] == germany
    assert shown["headline"] == shown["summary"] == shown["box"] == "true"
    assert STALE_WORDS in shown["note"] and shown["note"].startswith("Starting the calculator engine")
    wait_opacity(tab, f"{scope} .fm-headline", "0.45")
    # The engine's files come: Soviet Union's answer, current.
    tab.context.unroute("**/assets/generated/runtime.json*")
    for route in held:
        route.fallback()
    tab.calculator(calc)
    tab.page.wait_for_function(
        "([scope, want]) => document.querySelector(scope + ' .fm-headline').textContent === want", arg=[scope, headline(calc, {"nation": "soviet"})], timeout=BOOT_TIMEOUT_MS
    )
    shown = marked(tab, scope)
    assert shown["headline"] is shown["summary"] is shown["box"] is None
    assert STALE_WORDS not in shown["note"]
    wait_opacity(tab, f"{scope} .fm-headline", "1")
    assert tab.odds_cells(calc) == cli_odds(calc, {"nation": "soviet"})


def test_a_worker_killed_while_answering_is_replaced_and_asked_again_the_old_answer_marked_meanwhile(tab):
    tab.goto(f"calculators/{CALC}/?nation=soviet")
    tab.calculator(CALC)
    tab.page.wait_for_function("() => fireMissionEngine.state === 'ready'", timeout=BOOT_TIMEOUT_MS)
    soviet = headline(CALC, {"nation": "soviet"})
    assert tab.page.inner_text(f"{SCOPE} .fm-headline") == soviet
    # The worker is terminated as soon as it has the request for Commonwealth (the page
    # learns of it from the Web Lock the worker held, engine.mjs).
    tab.page.evaluate(
        """() => {
            const engine = fireMissionEngine;
            const post = engine.worker.postMessage.bind(engine.worker);
            engine.worker.postMessage = (message, ...rest) => {
                post(message, ...rest);
                if (message.request?.inputs?.nation === 'commonwealth') setTimeout(() => engine.worker.terminate(), 170);
            };
        }"""
    )
    tab.page.select_option(f'{SCOPE} [data-input="nation"]', "commonwealth")
    # While the new worker starts, Soviet Union's answer is on show, marked and said to be the other inputs'.
    tab.page.wait_for_function("() => fireMissionEngine.generation === 2")
    shown = marked(tab, SCOPE)
    if shown["text"] == soviet:  # the new worker may answer before this look: then it must be current
        assert shown["headline"] == shown["box"] == "true"
    # Asked again on its own: Commonwealth's answer comes without another change.
    tab.page.wait_for_function(
        "([scope, want]) => document.querySelector(scope + ' .fm-headline').textContent === want",
        arg=[SCOPE, headline(CALC, {"nation": "commonwealth"})],
        timeout=BOOT_TIMEOUT_MS,
    )
    tab.calculator(CALC)
    assert tab.odds_cells(CALC) == cli_odds(CALC, {"nation": "commonwealth"})
    shown = marked(tab, SCOPE)
    assert shown["headline"] is shown["box"] is None and STALE_WORDS not in shown["note"]
    assert tab.page.evaluate("fireMissionEngine.generation") == 2


def test_an_answer_past_its_time_limit_twice_leaves_the_old_answer_marked_as_the_other_inputs(tab):
    tab.goto(f"calculators/{CALC}/?nation=soviet")
    tab.calculator(CALC)
    tab.page.wait_for_function("() => fireMissionEngine.state === 'ready'", timeout=BOOT_TIMEOUT_MS)
    soviet = headline(CALC, {"nation": "soviet"})
    tab.page.evaluate("window.fireMissionAnswerTimeoutMs = 1")
    tab.page.select_option(f'{SCOPE} [data-input="nation"]', "commonwealth")
    # Asked twice (the second time of a new worker), past its limit both times: given up.
    root = tab.calculator(CALC, "error")
    tab.page.wait_for_function("() => fireMissionEngine.generation === 3 && fireMissionEngine.state === 'ready'", timeout=BOOT_TIMEOUT_MS)
    shown = marked(tab, SCOPE)
    assert shown["text"] == soviet
    assert shown["headline"] == shown["summary"] == shown["box"] == "true"
    assert "took longer than" in shown["note"] and "Change an input to try again." in shown["note"] and STALE_WORDS in shown["note"]
    assert "fm-outdated" in root.get_attribute("class")
    wait_opacity(tab, f"{SCOPE} .fm-headline", "0.45")
    # The next change, with the time limit back, is answered and current.
    tab.page.evaluate("window.fireMissionAnswerTimeoutMs = 0")
    tab.page.select_option(f'{SCOPE} [data-input="nation"]', "germany")
    tab.page.wait_for_function(
        "([scope, want]) => document.querySelector(scope + ' .fm-headline').textContent === want", arg=[SCOPE, headline(CALC, {"nation": "germany"})], timeout=BOOT_TIMEOUT_MS
    )
    tab.calculator(CALC)
    assert marked(tab, SCOPE)["headline"] is None


def test_a_change_after_the_engine_failed_marks_the_answer_on_show(tab):
    tab.goto(f"calculators/{CALC}/?nation=soviet")
    tab.calculator(CALC)
    tab.page.wait_for_function("() => fireMissionEngine.state === 'ready'", timeout=BOOT_TIMEOUT_MS)
    tab.page.evaluate("fireMissionEngine.fail('The engine failed on purpose (a test).')")
    tab.page.select_option(f'{SCOPE} [data-input="nation"]', "commonwealth")
    tab.calculator(CALC, "error")
    shown = marked(tab, SCOPE)
    assert shown["text"] == headline(CALC, {"nation": "soviet"})
    assert shown["headline"] == shown["box"] == "true"
    assert shown["note"] == f"The engine failed on purpose (a test). {STALE_WORDS}"
