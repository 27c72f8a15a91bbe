"""Test-suite set-up.

``SCIPY_ARRAY_API=1`` lets scikit-learn's estimator checks run ``check_array_api_input``
(NumPy namespace) instead of skipping it; it must be set before scipy is first imported.
"""

import os

os.environ.setdefault("SCIPY_ARRAY_API", "1")
