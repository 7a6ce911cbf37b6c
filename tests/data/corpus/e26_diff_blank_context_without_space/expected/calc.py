"""A tiny calculator used by the extraction corpus."""

import math


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def div(a, b):
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a / b


class Calculator:
    """Keeps a running total."""

    def __init__(self):
        self.total = 0

    def push(self, value):
        self.total = add(self.total, value)
        return self.total

    def sqrt(self):
        # square root of the running total
        return math.sqrt(self.total)

    def reset(self):
        self.total = 0
