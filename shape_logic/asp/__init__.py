"""The bridge to clingo: terms, @-functions, program assembly."""
