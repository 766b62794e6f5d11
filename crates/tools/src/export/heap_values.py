# How one heap's values are known: ("identity",), ("modulo", m), or
# ("table", values, period start, period length).
VALUES = @VALUES@


def g(n):
    """One heap's Grundy value, from the values grundy proved."""
    if VALUES[0] == "identity":
        return n
    if VALUES[0] == "modulo":
        return n % VALUES[1]
    values, start, length = VALUES[1], VALUES[2], VALUES[3]
    if n < len(values):
        return values[n]
    return values[start + (n - start) % length]
