"""test_value_probes' sizes made into y by other nodes than a ConstantOfShape, y declared as
traced: each kept a traced size before stop 62 -
- an Expand by a Compress's or a Unique's values through an Abs, or a Cast to int32 and
  back before a ConstantOfShape: a length the data decides (counts.lp's count_length, now
  carried along equal axes);
- an Expand or a Split by sizes of either sign (max(0, 4 - s)//2 - max(0, s - 4)//2 + 4
  through two Negs, or their least): no size, and the axis open (unsized, rules/Expand.lp,
  rules/Split.lp);
- an Expand by a vector min(2, s) - 1 long (a long Range sliced [1:2]): its rank open
  (open_rank, rules/Expand.lp);
- a Slice of 40 elements to their sum, a length per case of the end's sign (case_dim),
  through a Relu or a Concat: unsized too (rules/Slice.lp);
- a float Range to their sum by 0.5, 2*(s + t) long, which the rules do not compute: the
  length open (unsized, rules/Range.lp)."""
import numpy as np
import pytest

from .onnx_graphs import N
from .test_value_probes import traced_size_check

ONE = {"one_f": np.ones((1,), np.float32)}
BIG = {"big": np.zeros((40,), np.float32), "zero1": np.array([0], np.int64)}
CONSUMERS = {
    "expand_abs": ([N("Abs", "size", "sa"), N("Expand", "one_f sa", "y")], ONE),
    "expand_neg_neg": ([N("Neg", "size", "sa"), N("Neg", "sa", "sb"),
                        N("Expand", "one_f sb", "y")], ONE),
    "cast_of_shape": ([N("Cast", "size", "sc", to=6), N("Cast", "sc", "sd", to=7),
                       N("ConstantOfShape", "sd", "y")], {}),
    "slice_relu": ([N("ReduceSum", "size", "ss", keepdims=1), N("Slice", "big zero1 ss", "sl"),
                    N("Relu", "sl", "y")], BIG),
    "slice_concat": ([N("ReduceSum", "size", "ss", keepdims=1),
                      N("Slice", "big zero1 ss", "sl"), N("Concat", "sl three_f", "y", axis=0)],
                     {**BIG, "three_f": np.zeros((3,), np.float32)}),
    "range_half": ([N("ReduceSum", "size", "ss", keepdims=0), N("Cast", "ss", "sf", to=1),
                    N("Range", "zero_f sf half", "y")],
                   {"zero_f": np.float32(0), "half": np.float32(0.5)}),
    "split": ([N("ReduceMin", "size", "k", keepdims=1), N("Sub", "forty k", "r"),
               N("Concat", "k r", "sp", axis=0), N("Split", "big sp", "y y2")],
              {"big": np.arange(40, dtype=np.float32), "forty": np.array([40])}),
}
# the probes that broke one of them, and two whose sizes the graph gives
CASES = [("expand_abs", p) for p in ("compress", "unique_vals", "slice_long", "gather2d")] + \
    [("expand_neg_neg", p) for p in ("compress", "div_neg", "fmod_neg", "neg_add",
                                     "slice_long", "mul_div")] + \
    [("cast_of_shape", p) for p in ("compress", "unique_vals", "concat_shape")] + \
    [(c, p) for c in ("slice_relu", "slice_concat", "split")
     for p in ("div_neg", "fmod_neg", "mul_sub_div", "neg_add", "mul_div")] + \
    [("range_half", p) for p in ("identity", "mul_div", "reducesum", "slice_step2")]


@pytest.mark.parametrize("consumer,name", CASES)
def test_a_traced_size_made_by_another_node_is_kept_only_where_the_graph_gives_it(consumer,
                                                                                  name):
    traced_size_check(name, CONSUMERS[consumer])
