"""asp/texts.py reads a model's symbols as clingo prints them, whatever their length."""
import random
import string

import clingo
import pytest

from shape_logic.asp.texts import START, symbols_text


def _name(rnd: random.Random, length: int) -> str:
    return "".join(rnd.choice(string.ascii_letters + '"\\\n_') for _ in range(length))


@pytest.mark.parametrize("seed", [0, 1])
def test_symbols_text_is_str_of_each_symbol(seed):
    rnd = random.Random(seed)
    # lengths around the buffer's first size: a text of START - 1 characters fits (with
    # its NUL), START does not and grows the buffer
    lengths = [0, 1, 20, START - 12, START - 11, START - 10, START, 3 * START]
    syms = []
    for _ in range(400):
        syms.append(clingo.Function("dim", [clingo.String(_name(rnd, rnd.choice(lengths))),
                                            clingo.Number(rnd.randint(-5, 10**6)),
                                            clingo.String("b*s")]))
        syms.append(clingo.Function("rank", [clingo.Function("batch", [clingo.String("x")]),
                                             clingo.Number(2)]))
    assert symbols_text(syms).split("\n") == [str(s) for s in syms]


def test_symbols_text_of_a_model():
    ctl = clingo.Control()
    ctl.add("base", [], 'p("a\\nb", 1..3). q(f(x), "' + "y" * (2 * START) + '").')
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        model = next(iter(handle))
        syms = model.symbols(shown=True)
        assert symbols_text(syms).split("\n") == [str(s) for s in syms]


def test_no_symbols():
    assert symbols_text([]) == ""
