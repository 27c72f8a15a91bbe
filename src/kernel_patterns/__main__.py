"""``python -m kernel_patterns``: the ``kernel-patterns`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
