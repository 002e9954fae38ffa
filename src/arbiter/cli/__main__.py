"""``python -m arbiter.cli``: the ``arbiter`` command."""

import sys

from arbiter.cli import main

sys.exit(main())
