"""Bug-seeking strings for the edge tier, from a string argument's allowed characters and lengths:

- repeated and overlapping patterns (``aaaa``, ``abab``, ``aaabbb``, ``ba``) over the first
  characters allowed;
- for two string arguments, pairs where one is found in the other after a near miss (``aaaab`` /
  ``aab``: a prefix repeated, ``ababc`` / ``abc``), equal, one a prefix of the other, one longer;
- numeric strings where digits are allowed: ``0``, ``1``, all nines, a one and zeros, leading
  zeros, and, where signs are allowed, the 32-bit bounds and just past them, signs after
  spaces, a sign alone, two signs, digits then words.

Nothing here looks at the problem's name: only the characters and lengths the constraints (or
the examples) allow. The caller validates every input; what breaks a constraint is dropped.
"""

from __future__ import annotations

import itertools

DIGITS = "0123456789"


def _three_letters(chars: str) -> tuple[str, str, str]:
    """The first three letters of ``chars`` (a space only when it has nothing else), each later
    one repeating the one before when ``chars`` has fewer."""
    letters = [ch for ch in chars if ch != " "] or list(chars)
    a = letters[0]
    b = letters[1] if len(letters) > 1 else a
    return a, b, letters[2] if len(letters) > 2 else b


def patterns(chars: str, size: int) -> list[str]:
    """Repeated and overlapping patterns at about ``size`` characters over ``chars``."""
    if not chars:
        return []
    a, b, c = _three_letters(chars)
    half = max(1, size // 2)
    out = [a * size, (a + b) * half, a * half + b * half, b + a, a + b * half, (a + a + b) * max(1, size // 3),
           (a + b + c) * max(1, size // 3), a + b + b + a]
    return list(dict.fromkeys(x for x in out if x))


def overlap_pairs(chars: str) -> list[tuple[str, str]]:
    """(text, part) pairs that catch matching that restarts too late after a partial match, or
    that misses the end: the part found only after a near miss, at the very end, the whole text,
    or not at all (longer than the text)."""
    if not chars:
        return []
    a, b, c = _three_letters(chars)
    pairs = [
        (a * 4 + b, a * 2 + b),  # "aaaab" / "aab": a prefix repeated, found after a near miss
        ((a + b) * 2 + a + c, a + b + a + c),  # "ababac" / "abac"
        (a + a + b + a + a + a + b, a + a + a + b),  # "aabaaab" / "aaab"
        (a + b + c, a + b + c),  # the whole text
        (a + b, a + b + c),  # longer than the text
        (b + a * 3, a * 2),  # at position 1, repeated
        (a * 3, a * 4),
        (a + b + a + b, b + a + b),
        (c + a + b, a + c),  # absent
    ]
    return list(dict.fromkeys(pairs))


def numeric(chars: str, size: int, *, leading_zeros: bool) -> list[str]:
    """Numeric strings over ``chars`` (only those it can write): zero, one, all nines, carries,
    leading zeros when ``leading_zeros``, and signed text where ``-`` or ``+`` is allowed."""
    digits = "".join(ch for ch in DIGITS if ch in chars)
    if not digits:
        return []
    top = digits[-1]
    low = digits[0]
    one = "1" if "1" in digits else top
    n = max(2, size)
    out = [low, one, top, top * n, one + low * (n - 1), one + top * (n - 1)]
    if leading_zeros and low == "0":
        out += ["0" * n, "00" + one, "0" * (n - 1) + top]
    if "-" in chars or "+" in chars:
        out += signed(chars)
    return [s for s in dict.fromkeys(out) if s and set(s) <= set(chars)]


def signed(chars: str) -> list[str]:
    """Text read as a signed 32-bit integer: the bounds and just past them, far past them, signs
    after spaces, a sign alone, two signs, words before or after the digits, leading zeros."""
    out = ["-2147483648", "2147483647", "-2147483649", "2147483648", "-91283472332", "91283472332",
           "   -42", "-", "+", "+-12", "-+1", "+1", "-0", "   +0 123", "0000000000012345678",
           "-000000000000001", "4193 with words", "words and 987", "  ", "3.14159", "-5-", "21474836460"]
    return [s for s in out if set(s) <= set(chars)]


def pairs_of(values: list[str], limit: int) -> list[tuple[str, str]]:
    """Pairs of ``values``, every value against the first few and itself, at most ``limit``."""
    pairs = list(dict.fromkeys(itertools.product(values[:4], values)))
    pairs.sort(key=lambda p: (p[0] != p[1] and values.index(p[0]) + values.index(p[1])))
    return pairs[:limit]
