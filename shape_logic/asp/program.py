"""Where the ASP program comes from: the core encodings and one rule file per operator."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError

ROOT = Path(__file__).resolve().parent.parent.parent
ENCODINGS_DIR = ROOT / "encodings"
RULES_DIR = ROOT / "rules"
CORE_FILES = ("schema.lp", "given.lp", "equality.lp", "equations.lp", "broadcast.lp",
              "families.lp", "counts.lp", "rows.lp", "labels.lp",
              "axes.lp", "violations.lp", "show.lp")

# Rule files never execute code: no embedded scripts, no includes reaching elsewhere.
_FORBIDDEN = [
    (re.compile(r"#\s*script\b"), "embedded scripts (#script) are not allowed in rule files"),
    (re.compile(r"#\s*include\b"), "#include is not allowed in rule files"),
    (re.compile(r"#\s*(external|program)\b"), "#external and #program are reserved for the solver"),
]


@dataclass(frozen=True)
class RuleFile:
    op: str
    path: Path
    text: str


def core_encodings() -> list[Path]:
    return [ENCODINGS_DIR / f for f in CORE_FILES]


def rule_dirs(user_dirs=()) -> list[Path]:
    """Directories searched for rule files, later ones taking precedence."""
    dirs = [RULES_DIR]
    for d in user_dirs:
        p = Path(d)
        if not p.is_dir():
            raise InputError("not a directory of rule files", str(d))
        dirs.append(p)
    return dirs


def available_ops(user_dirs=()) -> dict[str, Path]:
    """Operator name -> the rule file that defines it (a user file replaces ours)."""
    out: dict[str, Path] = {}
    for d in rule_dirs(user_dirs):
        for f in sorted(d.glob("*.lp")):
            out[f.stem] = f
    return out


def shown_path(path: Path) -> str:
    """A rule file as people should read it: `rules/Conv.lp` for ours, a user's as given."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def load_rule_file(op: str, path: Path) -> RuleFile:
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read rule file: {e}", str(path))
    check_rule_text(text, str(path))
    return RuleFile(op, path, text)


def check_rule_text(text: str, path: str):
    stripped = _strip_comments(text)
    for pattern, reason in _FORBIDDEN:
        m = pattern.search(stripped)
        if m:
            line = stripped.count("\n", 0, m.start()) + 1
            raise InputError(reason, path, f"line {line}")


def _strip_comments(text: str) -> str:
    """Blank out %-comments and %* *% blocks, keeping line numbers (strings kept as-is)."""
    out = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if c == '"':
                in_string = False
            i += 1
        elif c == '"':
            in_string = True
            out.append(c)
            i += 1
        elif text.startswith("%*", i):
            end = text.find("*%", i + 2)
            end = n if end < 0 else end + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:end]))
            i = end
        elif c == "%":
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        else:
            out.append(c)
            i += 1
    return "".join(out)
