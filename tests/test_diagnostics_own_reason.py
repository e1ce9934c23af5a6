"""A node's own reason is the diagnostic where its rules also work a size back to its
input (place_order: a node sorts at its last input), and an empty output is a node's own
only by its own arithmetic (a 0 carried to it through equal axes is another's error)."""
import shape_logic


def _messages(graph) -> list[str]:
    return [d.message for d in shape_logic.solve(graph).diagnostics]


def test_space_to_depth_says_the_blocksize_does_not_divide():
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 2, 5, 6]"}},
         "nodes": [{"name": "s", "op": "SpaceToDepth", "inputs": ["x"], "outputs": ["y"],
                    "attrs": {"blocksize": 2}}]}
    assert _messages(g) == ['SpaceToDepth "s": blocksize 2 does not divide axis 2 of the '
                            'input, of size 5']


def test_split_says_the_axis_does_not_split_evenly():
    g = {"opset": 13, "inputs": {"x": {"dtype": "f32", "shape": "[7]"}},
         "nodes": [{"name": "s", "op": "Split", "inputs": ["x"], "outputs": ["a", "b"],
                    "attrs": {"axis": 0}}]}
    assert _messages(g) == ['Split "s": its axis of size 7 does not split into 2 equal pieces']


def test_a_zero_carried_to_a_convolution_is_not_its_empty_output():
    # x's height is 3: the convolution's own output is 3; the Concat with a declared 0-high
    # tensor makes it 0 by equal axes - the Concat's clash, not an empty convolution
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 1, 3, 3]"},
                    "w": {"dtype": "f32", "shape": "[1, 1, 3, 3]"},
                    "z": {"dtype": "f32", "shape": "[1, 1, 0, 3]"}},
         "nodes": [{"name": "conv", "op": "Conv", "inputs": ["x", "w"], "outputs": ["y"],
                    "attrs": {"pads": [1, 1, 1, 1]}},
                   {"name": "cat", "op": "Concat", "inputs": ["y", "z"], "outputs": ["s"],
                    "attrs": {"axis": 1}}]}
    (m,) = _messages(g)
    assert "empty" not in m and m.startswith('Concat "cat"'), m


def test_an_empty_convolution_of_its_own_is_said():
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 1, 2, 3]"},
                    "w": {"dtype": "f32", "shape": "[1, 1, 3, 3]"}},
         "nodes": [{"name": "conv", "op": "Conv", "inputs": ["x", "w"], "outputs": ["y"]}]}
    assert _messages(g) == ['Conv "conv": the output is empty along spatial axis 0 (from 0): '
                            'the dilated window is larger than the padded input']


def test_a_transposed_convolution_whose_pads_take_everything():
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 1, 1, 3]"},
                    "w": {"dtype": "f32", "shape": "[1, 1, 2, 2]"}},
         "nodes": [{"name": "t", "op": "ConvTranspose", "inputs": ["x", "w"], "outputs": ["y"],
                    "attrs": {"pads": [1, 0, 1, 0]}}]}
    assert _messages(g) == ['ConvTranspose "t": the output is empty along spatial axis 0 (from '
                            '0): its pads take all the transposed convolution makes']
