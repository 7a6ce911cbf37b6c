from typing import List


def has_close_elements(numbers: List[float], threshold: float) -> bool:
    ordered = sorted(numbers)
    for a, b in zip(ordered, ordered[1:]):
        if b - a < threshold:
            return True
    return False
