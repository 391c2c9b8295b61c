"""The start below `limit` with the longest Collatz sequence: int64 arithmetic whose `3 * n + 1` is checked for
overflow in a branch-free arm (lower/overflow_arms.py). Used by bench/checks.py and the overflow-arm tests."""


def collatz(limit):
    best, longest = 1, 1
    for start in range(1, limit):
        n, steps = start, 1
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        if steps > longest:
            best, longest = start, steps
    return best
