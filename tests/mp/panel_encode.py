# Panel.encode over seeded random frames and brightnesses for every board profile, printed as
# one sha256 per profile with the currents: the same lines on CPython (a Python loop) and on
# MicroPython (the native loop, and the Python loop with the native one switched off).
# usage: panel_encode.py PROFILES_DIR [python]
import sys
import hashlib
import binascii

from bghal import panel as panel_mod
from bghal import profile as profiles

if len(sys.argv) > 2 and sys.argv[2] == "python":
    panel_mod._native[:] = [None, None]
state = [12345]


def rnd(n):
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (state[0] >> 8) % n


print("native" if panel_mod._natives()[0] else "python")
for name in ("reference", "minimal"):
    prof = profiles.load(sys.argv[1] + "/" + name + ".json")
    p = panel_mod.Panel(prof)
    out = p.buffer()
    h = hashlib.sha256()
    currents = []
    for trial in range(12):
        frame = bytearray(p.count * 3)
        dense = trial % 3          # sparse, half and full frames (the current limit bites)
        for i in range(len(frame)):
            if dense == 2 or rnd(4) < dense + 1:
                frame[i] = rnd(256)
        currents.append(p.encode(frame, out, rnd(300) - 20))
        h.update(out)
    print(name, binascii.hexlify(h.digest()).decode(), currents)
