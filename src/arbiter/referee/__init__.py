"""The referee: runs agents (in-process or as child processes) through a contest's protocol."""
