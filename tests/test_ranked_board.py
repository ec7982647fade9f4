"""Ranked games on the virtual board (real MicroPython over its pty, pyserial, `KEY` with FAST
on): the TICKETS request that stores server tickets; a ranked game played to a win (the person's
side played by the level-6 bot from the laptop), the name and country keyed in, the record
pulled and verified with `verify --ranked`; a hint, a level change and real dice unrank after a
confirmation; power cuts in a ranked game and in the name entry; a game that takes a ticket."""

import hashlib
import json
import re
import subprocess
import sys

from bgcore import Position
from bgcore import ranked as rk
from bgcore.bot import Bot
from bgboard.ranked import verify_ranked
from conftest import ROOT
from test_vboard import ANSWER, Client, board, golden_image, key_for  # noqa: F401  (fixtures)


def test_tickets_are_asked_for_added_and_kept_across_a_power_cut(board):  # noqa: F811
    c = Client(board.link)
    c.hello()
    board_id = c.cmd("HELLO").split("board=")[1].split()[0]
    assert c.cmd("TICKETS") == "TICKETS ready=0 asked=0 board=%s" % board_id
    assert c.cmd("TICKETS ASK 3") == "TICKETS ASK 3"
    nonces = [c.reply().split() for _ in range(3)]
    assert [n[0] for n in nonces] == ["NONCE"] * 3
    assert len({n[1] for n in nonces}) == 3 and len({n[2] for n in nonces}) == 3
    assert all(re.fullmatch("[0-9a-f]{64}", n[2]) for n in nonces)
    slot = nonces[1][1]
    secret = hashlib.sha256(b"server").hexdigest()[:32]
    assert c.cmd("TICKETS ADD %s T-0001 %s" % (slot, secret)) == "OK TICKETS ADD %s T-0001" % slot
    # bad input: one line naming what is wrong, nothing stored
    assert c.cmd("TICKETS ADD %s T-0002 %s" % (slot, secret)) == (
        "NO TICKETS slot %s already holds ticket T-0001" % slot)
    assert c.cmd("TICKETS ADD 999 T-0003 %s" % secret) == (
        "NO TICKETS no nonce waits in slot 999 (TICKETS ASK first)")
    assert c.cmd("TICKETS ADD %s T-0004 %s" % (nonces[0][1], "xyz")).startswith(
        "ERR args TICKETS ADD takes a slot number, a ticket id and a secret of 32 hex digits")
    assert c.cmd("TICKETS ADD %s T/4 %s" % (nonces[0][1], secret)) == (
        "ERR args a ticket id holds only letters, digits, '-' and '_'")
    assert c.cmd("TICKETS ASK 0").startswith("ERR args TICKETS takes nothing, ASK <1-20>")
    assert c.cmd("TICKETS FROB").startswith("ERR args TICKETS takes nothing")
    assert c.cmd("TICKETS") == "TICKETS ready=1 asked=2 board=%s" % board_id
    # the secrets are not files GET or DEL can reach, nor records LOGS lists
    assert c.cmd("GET tickets").startswith("ERR nofile")
    assert c.cmd("GET ../ranked/tickets").startswith("ERR args")
    assert c.cmd("LOGS") == "LOGS 0"
    board.power_cut()
    c.hello()
    assert c.cmd("TICKETS") == "TICKETS ready=1 asked=2 board=%s" % board_id
    # asking again replaces the nonces still waiting, never a ticket
    assert c.cmd("TICKETS ASK 1") == "TICKETS ASK 1"
    assert int(c.reply().split()[1]) > max(int(n[1]) for n in nonces)
    assert c.cmd("TICKETS") == "TICKETS ready=1 asked=1 board=%s" % board_id


# ---- ranked games played by KEY ---------------------------------------------------------------

PERSON = Bot(6, 1)          # the person's side is played by the strongest bot, from the laptop


def bgboard(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "bgboard.cli"] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=timeout)


def keys(c, *names):
    for k in names:
        r = c.cmd("KEY " + k)
        assert r == "OK KEY " + k, (k, r, c.state())


def start_ranked(c, level):
    st = c.state()
    if st["view"] != "menu":
        keys(c, "MENU")
    keys(c, "P%d" % level)
    if not c.state()["settings"].startswith("ranked,"):
        keys(c, "P21")
    st = c.state()
    assert st["settings"].startswith("ranked,"), st
    keys(c, "OK")
    st = c.wait_player()
    assert st["players"] == "you,bot:%d" % level and st["mode"] == "nocube", st
    return st


def person_turn(c, st):
    """The person's move, the level-6 bot's choice keyed in step by step, then OK."""
    pos = Position.from_id(st["pos"])
    play = PERSON.choose(pos, int(st["dice"][0]), int(st["dice"][1]))
    if play is None:
        return
    for s, t in play.moves:
        keys(c, key_for(s), key_for(t))
    if c.state().get("phase") == "move":
        keys(c, "OK")


def play_on(c, max_turns=400, stop=None):
    """Play the person's side until the game is over (or `stop(st)` says so)."""
    for _ in range(max_turns):
        st = c.wait_player()
        if st["view"] != "play" or st["phase"] in ("game_over", "match_over"):
            return st
        if stop and stop(st):
            return st
        if st["phase"] in ("opening", "turn"):
            keys(c, "OK")
        elif st["phase"] == "move":
            person_turn(c, st)
    raise AssertionError("the game did not end")


def ranked_win(c, level=1, stop=None):
    """Ranked games until the person wins: the last STATE and the record's name."""
    for _ in range(8):
        start_ranked(c, level)
        st = c.state()
        record = st["record"]
        st = play_on(c, stop=stop)
        if st["view"] == "name" or (stop and stop(st)):
            return st, record
        assert st["phase"] in ("game_over", "match_over")
    raise AssertionError("the level-6 side lost eight games to level %d" % level)


def type_name(c, name_keys, country_keys):
    keys(c, *name_keys)
    keys(c, "OK")
    keys(c, *country_keys)
    keys(c, "OK")


def font_rows(text):
    """The pixels the board's 3x5 font lights for `text` on the top five rows of a 16x16 panel."""
    sys.path.insert(0, str(ROOT / "firmware" / "lib"))
    from bgapp import font

    class Frame:
        w = h = 16

        def __init__(self):
            self.lit = set()

        def put(self, n, rgb):
            self.lit.add(n)

    f = Frame()
    font.text(f, text, 0, 0, (1, 1, 1))
    return f.lit


def panel_text_rows(c, timeout=ANSWER):
    """The lit pixels of the top five rows in the board's latest LED frame (WATCH)."""
    import time
    c.events.clear()
    c.cmd("STATE")
    t0 = time.monotonic()
    frame = None
    while time.monotonic() - t0 < timeout:
        leds = [e for e in c.events if e.startswith("!LED ")]
        if leds:
            frame = bytes.fromhex(leds[-1].split()[2])
            break
        line = c.readline(timeout)
        if line.startswith("!"):
            c.events.append(line)
    assert frame, "no LED frame"
    return {n for n in range(16 * 5) if any(frame[3 * n:3 * n + 3])}


ANN_LEE = ("P1", "P14", "P14", "HINT", "P12", "P5", "P5")   # A N N space L E E
NZ = ("P14", "OFF")


def test_a_ranked_game_won_named_pulled_and_verified(board, tmp_path):  # noqa: F811
    c = Client(board.link)
    c.hello()
    assert c.cmd("FAST on") == "OK FAST on"
    assert c.cmd("WATCH on") == "OK WATCH on"
    # mid-game the record on the board holds the commitment only
    seen = {}

    def peek(st):
        if "mid" not in seen and st["phase"] == "move":
            data, _, _ = c.get(st["record"])
            seen["mid"] = data.decode()
        return False

    st, record = ranked_win(c, 1, stop=peek)
    head = seen["mid"].splitlines()[0]
    assert " ranked=1 level=1 bot=%d commit=" % rk.BOT_PLAY in head
    assert "SEED" not in seen["mid"]
    assert st["entry"] == "name,-"
    # a refusal: an empty name
    assert c.cmd("KEY OK") == "NO KEY OK the name is empty"
    # the name on the panel as it is typed: "ANN " in the 3x5 font on the top rows
    keys(c, *ANN_LEE[:4])
    assert panel_text_rows(c) == font_rows("ANN ")
    keys(c, *ANN_LEE[4:])
    assert panel_text_rows(c) == font_rows("ANN ")          # the second row has " LEE"
    c.events.clear()
    type_name(c, (), NZ)
    st = c.state()
    assert st["view"] == "best", st
    c.cmd("STATE")
    text = [e for e in c.events if e.startswith("!TEXT ")][-1][6:].split("|")
    assert text[0] == "BEST level 1 beginner" and "ANN LEE" in text[1] and " NZ " in text[1]
    print("\nbest-wins view:\n" + "\n".join(text))
    out = tmp_path / "pulled"
    r = bgboard("logs", "pull", "--port", board.link, "--out", out)
    assert r.returncode == 0, r.stderr
    r = bgboard("verify", out / record, "--ranked", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    v = json.loads(r.stdout)
    assert v["ranked"] and v["level"] == 1 and v["name"] == "ANN LEE" and v["country"] == "NZ"
    assert v["points"] >= 1
    lines = (out / record).read_text().splitlines()
    print("record:", lines[0], *[ln for ln in lines if ln.split()[0] in ("END", "SEED", "NAME",
                                                                       "COUNTRY", "MATCHEND")],
          sep="\n")
    # the last name and country are offered first in the next entry; the menu has the view
    keys(c, "MENU")
    keys(c, "P22")
    assert c.state()["view"] == "best"


def test_a_hint_unranks_after_a_confirmation(board):  # noqa: F811
    c = Client(board.link)
    c.hello()
    c.cmd("FAST on")
    start_ranked(c, 2)
    st = play_on(c, stop=lambda st: st["phase"] == "move" and st["turn"] == "0")
    assert c.cmd("KEY HINT") == ("NO KEY HINT a hint makes this game unranked: HINT again to "
                                 "confirm")
    data, _, _ = c.get(st["record"])
    assert "UNRANK" not in data.decode()
    assert c.cmd("KEY HINT") == "OK KEY HINT"
    data, _, _ = c.get(st["record"])
    assert "\nUNRANK hint|" in data.decode()
    assert "unranked (hint)" in verify_ranked(data.decode()).error


def test_power_cuts_in_a_ranked_game_and_in_the_name_entry(board, tmp_path):  # noqa: F811
    c = Client(board.link)
    c.hello()
    c.cmd("FAST on")
    cuts = {"n": 0}

    def cut(st):
        # a power cut at the person's third and sixth turns: the game resumes, same dice
        if st["phase"] == "turn" and st["turn"] == "0":
            cuts["n"] += 1
            if cuts["n"] in (3, 6):
                before = c.state()
                board.power_cut()
                c.hello()
                c.cmd("FAST on")
                after = c.state()
                assert (after["pos"], after["record"]) == (before["pos"], before["record"])
        return False

    st, record = ranked_win(c, 1, stop=cut)
    keys(c, "P1", "P14")                                    # A N
    board.power_cut()
    c.hello()
    st = c.state()
    assert st["view"] == "name" and st["entry"] == "name,AN", st
    keys(c, "P14")
    type_name(c, (), NZ)
    out = tmp_path / "pulled"
    r = bgboard("logs", "pull", "--port", board.link, "--out", out)
    res = verify_ranked((out / record).read_text())
    assert res.ok and res.name == "ANN" and res.country == "NZ", res.error


def test_level_change_and_real_dice_unrank_after_a_confirmation(board):  # noqa: F811
    c = Client(board.link)
    c.hello()
    c.cmd("FAST on")
    # refused at OK: two players, or real dice on
    keys(c, "P7", "P21")
    assert c.cmd("KEY OK") == ("NO KEY OK a ranked game is against the bot: choose its level "
                               "(P1-P6)")
    keys(c, "P3", "P18")
    assert c.cmd("KEY OK") == ("NO KEY OK a ranked game uses the board's dice: P18 turns real "
                               "dice off")
    keys(c, "P18", "OK")
    st = play_on(c, stop=lambda st: st["phase"] == "move" and st["turn"] == "0")
    keys(c, "MENU")
    assert c.cmd("KEY P3") == "OK KEY P3"                    # the same level: nothing to confirm
    assert c.cmd("KEY P4") == ("NO KEY P4 changing the level makes the game in progress "
                               "unranked: P4 again to confirm")
    assert c.cmd("KEY P18") == ("NO KEY P18 real dice make the game in progress unranked: P18 "
                                "again to confirm")
    data, _, _ = c.get(st["record"])
    assert "UNRANK" not in data.decode()
    assert c.cmd("KEY P4").startswith("NO KEY P4 changing the level")   # asked again
    keys(c, "P4")                                            # confirmed
    data, _, _ = c.get(st["record"])
    assert data.decode().count("\nUNRANK level|") == 1
    keys(c, "P18")                                           # no longer ranked: no question
    assert "unranked (level)" in verify_ranked(data.decode()).error


def test_a_ranked_game_takes_a_ticket(board):  # noqa: F811
    c = Client(board.link)
    c.hello()
    c.cmd("FAST on")
    assert c.cmd("TICKETS ASK 1") == "TICKETS ASK 1"
    _, slot, digest = c.reply().split()
    secret = hashlib.sha256(b"a server").hexdigest()[:32]
    assert c.cmd("TICKETS ADD %s T-77 %s" % (slot, secret)).startswith("OK TICKETS ADD")
    st = start_ranked(c, 6)
    assert c.cmd("TICKETS").startswith("TICKETS ready=0 asked=0 ")
    data, _, _ = c.get(st["record"])
    assert " ticket=T-77|" in data.decode().splitlines()[0]
    # played to its end: the reveal gives the ticket's secret and the nonce the server saw
    play_on(c)
    st = c.state()
    data, _, _ = c.get(st["record"])
    res = verify_ranked(data.decode())
    assert res.ok and res.ticket == "T-77" and res.ticket_secret == secret, res.error
    assert res.nonce_commit == digest


def test_the_tutor_and_a_ranked_game_do_not_mix(board):  # noqa: F811
    """A ranked game does not start with the tutor on, and starts once it is off."""
    c = Client(board.link)
    c.hello()
    c.cmd("FAST on")
    keys(c, "P3", "P21", "P23")
    assert c.cmd("KEY OK") == ("NO KEY OK a ranked game is played without the tutor: P23 until "
                               "it is off")
    keys(c, "P23", "P23", "P23", "OK")                       # 160, 80, 40, off: it starts
    st = c.state()
    assert st["settings"].startswith("ranked,") and st["tutor"] == "0"
    text = c.get(st["record"])[0].decode()
    assert "ranked=1" in text.splitlines()[0] and "\nTUTOR" not in text
