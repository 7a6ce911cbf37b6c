def clamp(value, lo, hi):
    return max(lo, min(hi, value))
