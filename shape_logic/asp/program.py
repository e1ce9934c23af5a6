"""Where the ASP program comes from: the core encodings and one rule file per operator."""
from __future__ import annotations

import atexit
import re
import threading
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InputError
from .relevance import select, uses_of
from .rule_check import check_rule_text

if TYPE_CHECKING:
    import clingo

ROOT = Path(__file__).resolve().parent.parent.parent
ENCODINGS_DIR = ROOT / "encodings"
RULES_DIR = ROOT / "rules"
CORE_FILES = ("schema.lp", "nodes.lp", "given.lp", "equality.lp", "equations.lp", "broadcast.lp",
              "families.lp", "floats.lp", "casts.lp", "counts.lp", "elements.lp", "rows.lp",
              "labels.lp", "axes.lp", "scopes.lp", "conditions.lp", "sequences.lp",
              "violations.lp", "floors.lp", "show.lp")

DEFAULT_DOMAIN = ""  # ONNX's ("ai.onnx" is the same)
_DOMAINS_LINE = re.compile(r"^%\s*domains:(.*)$", re.M)
_ROWS_LINE = re.compile(r"^%\s*rows: seeds\b", re.M)
_USES_LINE = re.compile(r"^%\s*uses:(.*)$", re.M)
_NONEMPTY_HEAD = re.compile(r"^\s*nonempty\(", re.M)
_SIZE_READ_HEAD = re.compile(r"^\s*size_read\(", re.M)
# a rule deriving an element's value or stating a vocabulary atom that carries values
# (schema.lp): value/3, same_value/4, same_values/2, value_arith/2, float_arith/2,
# cast_pair/3, fill/2
_VALUE_HEAD = re.compile(
    r"^\s*(?:value|same_values?|value_arith|float_arith|cast_pair|fill)\(", re.M)
# a why_text/2 fact on a line of its own (schema.lp)
_WHY_TEXT = re.compile(r'^\s*why_text\(\s*"([\w/]+)"\s*,\s*"((?:[^"\\]|\\.)*)"\s*\)\s*\.', re.M)


@dataclass(frozen=True)
class RuleFile:
    op: str
    path: Path
    text: str

    @cached_property
    def domains(self) -> tuple[str, ...]:
        """The operator domains the file describes: ONNX's unless a line `% domains: ...`
        lists them (`ai.onnx` for ONNX's, `com.microsoft` for onnxruntime's contrib ops).
        A node of another domain is an unknown operator (its outputs get the safety net)."""
        m = _DOMAINS_LINE.search(self.text)
        if m is None:
            return (DEFAULT_DOMAIN,)
        return tuple(normal_domain(d) for d in m.group(1).split())

    @cached_property
    def makes_floors(self) -> bool:
        """The file derives `nonempty/2` (an output axis its node fails without: a floor of
        the symbols in it, encodings/floors.lp; floor_prefix.py solves such nodes first)."""
        return _NONEMPTY_HEAD.search(self.text) is not None

    @cached_property
    def reads_sizes(self) -> bool:
        """The file derives `size_read/2` (an input whose elements its node reads as sizes,
        failing on a negative one: counts.lp)."""
        return _SIZE_READ_HEAD.search(self.text) is not None

    @cached_property
    def gives_values(self) -> bool:
        """The file derives values of its node's outputs (a head of value/3 or of a
        vocabulary atom that carries them: same_values, value_arith...). An operator whose
        file derives none (Sqrt, CumSum) leaves the values it computes open, and so the
        sizes read from them (data_sizes.py)."""
        return _VALUE_HEAD.search(self.text) is not None

    @cached_property
    def uses(self) -> tuple[str, ...]:
        """The operators whose rule files this one builds on, from a line `% uses: Conv`:
        QLinearConv states which of its tensors are the convolution's (`conv/4`) and
        Conv.lp's shape rules do the rest. A solve loads those files along with it (the
        ones in force: a user's Conv.lp replaces ours for QLinearConv too)."""
        return tuple(op for m in _USES_LINE.finditer(self.text) for op in m.group(1).split())

    @cached_property
    def why_texts(self) -> dict[str, str]:
        """The file's why_text(Name, Text) facts: how diagnostics word its reasons."""
        return _why_texts_in(self.text)

    @cached_property
    def seeds_rows(self) -> bool:
        """The file derives `min_rank` or `same_row` from no row (a line `% rows: seeds`,
        held to what its rules can derive by tests/core/test_rows_seeds.py): a graph
        whose declarations have no row is then solved without encodings/rows.lp."""
        return _ROWS_LINE.search(self.text) is not None


def normal_domain(domain: str) -> str:
    return DEFAULT_DOMAIN if domain in ("", "ai.onnx") else domain


def core_encodings() -> list[Path]:
    return [ENCODINGS_DIR / f for f in CORE_FILES]


# rank polymorphism: left out of a solve where no row can occur (solver.rows_possible)
ROWS_FILE = ENCODINGS_DIR / "rows.lp"

# bodies reading the graph around them through copies: left out of a graph without bodies
SCOPES_FILE = ENCODINGS_DIR / "scopes.lp"
# what an If's branches know of its condition: likewise
CONDITIONS_FILE = ENCODINGS_DIR / "conditions.lp"

# the program part the decoder grounds on demand: equal axes without a value (voids.lp)
VOIDS_FILE = ENCODINGS_DIR / "voids.lp"
VOIDS_PART = "voids"


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
        out.update(_rule_files_in(d, d.stat().st_mtime_ns))
    return out


@lru_cache(maxsize=64)
def _rule_files_in(directory: Path, mtime_ns: int) -> dict[str, Path]:
    """The rule files of a directory as it is at `mtime_ns` (a file added or removed changes
    it): solving many graphs in one process lists the same directory each time."""
    return {f.stem: f for f in sorted(directory.glob("*.lp"))}


def shown_path(path: Path) -> str:
    """A rule file as people should read it: `rules/Conv.lp` for ours, a user's as given."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def load_rule_file(op: str, path: Path) -> RuleFile:
    if is_shipped(path):  # ours are checked by the tests (test_rule_check)
        try:
            return _shipped_rule_file(op, path, path.stat().st_mtime_ns)
        except OSError as e:
            raise InputError(f"cannot read rule file: {e}", str(path))
    rf = _read_rule_file(op, path)
    _checked(rf.text, str(path))
    _users_why_texts.update(rf.why_texts)
    return rf


_users_why_texts: dict = {}  # the why_text facts of users' rule files loaded so far


def why_texts() -> dict[str, str]:
    """Name -> text of every why_text fact: our rule files' and encodings' (read once, a
    rule file's before the encodings'), then those of the users' rule files loaded in this
    process, which come first."""
    return {**_shipped_why_texts(), **_users_why_texts}


@lru_cache(maxsize=1)
def _shipped_why_texts() -> dict[str, str]:
    out: dict = {}
    for path in sorted(RULES_DIR.glob("*.lp")) + sorted(ENCODINGS_DIR.glob("*.lp")):
        for name, text in _why_texts_in(path.read_text()).items():
            out.setdefault(name, text)
    return out


def _why_texts_in(text: str) -> dict[str, str]:
    """Name -> text of the why_text facts of a program file's text (schema.lp)."""
    return {m.group(1): m.group(2) for m in _WHY_TEXT.finditer(text)}


def _read_rule_file(op: str, path: Path) -> RuleFile:
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read rule file: {e}", str(path))
    return RuleFile(op, path, text)


@lru_cache(maxsize=512)
def _shipped_rule_file(op: str, path: Path, mtime_ns: int) -> RuleFile:
    """One of our rule files as it is at `mtime_ns`, read once per process with what its
    comment lines say (domains, uses): ~0.7 ms a solve of 8 files otherwise."""
    return _read_rule_file(op, path)


def is_shipped(path: Path) -> bool:
    """One of our encodings or rule files (not a user's)."""
    return _our_directory(path.parent)


@lru_cache(maxsize=64)
def _our_directory(directory: Path) -> bool:
    # asked for every file of every solve: resolving the path each time cost ~1.5 ms a solve
    return directory.resolve() in (ENCODINGS_DIR, RULES_DIR)


def program_key(path: Path) -> tuple[str, int]:
    """One of our program files as it is now: (path, mtime), the key of what a process
    keeps of it (its parsed statements, what relevance.py reads of them)."""
    return str(path), path.stat().st_mtime_ns


@lru_cache(maxsize=512)
def _parsed(path: str, mtime_ns: int) -> tuple:
    import clingo.ast

    out: list = []
    clingo.ast.parse_files([path], out.append)
    # a comment is a statement too (~30% of them), and adding one to a control costs as much
    return tuple(s for s in out if s.ast_type != clingo.ast.ASTType.Comment)


# the statements are released while clingo's library is still there (at interpreter exit,
# it may go first, and each statement would then print an ignored exception)
atexit.register(_parsed.cache_clear)


@lru_cache(maxsize=1024)
def _checked(text: str, path: str) -> None:
    """A rule file's text is checked once per process (a failing check raises, and is not
    remembered): solving many models in one process reads the same files each time."""
    check_rule_text(text, path)


# the statements parsed once are shared by every control: clingo's syntax trees are not
# safe to add to two controls at once (narrowing solves in two threads: a corrupted heap)
_ADDING = threading.Lock()


def add_program_files(ctl: clingo.Control, paths: list,
                      relevant_to: tuple[str, str] | None = None) -> bool:
    """Our encodings and rule files as their statements, parsed once per process; a
    user's rule files loaded as they are now (clingo reports their syntax errors with
    their place). Given `relevant_to` (the texts of the facts and of the extra program)
    and only our files, the parsed rules that cannot fire on it are left out
    (relevance.py): whether they were. One thread at a time (_ADDING)."""
    with _ADDING:
        return _add_program_files(ctl, paths, relevant_to)


def _add_program_files(ctl: clingo.Control, paths: list, relevant_to: tuple | None) -> bool:
    import clingo.ast

    shipped = [is_shipped(p) for p in paths]
    # Our files go in as their statements parsed once per process, every solve, the first
    # too: a control given the same graph then holds the same program whatever the process
    # solved before. (A process's first solve gave them as text, whole, to spare the
    # parsing; the grounding order differed, and the stateful arithmetic spelled a
    # Longformer's requirement `32*((seq + 3*seq%4)//4)` there and `32*seq - 32*(3*seq//4)`
    # in every later solve: tests/test_same_answer.py.)
    parsed = [(key, _parsed(*key)) for key in
              (program_key(path) for path, ours in zip(paths, shipped) if ours)]
    selected = relevant_to is not None and all(shipped) and bool(parsed)
    if selected:
        facts, extra = relevant_to
        chosen = [select([(s, uses_of(k, s)) for k, s in parsed], facts, extra)]
    else:
        chosen = [s for _, s in parsed]
    with clingo.ast.ProgramBuilder(ctl) as builder:
        for statements in chosen:
            for statement in statements:
                builder.add(statement)
    for path, ours in zip(paths, shipped):
        if not ours:
            ctl.load(str(path))
    return selected
