from typing import List


def goes_negative(operations: List[int]) -> bool:
    """A bank account starts at zero. ``operations`` lists deposits (positive) and withdrawals
    (negative) in the order they happen. Return True if the balance is below zero at any point,
    and False otherwise.

    >>> goes_negative([1, 2, 3])
    False
    >>> goes_negative([1, 2, -4, 5])
    True
    >>> goes_negative([])
    False
    """
