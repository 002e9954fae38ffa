"""Votey Checkers: Lines of Action on 8x8, as the CSSA contest played it."""
