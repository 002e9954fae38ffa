"""Tools for arbiter's own developers (``python -m arbiter.tools.layers``)."""
