"""scikit-learn models as users get them in ONNX (skl2onnx, ai.onnx.ml operators): every
tensor's shape solved with a symbolic batch, and the executor's outputs against
onnxruntime's. Skipped without skl2onnx (the `bench` extra)."""
import warnings

import numpy as np
import pytest

pytest.importorskip("skl2onnx")
ort = pytest.importorskip("onnxruntime")

import shape_logic  # noqa: E402
from shape_logic.executor import Program  # noqa: E402


def _models():
    from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
    from sklearn.linear_model import LinearRegression, LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import Normalizer, StandardScaler
    from sklearn.svm import SVC, SVR

    rng = np.random.default_rng(0)
    x = rng.standard_normal((60, 4)).astype(np.float32)
    two = (x[:, 0] > 0).astype(np.int64)
    three = np.digitize(x[:, 1], [-0.5, 0.5])
    words = np.array(["cat", "dog", "eel"])[three]
    return x, {
        # name: (estimator, target, classes: its scores' width, or None for a regressor)
        "logistic regression, two classes": (LogisticRegression(), two, 2),
        "logistic regression, three": (LogisticRegression(), three, 3),
        "random forest, two classes": (
            RandomForestClassifier(n_estimators=4, max_depth=3, random_state=0), two, 2),
        "random forest, string labels": (
            RandomForestClassifier(n_estimators=3, max_depth=4, random_state=0), words, 3),
        "SVR": (SVR(), x[:, 2], None),
        "SVC with probabilities": (SVC(probability=True, random_state=0), three, 3),
        "random forest regressor": (
            RandomForestRegressor(n_estimators=3, max_depth=3, random_state=0), x[:, 1], None),
        "scaled linear regression": (make_pipeline(StandardScaler(), LinearRegression()),
                                     x[:, 3], None),
        "normalized logistic regression": (make_pipeline(Normalizer(), LogisticRegression()),
                                           three, 3),
    }


X, MODELS = _models()


def _convert(estimator, target):
    from skl2onnx import to_onnx

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        estimator.fit(X, target)
        final = estimator.steps[-1][1] if hasattr(estimator, "steps") else estimator
        options = {id(final): {"zipmap": False}} if hasattr(final, "predict_proba") else None
        return to_onnx(estimator, X[:1], options=options)


@pytest.mark.parametrize("name", MODELS)
def test_solved_and_run_as_onnxruntime(name):
    estimator, target, classes = MODELS[name]
    model = _convert(estimator, target)
    sol = shape_logic.solve(model)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    batch = sol.dims("X")[0]  # the unnamed batch: a symbol
    assert sol.shape("X") == f"[{batch}, 4]"
    for t in sol.graph.tensors():
        dims = sol.dims(t)
        assert dims is not None and sol.dtype(t) is not None, t
        assert str(dims[0]) == str(batch), (t, sol.shape(t))  # every tensor: one row per row
    outputs = [o.name for o in model.graph.output]
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for n in (1, 7):
        x = X[:n]
        want = dict(zip(outputs, session.run(None, {"X": x})))
        got = Program(model).run({"X": x})
        for out in outputs:
            w, g = want[out], got[out]
            assert g.shape == w.shape, (out, g.shape, w.shape)
            if w.dtype.kind in "OU":
                assert g.tolist() == w.tolist(), out
            elif w.dtype.kind in "iu":
                np.testing.assert_array_equal(g, w, err_msg=out)
            else:
                np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5, err_msg=out)
    # the scores (or predictions) of every row: [batch, classes] or [batch, 1]
    last = outputs[-1]
    want_width = classes if classes is not None else 1
    assert sol.shape(last) == f"[{batch}, {want_width}]", sol.shape(last)
