"""A write that fails on the board (its flash full in the middle of a game): the key is refused
with a message that says what happened and what to do, nothing on flash is lost or damaged, the
game stands where its record is, the board keeps answering, and once room is made the game goes
on. The virtual board's real littlefs image is filled with littlefs-python while the board is off,
as years of records would fill it."""

import shutil

from littlefs.errors import LittleFSError

from bgboard import vboard
from bgcore import Position
from bgcore.record import replay

from test_vboard import Client, VBoard, golden_image, key_for  # noqa: F401 (a fixture)


def fill(image, folder="/data/"):
    """Fill the image's free blocks with 4 KB files (FOLDER/fill-N.bin) until littlefs refuses
    one; returns their names."""
    fs = vboard.open_image(image)
    names = []
    while True:
        name = "fill-%d.bin" % len(names)
        try:
            with fs.open(folder + name, "wb") as f:
                f.write(bytes(4096))
        except LittleFSError:
            break
        names.append(name)
    vboard.save_image(fs, image)
    return names


def next_step(c):
    """(STATE, the keys of one legal checker step) for the side on roll, with OK until a roll."""
    for _ in range(20):
        st = c.wait_player()
        if st["phase"] == "move" and st.get("complete") != "1":
            pos = Position.from_id(st["pos"])
            plays = pos.plays(int(st["dice"][0]), int(st["dice"][1]))
            done = [] if st["steps"] == "-" else st["steps"].split(",")
            for p in plays:
                if ["%d/%d" % m for m in p.moves[:len(done)]] == done and len(p.moves) > len(done):
                    s, t = p.moves[len(done)]
                    turn = int(st["turn"])
                    keys = [key_for(q if turn == 0 or q in (0, 25) else 25 - q) for q in (s, t)]
                    return st, keys
        assert c.cmd("KEY OK").startswith("OK KEY"), st
    raise AssertionError("no checker step came")


def test_a_full_flash_refuses_the_key_and_loses_nothing(tmp_path, golden_image):
    img = tmp_path / "flash.img"
    shutil.copy(golden_image, img)
    board = VBoard(tmp_path, img)
    try:
        c = Client(board.link)
        c.hello()
        assert c.cmd("KEY P7") == "OK KEY P7"         # two players: only keys act
        assert c.cmd("KEY OK") == "OK KEY OK"         # a new single game
        c.cmd("FAST on")
        st, keys = next_step(c)
        for k in keys:
            assert c.cmd("KEY " + k) == "OK KEY " + k
        record = c.state()["record"]
    finally:
        board.stop()
    filler = fill(img)
    board = VBoard(tmp_path, img)
    try:
        c = Client(board.link)
        c.hello()
        c.cmd("WATCH on")
        c.cmd("FAST on")
        before, _, _ = c.get(record)
        # keys until the flash refuses one (the record's last block may take an event or two)
        for _ in range(40):
            st, keys = next_step(c)
            assert c.cmd("KEY " + keys[0]) == "OK KEY " + keys[0]     # a checker picked up
            answer = c.cmd("KEY " + keys[1])                          # and put down: a STEP
            if answer.startswith("NO KEY"):
                break
            assert answer == "OK KEY " + keys[1]
        else:
            raise AssertionError("the full flash never refused a write")
        assert "flash full" in answer and "bgboard logs pull --delete" in answer, answer
        assert any(e.startswith("!NO flash full") for e in c.events), c.events[-5:]
        # the game stands where its record is; the record is whole, nothing before it lost
        after = c.state()
        data, _, _ = c.get(record)
        assert data.startswith(before)
        rep, info, torn = replay(data.decode(), history=False)
        assert torn is None
        assert (rep.match.pos.id(), rep.match.match_id()) == (after["pos"], after["match"])
        assert (",".join("%d/%d" % m for m in rep.steps) or "-") == after["steps"]
        assert after["steps"] == st["steps"] and after["pos"] == st["pos"]
        # the board still answers, and once room is made the same key goes through
        assert c.cmd("HELLO").startswith("HELLO bgboard")
        for name in filler[:4]:                 # 16 KB of room, as a pull --delete makes
            assert c.cmd("DEL " + name) == "OK DEL " + name
        st, keys = next_step(c)
        for k in keys:
            assert c.cmd("KEY " + k) == "OK KEY " + k
        now = c.state()
        assert now["steps"] != after["steps"] or now["pos"] != after["pos"]
        data2, _, _ = c.get(record)
        assert data2.startswith(data) and len(data2) > len(data)
        replay(data2.decode(), history=False)
    finally:
        board.stop()


def test_a_flash_full_before_the_first_game_boots_and_a_setting_it_cannot_save_stays_in_use(
        tmp_path, golden_image):
    """Found by the soak's reading of the main loop: a fault after a key's work (its frame, the
    setting's write) stopped the application at MicroPython's prompt, where the board answered
    nothing of its protocol again until a power cut. A flash filled before any record (no
    records' folder yet) stopped the board at boot the same way."""
    img = tmp_path / "flash.img"
    shutil.copy(golden_image, img)
    assert fill(img, "/")
    board = VBoard(tmp_path, img)
    try:
        c = Client(board.link)
        c.hello()
        st = c.state()
        assert st["view"] == "menu" and c.free == 0, (st, c.free)
        c.cmd("WATCH on")
        before = st["settings"]
        assert c.cmd("KEY P7") == "OK KEY P7"           # two players: a setting to write
        assert c.cmd("HELLO").startswith("HELLO bgboard")   # the board still answers
        assert "!NO settings not saved: flash full; pull the records (bgboard logs pull " \
            "--delete)" in c.events, c.events
        after = c.state()
        assert after["view"] == "menu" and after["settings"] != before, (before, after)
    finally:
        board.stop()
