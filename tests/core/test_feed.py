"""asp/feed.py: facts parsed by clingo while they are written."""
import clingo
import pytest

from shape_logic.asp.feed import stream_facts


def _atoms(ctl):
    ctl.ground([("base", [])])
    return sorted(str(a.symbol) for a in ctl.symbolic_atoms)


def test_chunks_are_parsed_and_kept():
    chunks = [f"p({i}). q({i}, \"t{i}\").\n" for i in range(500)]
    ctl = clingo.Control()
    text, writing = stream_facts(ctl, iter(chunks))
    assert text == "".join(chunks)
    assert writing >= 0
    whole = clingo.Control()
    whole.add("base", [], text)
    assert _atoms(ctl) == _atoms(whole)


def test_a_parse_error_is_raised_in_the_caller():
    def chunks():
        yield "p(1).\n"
        yield "p(2 .\n"  # a syntax error
        for i in range(100):
            yield f"p({i}).\n"

    with pytest.raises(RuntimeError):
        stream_facts(clingo.Control(logger=lambda code, msg: None), chunks())


def test_an_error_while_writing_stops_the_parser():
    def chunks():
        yield "p(1).\n"
        raise ValueError("bad graph")

    with pytest.raises(ValueError, match="bad graph"):
        stream_facts(clingo.Control(), chunks())


@pytest.mark.parametrize("chunks", [[], ["p(1). q(1, \"t\").\n"]])
def test_one_chunk_or_none_is_parsed_in_the_callers_thread(chunks):
    ctl = clingo.Control()
    text, _ = stream_facts(ctl, iter(chunks))
    assert text == "".join(chunks)
    whole = clingo.Control()
    whole.add("base", [], text)
    assert _atoms(ctl) == _atoms(whole)
