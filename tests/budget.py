"""How many examples a property test tries: `@settings(max_examples=examples(N))`. `make test` (the `ci` profile,
the default) tries N, chosen so that the whole suite stays quick, on examples derived from each test's name, so a
run is repeatable; `make test-long` (HYPOTHESIS_PROFILE=long) tries LONG times as many, new ones each run."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

LONG = 10
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
# No deadline and no complaint that making examples is slow: both fail only on a busy machine.
UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}

settings.register_profile("ci", derandomize=True, print_blob=True, **UNTIMED)
settings.register_profile("long", print_blob=True, **UNTIMED)
settings.load_profile(PROFILE)


def examples(count: int) -> int:
    """`count` examples in CI, LONG times as many under `make test-long`."""
    return count * LONG if PROFILE == "long" else count
