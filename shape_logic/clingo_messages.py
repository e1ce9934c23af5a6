"""clingo's messages about a program as input errors: one line naming the file and line."""
from __future__ import annotations

import re

from .errors import InputError

_LOCATION = re.compile(r"^(.*?):(\d+):\d+(?:-\d+(?::\d+)?)?: info: ")


def undefined_error(messages: list[str]) -> InputError:
    """A predicate used in a rule body that no rule file, encoding or fact defines."""
    msg = messages[0]
    atom = msg.strip().splitlines()[-1].strip()
    m = _LOCATION.match(msg)
    path, line = (m.group(1), m.group(2)) if m else (None, None)
    return InputError(f"{atom} uses a predicate that no rule file or the schema defines "
                      "(a typo? a helper of another file? see encodings/schema.lp)",
                      path, f"line {line}" if line else None)


def program_error(messages: list[str], rule_files=()) -> InputError:
    """A clingo error in a rule file: one line with the file and line."""
    for msg in messages:
        if "error" in msg:
            first = msg.strip().splitlines()[0]
            loc, _, reason = first.partition(": error: ")
            path, _, rest = loc.partition(":")
            line = rest.split(":")[0] if rest else ""
            return InputError(reason or first, path, f"line {line}" if line else None)
    if not messages and rule_files:  # clingo keeps no trace of a failing @-call
        return InputError("an @-function failed while grounding: a rule calls it with terms "
                          "it does not take (rule files: "
                          + ", ".join(str(rf.path) for rf in rule_files) + ")")
    return InputError("; ".join(m.strip() for m in messages) or "clingo failed")
