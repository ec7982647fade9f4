# tools/train_bot.py's rounded epochs (--quantized-epochs): the network the trainer measures in
# them is the one a board runs. A small network is trained on a few games' examples, its last
# epoch rounded, and written as the trainer writes botnet.py; bgcore.net, reading that file,
# then gives the equities the trainer's own forward pass gave for positions it never saw.
import importlib.util
import sys

import numpy as np

from bgboard import paths

sys.path.insert(0, str(paths.REPO / "tools"))
import train_bot  # noqa: E402


def test_the_rounded_network_the_trainer_measures_is_the_board_s(tmp_path):
    bnet = train_bot.bnet               # laid out for the committed network's input rows
    raw, tgt = train_bot.generate(40, 7)
    idx = train_bot.encode(raw)
    held = 2000
    model = train_bot.Model(32, 16, 7)
    train_bot.train(model, idx, tgt, 2, 7, 0.003, held=held, quantized=1)
    assert model.quantized
    out = tmp_path / "smallnet.py"
    train_bot.export(model, str(out), "a test's network")
    spec = importlib.util.spec_from_file_location("smallnet", out)
    weights = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(weights)
    net = bnet.Net(weights)
    theirs = model.forward(train_bot.dense(idx[-held:]))[1][:, 5]
    ours = []
    for r in raw[-held:]:
        acc = [0] * (net.h + 1)
        net.load(acc, bytes(r))
        ours.append(net.equity(acc) / bnet.S_OUT)
    diff = np.abs(np.array(ours) - theirs)
    # the same sums to a float32 rounding of the output, save where the second layer's
    # floored sum lands on its step's edge in float32 (one step of 1/128 of a unit)
    assert np.median(diff) < 1e-5
    assert np.mean(diff < 1e-4) > 0.99, "the board's network is not the one trained"
    model.quantized = False         # the float network is further off: rounding matters
    floats = model.forward(train_bot.dense(idx[-held:]))[1][:, 5]
    assert np.mean(np.abs(np.array(ours) - floats)) > 10 * np.mean(diff)
