"""How many examples a hypothesis test that sets its own count tries: that count on every run,
ten times it under HYPOTHESIS_PROFILE=explore (tests/conftest.py), which looks for new defects
with random examples; a test's own ``max_examples`` would otherwise hold explore to the count
sized for CI."""

import os

EXPLORING = os.environ.get("HYPOTHESIS_PROFILE") == "explore"


def examples(count: int) -> int:
    return count * 10 if EXPLORING else count
