# Checking a play without a roll's whole play list (Position.plays_ending, notation's
# parse_play): for "POSITIONID D1 D2" lines from the file named in argv[1], every legal play's
# gnubg notation and .mat form read back as that play, and plays_ending gives exactly the plays of
# the whole list that end alike, in order. Prints the plays checked and a digest of every play's
# record (without its hash-bucket link), the same on CPython and MicroPython.
import sys
import binascii
import hashlib

from bgcore import Position

h = hashlib.sha256()
count = 0
with open(sys.argv[1]) as f:
    for line in f:
        pid, d1, d2 = line.split()
        d1 = int(d1)
        d2 = int(d2)
        pos = Position.from_id(pid)
        plays = pos.plays(d1, d2)
        ending, legal = pos.plays_ending(d1, d2, b"\xff" * 13)
        assert legal == (len(plays) > 0) and len(ending) == 0, line
        for i in range(len(plays)):
            c, o = plays._record(i)
            packed = bytes(c[o:o + 13])
            ending, legal = pos.plays_ending(d1, d2, packed)
            same = [p for p in plays if p._key()[:13] == packed]
            assert legal and len(ending) == len(same), line
            for j in range(len(same)):
                e, eo = ending._record(j)
                s, so = same[j]._rec()
                assert bytes(e[eo:eo + 25]) == bytes(s[so:so + 25]), line
            play = plays[i]
            assert pos.parse_play(str(play), d1, d2) == play, (line, str(play))
            mat = " ".join("%d/%d" % st for st in play.moves)
            assert pos.parse_play(mat, d2, d1) == play, (line, mat)
            h.update(bytes(c[o:o + 25]))
            count += 1
        if not plays:
            assert pos.parse_play("", d1, d2) is None
print(count, binascii.hexlify(h.digest()).decode())
