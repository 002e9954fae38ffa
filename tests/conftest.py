"""Shared test settings."""

# the misbehaving agent scripts are programs, not test modules
collect_ignore_glob = ["referee/agents/*.py"]
