"""Decision times kept as a small histogram: a ladder entry's median and p95 are read from it,
updated as each game lands, never recomputed from every decision (plain Python).

Buckets grow by a quarter of a doubling (about 19% each), from BASE_MS up to about 16 s; the
last bucket holds everything slower. A quantile is the geometric middle of its bucket, so it is
within about 10% of the true value.
"""

import math
from collections.abc import Iterable

BASE_MS = 0.01  # the first bucket holds every decision faster than this
STEPS_PER_DOUBLING = 4
BUCKETS = 4 * 21  # 0.01 ms * 2**21 ≈ 21 s


def bucket(ms: float) -> int:
    if ms <= BASE_MS:
        return 0
    return min(BUCKETS - 1, 1 + int(STEPS_PER_DOUBLING * math.log2(ms / BASE_MS)))


def empty() -> list[int]:
    return [0] * BUCKETS


def add(histogram: list[int], times_ms: Iterable[float]) -> list[int]:
    histogram = list(histogram) if histogram else empty()
    for ms in times_ms:
        histogram[bucket(ms)] += 1
    return histogram


def merge(histogram: list[int], other: list[int]) -> list[int]:
    histogram = list(histogram) if histogram else empty()
    for i, count in enumerate(other):
        histogram[i] += count
    return histogram


def quantile(histogram: list[int], q: float) -> float | None:
    """The time (ms) below which a share ``q`` of the decisions fall; None without decisions."""
    total = sum(histogram or ())
    if not total:
        return None
    rank = q * total
    seen = 0
    for i, count in enumerate(histogram):
        seen += count
        if count and seen >= rank:
            if i == 0:
                return BASE_MS
            low = BASE_MS * 2 ** ((i - 1) / STEPS_PER_DOUBLING)
            return low * 2 ** (0.5 / STEPS_PER_DOUBLING)
    return None  # unreachable: seen reaches total
