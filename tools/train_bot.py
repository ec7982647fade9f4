#!/usr/bin/env python3
# Trains the bot's network and writes firmware/lib/bgcore/botnet.py.
#
# Supervised on GNU Backgammon's 0-ply evaluations (gnubg-nn 1.1.0a11): positions come from games
# played by gnubg 0-ply (with some exploration) and pubeval; for each roll, several of the plays
# gnubg scored (its best ones and a few others) become examples, labelled with gnubg's five
# probabilities and cubeless equity for the side that moved. A numpy network (two clipped-ReLU
# layers over bgcore.net's one-hot rows, Adam) learns them; it is then rounded to integers
# exactly as bgcore.net evaluates it.
# Everything is seeded (the games, the examples kept, the starting weights, the batches), BLAS
# runs on one thread (several may split a sum differently from run to run) and numpy is the
# version pyproject.toml pins: two runs of the same command write the same file, byte for byte
# (the defaults write the committed botnet.py; --race and --dance-readout the committed
# racenet.py and dancenet.py).
#
#   .venv/bin/python tools/train_bot.py                 # the network (64+16 units), with contact
#                                                       # inputs, on 60,000 games' examples (the
#                                                       # games about 15 min on this 2-core
#                                                       # machine, the training about 15; 4.6 GB
#                                                       # of memory)
#   .venv/bin/python tools/train_bot.py --games 2000 --epochs 2 --out /tmp/botnet.py   # a quick try
#   .venv/bin/python tools/train_bot.py --epochs 18 --quantized-epochs 2 --out /tmp/botnet.py
#                                                       # the last two epochs run the network
#                                                       # rounded as a board holds it (measured:
#                                                       # no better than rounding once; README)
#   .venv/bin/python tools/train_bot.py --dance-readout    # bgcore/dancenet.py for the weights in
#                                                        # botnet.py (dance positions: below)
#   .venv/bin/python tools/train_bot.py --race          # bgcore/racenet.py: the race network, on the
#                                                       # race positions (no more contact) of the
#                                                       # same examples (2 min once cached), its
#                                                       # contact rows' weights zero
# Examples are cached in .cache/ (the games take longest), so a second run with other network
# sizes starts training at once.

import argparse
import os
import sys
import time

os.environ["OPENBLAS_NUM_THREADS"] = "1"        # before numpy loads its BLAS: one order of sums
import numpy as np                              # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "firmware", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "host"))

from bgcore import net as bnet          # noqa: E402  (the feature rows are defined there)
from bgboard import paths, refplay      # noqa: E402

def raw_of(after):
    """Our 52-byte layout of a gnubg board [mover, opponent] (the mover has just moved)."""
    raw = bytearray(52)
    for side in (0, 1):
        s = after[side]
        base = 26 * side
        raw[base + 1:base + 26] = bytes(s)
        raw[base] = 15 - sum(s)
    return raw


def generate(games, seed, keep_top=4, keep_other=4, dances=False):
    rng = np.random.RandomState(seed)
    raws = []
    tgt = []
    for board, d1, d2, scored in refplay.decisions(games, seed, dances=dances):
        if scored is None:
            # the mover danced and is still on the bar: gnubg's chances of the side on roll,
            # turned to the mover's (the network never saw such positions otherwise)
            w, wg, wb, lg, lb = refplay.gnubg_nn.probabilities(board, 0)
            probs = (1.0 - w, lg, lb, wg, wb)
            equity = 2 * probs[0] - 1 + probs[1] + probs[2] - probs[3] - probs[4]
            raws.append(bytes(raw_of(board)))
            tgt.append(list(probs) + [equity])
            continue
        chosen = list(range(min(keep_top, len(scored))))
        rest = len(scored) - len(chosen)
        if rest > 0:
            extra = rng.choice(rest, size=min(keep_other, rest), replace=False)
            chosen += [len(chosen) + int(e) for e in sorted(extra)]
        for i in chosen:
            after, equity, probs = scored[i]
            raws.append(bytes(raw_of(after)))
            tgt.append(list(probs) + [equity])
    return np.frombuffer(b"".join(raws), dtype=np.uint8).reshape(-1, 52), np.array(tgt, np.float32)


def dataset(games, seed, cache, dances=False):
    path = os.path.join(cache, "botdata-%d-%d%s.npz" % (games, seed, "-dances" if dances else ""))
    if os.path.exists(path):
        d = np.load(path)
        return d["raw"], d["tgt"]
    t = time.time()
    raw, tgt = generate(games, seed, dances=dances)
    os.makedirs(cache, exist_ok=True)
    np.savez(path, raw=raw, tgt=tgt)
    print("generated %d examples from %d games in %.0f s" % (len(raw), games, time.time() - t))
    return raw, tgt


def encode(raw, chunk=1 << 20):
    """Input rows of many positions at once (N x 52, an always-zero row where a place is
    empty), the same rows bgcore.net.rows gives one position. A chunk of positions at a time:
    the int32 and int64 work arrays of all 18 million examples at once took 21.6 GB."""
    out = np.empty((0, 0), np.uint16)
    for s in range(0, len(raw), chunk):
        part = _encode(raw[s:s + chunk])
        if not s:
            out = np.empty((len(raw), part.shape[1]), np.uint16)
        out[s:s + len(part)] = part
    return out


def _encode(raw):
    L = bnet.LEVELS
    n = raw.astype(np.int32)
    idx = np.empty_like(n)
    for side in (0, 1):
        b = 26 * side
        idx[:, b] = bnet.row(side, 0, 1) + np.minimum(n[:, b], 15) - 1
        pts = n[:, b + 1:b + 25]
        idx[:, b + 1:b + 25] = ((side * 24 + np.arange(24)) * L)[None, :] + np.minimum(pts, L) - 1
        idx[:, b + 25] = bnet.row(side, 25, 1) + np.minimum(n[:, b + 25], 4) - 1
    idx[n == 0] = bnet.ROWS
    if bnet.SHOTS:
        idx = np.concatenate([idx, shot_rows(n)[:, None]], axis=1)
    if bnet.CONTACT:
        idx = np.concatenate([idx, contact_rows(n)], axis=1)
    return idx.astype(np.uint16)


_ESCAPES = np.array([bnet.escapes(b) for b in range(4096)], np.int64)


def _made_back(n, base):
    # (points held by two or more as bits, the back checker's point) of the side at `base`
    made = np.zeros(len(n), np.int64)
    back = np.zeros(len(n), np.int64)
    for p in range(1, 26):
        v = n[:, base + p]
        if p < 25:
            made |= (v > 1).astype(np.int64) << p
        back = np.where(v > 0, p, back)
    return made, back


def _prime(made):
    run = np.zeros(len(made), np.int64)
    m = made.copy()
    while m.any():
        run += m != 0
        m &= m >> 1
    return run


def contact_rows(n):
    """bgcore.net's contact rows of each position (N x 52 counts; N x 4, ROWS where none)."""
    mine, back = _made_back(n, 0)
    them, tback = _made_back(n, 26)
    e1 = np.where(tback > 0, _ESCAPES[(mine >> (26 - np.maximum(tback, 1))) & 0xFFF], 36)
    e2 = np.where(back > 0, _ESCAPES[(them >> (26 - np.maximum(back, 1))) & 0xFFF], 36)
    out = np.full((len(n), 4), bnet.ROWS, np.int64)
    out[:, 0] = bnet._ESC_ROW + (e1 >> 2)
    out[:, 1] = bnet._ESC_ROW + 10 + (e2 >> 2)
    for col, made, base in ((2, mine, 18), (3, them, 23)):
        k = _prime(made)
        out[:, col] = np.where(k > 1, bnet._ESC_ROW + base + np.minimum(k, 6), bnet.ROWS)
    return out


def shot_rows(n):
    """bgcore.net's shot row of each position (N x 52 counts), ROWS where no roll hits."""
    blots = np.zeros(len(n), np.int64)
    them = np.zeros(len(n), np.int64)
    for p in range(1, 25):
        blots |= (n[:, p] == 1).astype(np.int64) << p
        them |= (n[:, 26 + p] > 0).astype(np.int64) << p
    them |= (n[:, 51] > 0).astype(np.int64) << 25
    d = np.zeros(len(n), np.int64)
    for p in range(1, 25):
        d |= np.where((blots >> p) & 1, them >> (25 - p), 0)
    count = np.zeros(len(n), np.int64)
    for mask, weight in bnet._ROLLS:
        count += weight * ((d & mask) != 0)
    rows = bnet._SHOT_ROW + (count - 1) // 4
    return np.where(count > 0, rows, bnet.ROWS)


def _check_encoding(raw):
    idx = encode(raw[:2000])
    for r, i in zip(raw[:2000], idx):
        assert sorted(bnet.rows(bytes(r))) == sorted(int(x) for x in i if x != bnet.ROWS)


def race_mask(raw, chunk=1 << 20):
    """Which positions (N x 52) are races, as bgcore.net.race says: each side's rearmost
    checker (the bar counts as 25) past the other's (a chunk of positions at a time)."""
    places = np.arange(1, 26)
    out = np.empty(len(raw), bool)
    for s in range(0, len(raw), chunk):
        part = raw[s:s + chunk]
        back = [np.max(np.where(part[:, b + 1:b + 26] > 0, places, 0), axis=1) for b in (0, 26)]
        out[s:s + len(part)] = back[0] + back[1] <= 25
    return out


def _check_race(raw):
    for r, k in zip(raw[:5000], race_mask(raw[:5000])):
        assert bnet.race(bytes(r)) == bool(k)


def dense(idx):
    x = np.zeros((len(idx), bnet.ROWS + 1), dtype=np.float32)
    np.put_along_axis(x, idx.astype(np.int64), 1.0, axis=1)
    x[:, bnet.ROWS] = 0.0
    return x


WMAX = 127.0 / 128.0


class Model:
    """inputs -> hidden (clipped ReLU) [-> hidden2 (clipped ReLU)] -> 5 probability logits and a
    linear cubeless equity."""

    def __init__(self, hidden, hidden2, seed):
        r = np.random.RandomState(seed)
        self.w1 = (r.randn(bnet.ROWS + 1, hidden) * 0.08).astype(np.float32)
        self.w1[bnet.ROWS] = 0
        self.b1 = np.full(hidden, 0.3, dtype=np.float32)
        self.params = [self.w1, self.b1]
        last = hidden
        if hidden2:
            self.w2 = (r.randn(hidden, hidden2) * np.sqrt(1.0 / hidden)).astype(np.float32)
            self.b2 = np.full(hidden2, 0.2, dtype=np.float32)
            self.params += [self.w2, self.b2]
            last = hidden2
        self.hidden2 = hidden2
        self.wo = (r.randn(last, 6) * 0.1).astype(np.float32)
        self.bo = np.zeros(6, dtype=np.float32)
        self.params += [self.wo, self.bo]
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0
        self.quantized = False

    def weights(self):
        """(w1, b1, w2, b2, wo, bo) as the forward pass uses them: the trained floats, or, once
        `quantized` is set, rounded to the steps bgcore.net stores them in (export's)."""
        w = [self.w1, self.b1, getattr(self, "w2", None), getattr(self, "b2", None),
             self.wo, self.bo]
        if not self.quantized:
            return w
        w_step = bnet.S_OUT // bnet.S1          # W2's and WO's (256: export's)
        steps = (bnet.S1, bnet.S1, w_step, bnet.S_OUT, w_step, bnet.S_OUT)
        return [None if a is None else np.round(a * s) / s for a, s in zip(w, steps)]

    def forward(self, x, w=None):
        w1, b1, w2, b2, wo, bo = w or self.weights()
        pre1 = x @ w1 + b1
        h1 = np.clip(pre1, 0.0, 1.0)
        if not self.hidden2:
            return (pre1, h1), h1 @ wo + bo
        pre2 = h1 @ w2 + b2
        if self.quantized:      # bgcore.net's layer-2 sum is floored to a step of 1 / S1
            pre2 = np.floor(pre2 * bnet.S1 + 1e-4) / bnet.S1
        h2 = np.clip(pre2, 0.0, 1.0)
        return (pre1, h1, pre2, h2), h2 @ wo + bo

    def step(self, x, y, lr, eq_weight):
        w = self.weights()          # rounded ones pass their gradient on to the floats as it is
        cache, out = self.forward(x, w)
        n = len(x)
        p = 1.0 / (1.0 + np.exp(-out[:, :5]))
        d = np.empty_like(out)
        d[:, :5] = (p - y[:, :5]) / n                       # cross-entropy on the probabilities
        d[:, 5] = eq_weight * 2.0 * (out[:, 5] - y[:, 5]) / n
        last = cache[-1]
        grads = [last.T @ d, d.sum(0)]
        dh = d @ w[4].T
        if self.hidden2:
            pre1, h1, pre2, h2 = cache
            dh = dh * ((pre2 > 0.0) & (pre2 < 1.0))
            grads = [h1.T @ dh, dh.sum(0)] + grads
            dh = dh @ w[2].T
        else:
            pre1, h1 = cache
        dh = dh * ((pre1 > 0.0) & (pre1 < 1.0))
        grads = [x.T @ dh, dh.sum(0)] + grads
        self.t += 1
        for i, (prm, g) in enumerate(zip(self.params, grads)):
            self.m[i] = 0.9 * self.m[i] + 0.1 * g
            self.v[i] = 0.999 * self.v[i] + 0.001 * g * g
            mh = self.m[i] / (1 - 0.9 ** self.t)
            vh = self.v[i] / (1 - 0.999 ** self.t)
            prm -= lr * mh / (np.sqrt(vh) + 1e-8)
        np.clip(self.w1, -WMAX, WMAX, out=self.w1)
        self.w1[bnet.ROWS] = 0
        if self.hidden2:
            np.clip(self.w2, -127.0, 127.0, out=self.w2)
        np.clip(self.wo, -127.0, 127.0, out=self.wo)


HELD = 100000      # the last examples only measure (the main network's; a race network's: the
                   # races among them)


def train(model, idx, tgt, epochs, seed, lr, batch=2048, eq_weight=1.0, held=HELD, quantized=0):
    """`quantized`: the last epochs run the network as a board does (Model.weights)."""
    r = np.random.RandomState(seed)
    n = len(idx) - held                 # the last `held` examples only measure
    for ep in range(epochs):
        t = time.time()
        if ep == epochs - quantized:
            print("rounded as a board holds them: equity RMSE %.4f -> " % equity_rmse(
                model, idx[n:], tgt[n:]), end="")
            model.quantized = True
            print("%.4f" % equity_rmse(model, idx[n:], tgt[n:]), flush=True)
        order = r.permutation(n)
        rate = lr * (0.5 ** (ep * 4.0 / max(1, epochs)))
        for s in range(0, n, batch):
            b = order[s:s + batch]
            model.step(dense(idx[b]), tgt[b], rate, eq_weight)
        err = equity_rmse(model, idx[n:], tgt[n:])
        print("epoch %d: lr %.5f, equity RMSE %.4f on %d held-out examples, %.0f s"
              % (ep + 1, rate, err, len(idx) - n, time.time() - t), flush=True)


def equity_rmse(model, idx, tgt):
    out = np.concatenate([model.forward(dense(idx[s:s + 8192]))[1]
                          for s in range(0, len(idx), 8192)])
    return float(np.sqrt(np.mean((out[:, 5] - tgt[:, 5]) ** 2)))


def _literal(data):
    # a bytes literal, 76 bytes a line
    lines = []
    for i in range(0, len(data), 76):
        lines.append("    %r" % bytes(data[i:i + 76]))
    return "(\n" + "\n".join(lines) + "\n)"


def _i16(a):
    return np.clip(np.round(a), -32768, 32767).astype("<i2")


def export(model, path, note, race=False):
    """Write the weights as bgcore.net reads them; returns their size in bytes."""
    h = model.w1.shape[1]
    parts = {
        "W1": (np.clip(np.round(model.w1[:bnet.ROWS] * bnet.S1), -127, 127) + 128).astype(np.uint8),
        "B1": _i16(model.b1 * bnet.S1),
        "WO": _i16(model.wo.T * 256),                                 # output-major
        "BO": np.round(model.bo * bnet.S_OUT).astype("<i4"),
        "SIGMOID": _i16(np.minimum(32767, 32768 / (1 + np.exp(-np.arange(-64, 65) / 8.0)))),
    }
    if model.hidden2:
        parts["W2"] = _i16(model.w2.T * 256)                          # hidden2-major
        parts["B2"] = np.round(model.b2 * bnet.S_OUT).astype("<i4")
    text = ["# The bot's %s weights, written by tools/train_bot.py%s: do not edit."
            % (("race network's", " --race") if race else ("network", "")),
            "# " + note,
            "# W1: %d input rows x HIDDEN, a byte each (weight * %d + 128); B1 int16 (* %d);"
            % (bnet.ROWS, bnet.S1, bnet.S1),
            "# W2 (HIDDEN2 x HIDDEN, * 256) and B2 (int32, * 32768) when HIDDEN2 is not 0;",
            "# WO (6 outputs x the last layer, * 256), BO (int32, * 32768), SIGMOID int16.",
            "HIDDEN = %d" % h,
            "HIDDEN2 = %d" % model.hidden2,
            "LEVELS = %d" % bnet.LEVELS,
            "SHOTS = %d" % bnet.SHOTS,
            "CONTACT = %d" % bnet.CONTACT]
    size = 0
    for name, arr in parts.items():
        data = arr.tobytes()
        size += len(data)
        text.append("%s = %s" % (name, _literal(data)))
    with open(path, "w") as f:
        f.write("\n".join(text) + "\n")
    return size


# ---- the readout for positions after a dance (bgcore.dancenet) ---------------------------------
# A mover still on the bar (it danced) is a position the network hardly saw: bgcore.bot reads the
# chances of the side on roll there from the hidden layers of both views of the position (the side
# on roll as the mover, the opponent as the mover) by five logistic readouts, fitted here to
# gnubg-nn 0-ply on the dance positions of gnubg's and pubeval's play (refplay.decisions).
DANCE_GAMES = 6000


def dance_positions(games, seed):
    raws, tgt = [], []
    for board, _d1, _d2, scored in refplay.decisions(games, seed, dances=True):
        if scored is None:                  # board = [the side that danced, the side on roll]
            raws.append(bytes(raw_of(board[::-1])))
            tgt.append(refplay.gnubg_nn.probabilities(board, 0))
    return raws, np.array(tgt)


def dance_features(net, raw):
    """The readout's inputs (as bgcore.bot computes them), in the network's units: the last
    hidden layer of view A (the side on roll as the mover) and of view B (the opponent as the
    mover), the first hidden layer of A and of B, then A's five output sums (1/S_OUT)."""
    acc = net.new_acc()
    net.load(acc, raw)
    top_a = list(net._top(acc))
    h1_a = list(net._h1)
    outs = [net._output(top_a, k) for k in range(5)]
    net.load(acc, raw[26:] + raw[:26])
    top_b = list(net._top(acc))
    h1_b = list(net._h1)
    return top_a + top_b + h1_a + h1_b, outs


def fit_readout(feats, outs, tgt, lam=1.0):
    """Five logistic regressions (Newton steps, L2 on the hidden-unit weights): per output k,
    logit = sum_j w_kj f_j / S1 + a_k * out_k / S_OUT + b_k."""
    x = np.asarray(feats, np.float64) / bnet.S1
    o = np.asarray(outs, np.float64) / bnet.S_OUT
    coefs = []
    for k in range(5):
        d = np.hstack([x, o[:, k:k + 1], np.ones((len(x), 1))])
        t = tgt[:, k]
        c = np.zeros(d.shape[1])
        c[-2] = 1.0
        reg = lam * np.eye(len(c))
        reg[-1, -1] = reg[-2, -2] = 0
        for _ in range(25):
            p = 1 / (1 + np.exp(-(d @ c)))
            hess = (d * (p * (1 - p) + 1e-6)[:, None]).T @ d + reg
            c -= np.linalg.solve(hess, d.T @ (p - t) + reg @ c)
        coefs.append(c)
    return np.array(coefs)


def export_readout(coefs, path, note):
    n = coefs.shape[1] - 2
    w = _i16(coefs[:, :n] * 256)                     # * 256: a feature (0..S1) times w is 1/S_OUT
    a = _i16(coefs[:, n] * 1024)
    b = np.round(coefs[:, n + 1] * bnet.S_OUT).astype("<i4")
    with open(path, "w") as f:
        f.write("# The readout of the chances after a dance (bgcore.bot), written by "
                "tools/train_bot.py --dance-readout\n# for the weights in botnet.py: do not "
                "edit. %s\n# W: 5 outputs x %d inputs, int16 (* 256); A: int16 (* 1024); "
                "B: int32 (* 32768).\nINPUTS = %d\nW = %s\nA = %s\nB = %s\n"
                % (note, n, n, _literal(w.tobytes()), _literal(a.tobytes()),
                   _literal(b.tobytes())))
    return w.nbytes + a.nbytes + b.nbytes


def dance_readout(games, seed, cache, out):
    t0 = time.time()
    path = os.path.join(cache, "dances-%d-%d.npz" % (games, seed))
    if os.path.exists(path):
        d = np.load(path)
        raws, tgt = [bytes(r) for r in d["raw"]], d["tgt"]
    else:
        raws, tgt = dance_positions(games, seed)
        os.makedirs(cache, exist_ok=True)
        np.savez(path, raw=np.frombuffer(b"".join(raws), np.uint8).reshape(-1, 52), tgt=tgt)
    net = bnet.Net()
    feats, outs = zip(*[dance_features(net, r) for r in raws])
    coefs = fit_readout(feats, outs, tgt)
    note = ("Fitted on %d dance positions from %d games (seed %d), numpy %s."
            % (len(raws), games, seed, np.__version__))
    size = export_readout(coefs, out, note)
    print(note[:-1] + ", in %.0f s." % (time.time() - t0))
    print("wrote %s: %d bytes" % (out, size))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=64,
                    help="first hidden layer (a race network must have the main one's shape)")
    ap.add_argument("--hidden2", type=int, default=16, help="second hidden layer (0: none)")
    ap.add_argument("--levels", type=int, default=6, help="count levels per point")
    ap.add_argument("--shots", type=int, default=1, help="1: inputs for the rolls that hit a blot")
    ap.add_argument("--contact", type=int, default=1,
                    help="1: inputs for each side's back checker's escapes and longest prime "
                    "(a race network's weights for them are zero)")
    ap.add_argument("--epochs", type=int, help="passes over the examples (default 16; 24 with "
                    "--race)")
    ap.add_argument("--dances", action="store_true",
                    help="also learn the positions after a dance (the mover still on the bar)")
    ap.add_argument("--dance-readout", action="store_true",
                    help="only fit bgcore/dancenet.py (the chances after a dance) for the "
                    "weights in botnet.py, on the dance positions of --games games (default %d)"
                    % DANCE_GAMES)
    ap.add_argument("--race", action="store_true",
                    help="train the network for races (bgcore/racenet.py) on the race positions "
                    "of the same examples")
    ap.add_argument("--more-seeds", default="",
                    help="also the examples of --games games of each of these seeds (comma "
                    "separated), put before --seed's so that its tail stays the held-out part")
    ap.add_argument("--lr", type=float, default=0.003)
    ap.add_argument("--quantized-epochs", type=int, default=0,
                    help="the last epochs train the weights as rounded for the board")
    ap.add_argument("--cache", default=str(paths.REPO / ".cache"))
    ap.add_argument("--out", default=str(paths.FIRMWARE_LIB / "bgcore" / "botnet.py"))
    a = ap.parse_args(argv)
    if a.dance_readout:
        out = a.out if a.out != ap.get_default("out") else str(
            paths.FIRMWARE_LIB / "bgcore" / "dancenet.py")
        dance_readout(a.games or DANCE_GAMES, a.seed, a.cache, out)
        return
    a.games = a.games or 60000
    a.epochs = a.epochs or (24 if a.race else 16)
    if a.race and a.out == ap.get_default("out"):
        a.out = str(paths.FIRMWARE_LIB / "bgcore" / "racenet.py")
    t0 = time.time()
    # a race network learns no contact rows (in a race every back checker escapes with all 36
    # rolls and no prime holds one): it is trained without them and gets them as zero weights
    bnet.configure(a.levels, a.shots, 0 if a.race else a.contact)
    more = [int(s) for s in a.more_seeds.split(",") if s.strip()]
    parts = [dataset(a.games, s, a.cache, a.dances) for s in more + [a.seed]]
    raw = np.concatenate([p[0] for p in parts]) if more else parts[0][0]
    tgt = np.concatenate([p[1] for p in parts]) if more else parts[0][1]
    del parts
    _check_encoding(raw)
    held = HELD
    if a.race:                  # the race positions, those of the held-out tail held out
        _check_race(raw)
        keep = race_mask(raw)
        held = int(keep[-HELD:].sum())
        raw, tgt = raw[keep], tgt[keep]
    idx = encode(raw)
    del raw
    print("%d %sexamples" % (len(idx), "race " if a.race else ""), flush=True)
    model = Model(a.hidden, a.hidden2, a.seed)
    train(model, idx, tgt, a.epochs, a.seed, a.lr, held=held, quantized=a.quantized_epochs)
    if a.race and a.contact:        # the main network's layout, the contact rows' weights zero
        n = bnet.ROWS
        bnet.configure(a.levels, a.shots, a.contact)
        model.w1 = np.concatenate([model.w1[:n], np.zeros((bnet.ROWS - n, a.hidden), np.float32),
                                   model.w1[n:]])
    note = ("trained on %d %sexamples from %d games (seed%s %s%s), %d levels%s, %d+%d hidden, %d "
            "epochs, numpy %s" % (len(idx), "race " if a.race else "", a.games * (1 + len(more)),
                                 "s" if more else "", ", ".join(str(s) for s in more + [a.seed]),
                                 ", dances" if a.dances else "", a.levels,
                                 ", contact inputs" + (" (zero)" if a.race else "")
                                 if a.contact else "", a.hidden, a.hidden2, a.epochs,
                                 np.__version__))
    size = export(model, a.out, note, a.race)
    print(note + ", in %.0f s" % (time.time() - t0))
    print("wrote %s: %d bytes of weights" % (a.out, size))


if __name__ == "__main__":
    main()
