"""The examples in rules_py's docstrings run, and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import rules_py


def _has_examples(name: str) -> bool:
    return any(test.examples for test in doctest.DocTestFinder().find(importlib.import_module(name)))


MODULES = ["rules_py"] + [m.name for m in pkgutil.walk_packages(rules_py.__path__, "rules_py.")]
WITH_EXAMPLES = [name for name in MODULES if _has_examples(name)]


def test_the_package_docstring_has_an_example():
    assert "rules_py" in WITH_EXAMPLES


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS, verbose=False, report=True)
    assert result.attempted > 0 and result.failed == 0, result
