"""American checkers as the AI Wars 2011 contest played it."""
