"""Goodness of fit for rolls against exact odds, with the standard library only.

``chi_square_p(observed, expected)`` pools bins with an expected count under 5
(the usual validity rule for the chi-square approximation) and returns the
p-value from the chi-square distribution's survival function, computed as the
regularized upper incomplete gamma function Q(k/2, x/2) (series below a+1,
Lentz's continued fraction above, as in Numerical Recipes §6.2).
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction


def _gamma_q(a: float, x: float) -> float:
    if x <= 0:
        return 1.0
    gln = math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return 1.0 - total * math.exp(-x + a * math.log(x) - gln)
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - gln) * h


def chi_square_p(observed: Counter, expected: dict, n: int) -> float:
    """p-value of observed counts against exact probabilities (dict value -> Fraction)."""
    unknown = set(observed) - {v for v, p in expected.items() if p > 0}
    if unknown:
        return 0.0  # a roll produced a value the odds call impossible
    bins: list[tuple[float, int]] = []
    pool_e, pool_o = 0.0, 0
    for value, p in sorted(expected.items(), key=lambda vp: vp[1]):
        e = float(p) * n
        if e < 5:
            pool_e += e
            pool_o += observed.get(value, 0)
        else:
            bins.append((e, observed.get(value, 0)))
    if pool_e > 0:
        if pool_e < 5 and bins:
            e, o = bins.pop(0)
            pool_e, pool_o = pool_e + e, pool_o + o
        bins.append((pool_e, pool_o))
    if len(bins) < 2:
        return 1.0
    x = sum((o - e) ** 2 / e for e, o in bins)
    return _gamma_q((len(bins) - 1) / 2, x / 2)


def _self_check() -> None:
    # Known quantiles: chi2(1) at 3.841 has p = 0.05; chi2(10) at 18.307 has p = 0.05.
    assert abs(_gamma_q(0.5, 3.841 / 2) - 0.05) < 1e-3
    assert abs(_gamma_q(5, 18.307 / 2) - 0.05) < 1e-3


_self_check()
__all__ = ["chi_square_p", "Fraction"]
