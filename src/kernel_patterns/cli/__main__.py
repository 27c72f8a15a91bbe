"""``python -m kernel_patterns.cli``."""

import sys

from . import main

sys.exit(main())
