#!/usr/bin/env python3
# Writes firmware/lib/bgcore/met.py, the match equity table the bot's match-play cube decisions
# use, from GNU Backgammon's copy of the Kazaross-XG2 table (Debian's gnubg installs it under
# /usr/share/gnubg/met/). Values are stored in units of 1/10000 as little-endian uint16.
#
#   .venv/bin/python tools/make_met.py [--met FILE] [--out FILE]

import argparse
import os
import struct
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))


def read(path):
    root = ET.parse(path).getroot()
    name = root.find("info/name").text.strip()
    pre = [[float(e.text) for e in row.findall("me")]
           for row in root.find("pre-crawford-table").findall("row")]
    post = [float(e.text) for e in root.find("post-crawford-table").find("row").findall("me")]
    n = len(pre)
    if any(len(r) != n for r in pre) or len(post) != n:
        raise SystemExit("%s: the tables are not %d x %d" % (path, n, n))
    return name, pre, post


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--met", default="/usr/share/gnubg/met/Kazaross-XG2.xml")
    ap.add_argument("--out", default=os.path.join(HERE, "..", "firmware", "lib", "bgcore", "met.py"))
    a = ap.parse_args()
    name, pre, post = read(a.met)
    n = len(pre)
    units = lambda v: int(round(v * 10000))
    pre_b = b"".join(struct.pack("<H", units(v)) for row in pre for v in row)
    post_b = b"".join(struct.pack("<H", units(v)) for v in post)
    with open(a.out, "w") as f:
        f.write("# Match equity table (%s), written by tools/make_met.py from GNU Backgammon's\n"
                "# copy: do not edit. PRE[(i - 1) * SIZE + (j - 1)] is the chance, in 1/10000, that a\n"
                "# player i away wins against one j away before the Crawford game is over; POST[j - 1]\n"
                "# that of a player j away against one 1 away after it. Little-endian uint16.\n"
                % name)
        f.write("SIZE = %d\n" % n)
        f.write("PRE = %r\n" % pre_b)
        f.write("POST = %r\n" % post_b)
    print("wrote %s (%d x %d)" % (a.out, n, n))


if __name__ == "__main__":
    main()
