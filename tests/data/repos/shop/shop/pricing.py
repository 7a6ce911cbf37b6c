CODES = {"SAVE10": 0.10, "SAVE20": 0.20}


def discount(amount, code):
    rate = CODES.get(code, 0)
    return round(amount * (1 - rate), 2)


def legacy_discount(amount):
    # kept for old callers
    return amount
