"""Hypothesis profiles for the property tests.

* ``ci`` (the default, what ``make test`` runs): derandomized (the same examples on every
  run, so a failure repeats), a bounded number of examples per property and no deadline
  (fit times vary with the machine's load; no test here asserts a time).
* ``long`` (``HYPOTHESIS_PROFILE=long``): random examples, many more of them, for a
  nightly-style run; a failure prints the example and the ``@reproduce_failure`` to keep.
"""

import os

from hypothesis import HealthCheck, settings

_SLOW_DATA = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile(
    "ci", derandomize=True, max_examples=25, deadline=None, print_blob=True,
    suppress_health_check=_SLOW_DATA,
)
settings.register_profile(
    "long", max_examples=300, deadline=None, print_blob=True,
    suppress_health_check=_SLOW_DATA,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
