"""TfIdfVectorizer: the n-gram counts, weights or both of each row over the pool of
n-grams (skips allowed up to max_skip_count). The n-gram search is onnx's reference
evaluator on a model of this one node (exact; it loops over the pool, as any
implementation of this operator does), made once per input type and rank."""
import numpy as np

from ..graph import dtype_of_array
from .base import Kernel

REQUIRED = ("max_gram_length", "max_skip_count", "min_gram_length", "mode", "ngram_counts",
            "ngram_indexes")


class TfIdfVectorizer(Kernel):
    attrs = {"max_gram_length": None, "max_skip_count": None, "min_gram_length": None,
             "mode": None, "ngram_counts": None, "ngram_indexes": None, "pool_int64s": None,
             "pool_strings": None, "weights": None}

    def setup(self, **attrs):
        missing = [k for k in REQUIRED if attrs[k] is None]
        if missing:
            raise self.fail(f"attributes {', '.join(missing)} are required")
        self._given = {k: v for k, v in attrs.items() if v is not None}
        self._evaluators = {}  # (input type, rank) -> ReferenceEvaluator

    def run(self, x, **attrs):
        x = np.asarray(x)
        if x.ndim not in (1, 2):
            raise self.fail(f"input {list(x.shape)} is neither [C] nor [N, C]")
        key = (dtype_of_array(x), x.ndim)
        if key not in self._evaluators:
            self._evaluators[key] = self._evaluator(x)
        (y,) = self._evaluators[key].run(None, {"x": x})
        return y.astype(np.float32)

    def _evaluator(self, x):
        from onnx import TensorProto, helper
        from onnx.reference import ReferenceEvaluator

        from ..onnx_import import DTYPE_TO_ONNX

        node = helper.make_node("TfIdfVectorizer", ["x"], ["y"], **self._given)
        graph = helper.make_graph(
            [node], "tfidf",
            [helper.make_tensor_value_info("x", DTYPE_TO_ONNX[dtype_of_array(x)], [None] * x.ndim)],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
        return ReferenceEvaluator(helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", max(9, self.opset))]))
