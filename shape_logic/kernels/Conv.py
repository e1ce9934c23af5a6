"""Conv: N-D convolution (cross-correlation) with groups, strides, dilations and pads.

im2col over the taps of taps.py: the column matrix of an image is [C*K, L] (rows
channel-major, like the weights; L the flat output positions), the taps copied as whole
planes; a 1x1 convolution with stride 1 and no padding uses the input itself. The
weights [G, M/G, C/G*K] multiply it in one batched matmul per image (NumPy calls BLAS
for each group's matrix), the columns of a few groups at a time so that they stay in the
cache; a depthwise convolution (one input channel per group) copies its input once per
tap along the last axis instead of once per tap (depthwise.py). The geometry of an
input shape is worked out once; temporaries are scratch buffers (scratch.py). With one
group and column matrices, the bias is one more column of the weights against a row of
ones under the columns (no pass over the result to add it). Large
calls are cut into parts for the intra-op threads (conv_parts.py, workers.py). Few
filters over many channels (DenseNet's 3x3 convs) skip the columns: tap_sums.py.

`order` (set by the executor's channel-shuffle fusion, exec_shuffle.py) puts output
channel ch at channel order[ch] of the result. When the channels of every group land
at evenly spaced places (c + a * group + b * row: ShuffleNet's shuffle, a = 1, b = the
number of groups) the products write their rows there directly (BLAS takes a row
pitch), so the shuffle costs nothing; any other order is one gather at the end.
"""
import numpy as np

from . import workers
from .Relu import zeros
from .base import Kernel
from .conv_parts import Call, group_view, spread
from .depthwise import DepthwisePlan
from .scratch import scratch
from .spatial import geometry
from .tap_sums import run_tap_sums, tap_sums_plan, tap_weights
from .taps import tap_plan
from .winograd import WinogradPlan, winograd_plan
from .winograd import run as run_winograd
from .winograd import weights as winograd_weights
from .nchwc_ops import NCHWC, NchwcConv

# an element of the taps copied costs about what this many multiply-adds cost in BLAS
# (the work estimate that decides how many parts a call is cut into)
COPY_COST = 8
# the one column matrix the parts share when they split the filters, at most (scratch.py)
SHARED_BYTES = 16 << 20
# a bias added after the products as a whole plane [M, positions] kept from call to call,
# at most: NumPy adds a [M, 1] column row by row (~50 ns a row beyond the elements), a
# contiguous plane in one run; measured on ShuffleNet's [136, 784] 17 -> 7 us, [544, 49]
# 5.0 -> 1.9 (min of 21). Larger ones come from memory, no faster: left a column
PLANE_BYTES = 512 << 10


class Conv(Kernel):
    domains = ("", NCHWC)
    variants = {NCHWC: NchwcConv}  # (nchwc_ops.py)

    attrs = {"auto_pad": "NOTSET", "dilations": None, "group": 1, "kernel_shape": None,
             "pads": None, "strides": None}
    n_inputs = (2, 3)
    relu = False  # the executor fused a Relu of the output in (exec_rewrite.fuse_conv_relu)
    order = None  # output channel -> its channel in the result (exec_shuffle.py), or None
    # exec_rewrite.fuse_conv_add: a 4th input of the output's shape is added in place
    # (before a fused Relu), and n_inputs becomes (2, 4)

    def setup(self, **attrs):
        self._plans = {}  # (x shape, w shape) -> (output sizes, TapPlan or None: empty)
        self._filters = (None,) * 5  # (w, b, x dtype, order, filters()) of the last call
        # ((group, M), spacing(group, M), `order` inverted) of the last call
        self._spacing = (None, None, None)
        self._folded = (None, None)  # (wg, wg with the bias as a last column)
        self._tap_weights = (None, None)  # (wg, the weights for tap_sums)
        self._depthwise = (None, None, None)  # (wg, DepthwisePlan, its weights)
        self._plane = (None, 0, None)  # (bias [M, 1], positions, `bias_plane`)
        self._winograd = (None, None, None, None)  # (w, b, (dtype, F), winograd.weights)

    def run(self, x, w, b=None, addend=None, *, auto_pad="NOTSET", dilations=None, group=1,
            kernel_shape=None, pads=None, strides=None):
        key = (x.shape, w.shape)
        entry = self._plans.get(key)
        if entry is None:
            if len(self._plans) > 64:  # shapes that keep changing: keep the cache small
                self._plans.clear()
            entry = self._plans[key] = self.plan(x, w, auto_pad, dilations, group,
                                                 kernel_shape, pads, strides)
        out, plan, sums_plan, depthwise, wino = entry
        if plan is None:  # the kernel is wider than the padded input, or no image
            return np.zeros(x.shape[:1] + w.shape[:1] + out, dtype=x.dtype)
        if wino is not None and self.order is None and x.dtype == w.dtype:
            return self.winograd(wino, x, w, b, addend)
        if depthwise is not None:  # (its grid is the output: nothing to cut)
            plan = depthwise
        n, (c, m) = x.shape[0], (x.shape[1], w.shape[0])
        wg, bias, dups = self.filters(x, w, b, group)
        spaced = self.spacing(group, m)
        gather = self.order is not None and spaced is None  # an order BLAS cannot write
        result = np.empty((n, m) + out, x.dtype)
        if sums_plan is not None and self.order is None and wg.dtype == x.dtype:
            # few filters over many channels: output-side tap sums, no columns
            run_tap_sums(sums_plan, x, self.tap_weights(w, wg), result)
            call = Call(plan, x, wg, result.reshape(n, 1, m, -1), dups)
            call.copy_duplicates()
            call.whole(result, None, bias[0], addend, self.relu, True)
            call.finish_whole()
            return result
        # the grid is the result itself when no column is thrown away (nor a dtype)
        compact = plan.compact and wg.dtype == x.dtype and not gather
        length = plan.grid_length()
        grid = result.reshape(n, m, length) if compact else \
            scratch("result", (n, m, length), wg.dtype)  # the parts write, then it is cut
        call = Call(plan, x, wg, group_view(grid, group, spaced), dups)
        if depthwise is not None:
            call.depthwise = self.depthwise_weights(wg, depthwise)
        k = len(plan.taps)
        parts = workers.worth(n * plan.length * k * (c // group) * (m + COPY_COST * group))
        one_by_one = k == 1 and not plan.masks  # the (strided) input is the columns
        if bias[0] is not None and ((group == 1 and not one_by_one) or (
                one_by_one and parts == 1 and c < m)):
            # the column matrices get a row of ones and the weights the bias as one more
            # column: the products add it, a pass over the result fewer (squeezenet's
            # first conv, 64 x 111 x 111: ~1100 -> ~1050 us). A 1x1 kernel's input is
            # copied for it: paid back when the result is larger than the input
            # (squeezenet's 16 -> 64 expand at 55 x 55: ~142 -> ~114 us)
            call.wb = self.folded(wg, bias[1])
            bias = (None, None)
        add, relu = (None, False) if gather else (addend, self.relu)  # (after the gather)
        # one group, a 1x1 kernel or fewer positions than filters (late layers): the
        # parts split the filters over one column matrix (whole rows of positions would
        # leave BLAS skinny products: resnet's [4608, 49] columns, 512 filters, ~1.4x ->
        # ~1.9x on 2 threads; a 1x1 kernel's columns are the input, nothing to copy in
        # parts: resnet50 72.3 -> 68.3 ms a run, densenet121 71.0 -> 69.2)
        by_filters = group == 1 and parts > 1 and (one_by_one or (
            plan.length < m and n * (c * k + 1) * plan.length * x.itemsize <= SHARED_BYTES))
        if parts > 1 and not (by_filters and dups):  # each part finishes its own filters
            call.parted(result, bias[1], add, relu, spaced, compact)
        else:  # finished as a whole, over contiguous arrays (fewer, faster passes)
            call.whole(result, grid, self.bias_plane(bias[0], result), add, relu, compact)
        if group > 1 and parts == 1:
            call.groups(0, group)
        elif group > 1:  # whole groups per part, each from its input channels to its rows
            bounds = spread(group, parts, 1)
            workers.parallel(lambda p: call.groups(bounds[p], bounds[p + 1]),
                             len(bounds) - 1)
        else:  # whole rows of flat output positions per part, from one split input
            call.flat = plan.split(x, 0)
            if parts == 1:
                call.columns(0, plan.length)
            elif by_filters:  # the columns made once (a 1x1 kernel: the input), shared
                if not one_by_one:
                    call.share_columns()
                rows = spread(m, parts, 8)
                workers.parallel(lambda p: call.filter_rows(rows[p], rows[p + 1]),
                                 len(rows) - 1)
                call.copy_duplicates()  # (then finished as a whole: the copies cross parts)
            else:
                bounds = spread(plan.length, parts, plan.pitch)
                workers.parallel(lambda p: call.columns(bounds[p], bounds[p + 1]),
                                 len(bounds) - 1)
                if not compact:  # the cut and the finishing, by filters
                    rows = spread(m, parts, 1)
                    workers.parallel(lambda p: call.finish(0, 1, rows[p], rows[p + 1]),
                                     len(rows) - 1)
        call.finish_whole()
        if gather:  # the result's channels from the filters' (any order)
            result = result[:, self._spacing[2]]
            if addend is not None:
                np.add(result, addend, out=result)
            if self.relu:
                np.maximum(result, zeros(result.size, result.dtype).reshape(result.shape),
                           out=result)
        return result

    def plan(self, x, w, auto_pad, dilations, group, kernel_shape, pads, strides):
        if x.ndim < 3 or w.ndim != x.ndim or x.shape[1] != w.shape[1] * group \
                or w.shape[0] % group:
            raise self.fail(f"input {list(x.shape)}, weights {list(w.shape)} and group {group} "
                            "do not fit (need C = W.shape[1] * group, M % group == 0)")
        kernel = list(kernel_shape or w.shape[2:])
        kernel, strides, dilations, begin, end, out = geometry(
            self, x, kernel, strides, dilations, pads, auto_pad)
        if 0 in out or x.shape[0] == 0:
            return tuple(out), None, None, None, None
        geo = (tuple(x.shape[2:]), tuple(kernel), tuple(strides), tuple(dilations),
               tuple(begin), tuple(out))
        one = group == 1  # (ExactPlan: filters against column rows, for one group)
        plan = tap_plan(*geo, x.shape[1] if one else 0, w.shape[0] if one else 0)
        # one input channel per group, a kernel wider than 1x1 (or padded): depthwise.py
        depthwise = DepthwisePlan(plan, out) if not one and x.shape[1] == group and (
            len(plan.taps) > 1 or plan.masks) else None
        return tuple(out), plan, tap_sums_plan(*geo, x.shape[1], w.shape[0], group), \
            depthwise, winograd_plan(*geo, x.shape[1], w.shape[0], group, x.dtype)

    def winograd(self, wino: WinogradPlan, x, w, b, addend) -> np.ndarray:
        """The convolution by Winograd's F(2x2, 3x3) or F(4x4, 3x3) (winograd.py), the
        transformed weights (the bias in them) made once per weight array."""
        last = self._winograd
        if last[0] is not w or last[1] is not b or last[2] != (x.dtype, wino.f):
            self._winograd = (w, b, (x.dtype, wino.f), winograd_weights(w, b, x.dtype, wino.f))
        dups = self.filters(x, w, b, 1)[2]
        result = np.empty((x.shape[0], w.shape[0]) + wino.out, x.dtype)
        run_winograd(wino, x, self._winograd[3], result, dups, addend, self.relu)
        return result

    def bias_plane(self, by_row, result):
        """The bias [M, 1] as a contiguous plane [M, positions] when it is small
        (PLANE_BYTES; kept while the bias and the positions stay), else as it is."""
        if by_row is None:
            return None
        m, positions = result.shape[1], result[0, 0].size
        if m * positions * result.itemsize > PLANE_BYTES or by_row.dtype != result.dtype:
            return by_row
        if self._plane[0] is not by_row or self._plane[1] != positions:
            self._plane = (by_row, positions,
                           np.ascontiguousarray(np.broadcast_to(by_row, (m, positions))))
        return self._plane[2]

    def tap_weights(self, w, wg) -> np.ndarray:
        """The weights as tap_sums wants them (once per weight array)."""
        if self._tap_weights[0] is not wg:
            self._tap_weights = (wg, tap_weights(w, wg.dtype))
        return self._tap_weights[1]

    def depthwise_weights(self, wg, depthwise) -> np.ndarray:
        """The weights as DepthwisePlan wants them (once per weight array and plan)."""
        if self._depthwise[0] is not wg or self._depthwise[1] is not depthwise:
            self._depthwise = (wg, depthwise, depthwise.weights(wg))
        return self._depthwise[2]

    def spacing(self, group: int, m: int):
        """(c, a, b) when `order` puts row r of group q at channel c + a * q + b * r (every
        group's rows evenly spaced, as BLAS can write them), else None."""
        if self.order is None:
            return None
        if self._spacing[0] != (group, m):
            mg = m // group
            order = np.asarray(self.order).reshape(group, mg)
            c = int(order[0, 0])
            a = int(order[1, 0]) - c if group > 1 else 0
            b = int(order[0, 1]) - c if mg > 1 else 1
            even = a >= 0 and b >= 1 and np.array_equal(
                order, c + a * np.arange(group)[:, None] + b * np.arange(mg)[None, :])
            self._spacing = ((group, m), (c, a, b) if even else None, np.argsort(order.ravel()))
        return self._spacing[1]

    def folded(self, wg, by_filter) -> np.ndarray:
        """The weights [G, M/G, C/G*K + 1] with the bias as the last column (once per
        weight array: `filters` keeps wg)."""
        if self._folded[0] is not wg:
            self._folded = (wg, np.concatenate([wg, by_filter[..., None]], axis=2))
        return self._folded[1]

    def filters(self, x, w, b, group):
        """(weights [G, M/G, C/G*K] in the computing dtype, the bias in that dtype or
        None as (per grid row [M, 1], per filter [G, M/G]), the runs of filters repeating
        an earlier one of their group: (group, rows, row)), worked out once per weight
        array (a graph's weights are the same arrays on every run) and order."""
        last = self._filters
        if last[0] is w and last[1] is b and last[2] == x.dtype and last[3] is self.order:
            return last[4]
        m = w.shape[0]
        dtype = np.result_type(x, w)
        wg = w.reshape(group, m // group, -1).astype(dtype, copy=False)
        bias = (None, None)
        if b is not None:
            by_filter = b.astype(dtype, copy=False)
            by_row = by_filter
            if self.spacing(group, m) is not None:  # the grid's rows in the result's order
                by_row = np.empty_like(by_filter)
                by_row[np.asarray(self.order)] = by_filter
            bias = (by_row.reshape(m, 1), by_filter.reshape(group, m // group))
        dups = duplicate_filters(w, b, group)
        self._filters = (w, b, x.dtype, self.order, (wg, bias, dups))
        return self._filters[4]


def duplicate_filters(w, b, group) -> list:
    """The runs of filters that bit for bit repeat an earlier one of their group (bias
    included): [(group, slice of rows, slice of the one row)], rows within the group.
    Equal filters see the same input, so their channels are equal, but BLAS computes the
    rows of a tile in different orders and they can differ in the last bit; a channel
    that only repeats another is copied from it (a softmax over large tied logits, as in
    onnx's constant-weight light models, turns one ulp into a different answer)."""
    m = w.shape[0]
    mg = m // group
    if mg == 1:  # one filter per group (depthwise): nothing to repeat
        return []
    rows = w.reshape(m, -1)
    if b is not None:
        rows = np.concatenate([rows, b.reshape(m, 1).astype(rows.dtype)], axis=1)
    rows = np.ascontiguousarray(rows)
    keys = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).reshape(m)
    found = []
    for g in range(group):  # equal filters give equal channels only within a group
        lo = g * mg
        _, first, inverse = np.unique(keys[lo:lo + mg], return_index=True,
                                      return_inverse=True)
        earliest = [int(e) for e in first[inverse.reshape(-1)]]
        r = 0
        while r < mg:  # runs of rows repeating one: one broadcast copy each
            src, end = earliest[r], r + 1
            if src != r:
                while end < mg and earliest[end] == src:
                    end += 1
                found.append((g, slice(r, end), slice(src, src + 1)))
            r = end
    return found


