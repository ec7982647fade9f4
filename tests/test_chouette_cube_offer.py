"""A chouette's cube offer that the heap interrupts: the soak's board said `!ERROR ValueError('the
cube of player 3 is offered: take or drop first')` at every pass of its main loop. A bot offered
a cube (the CDOUBLE on flash), then the heap ran out before the offer's screen came up (App.changed
never finished): the bot's turn view stayed and rolled again and again, refused each time, and the
game stood still. A person's offer over the link (KEY OK on the double screen) cut the same way left
that screen up, refusing every key. Here the real firmware on the unix port runs its own main loop
(App._loop) with the heap exhausted right after an offer: the board says it is out of memory, the
offer is answered and the game plays on to its end, and the record replays."""

import re

import pytest

from conftest import ROOT, run_micropython
from bgcore import chouette
from bgcore.match import Rules
from bgcore.record import Writer

DRIVE = ROOT / "tests" / "mp" / "chouette_offer.py"
PROFILE = ROOT / "hardware" / "profiles" / "reference.json"


# (who offers, dice seed, the member whose cube is offered when the heap runs out: "offer" seed
# 1, the bot box doubles the person; seed 3, a bot member doubles the person, who is the box;
# "double": the person doubles over the link (KEY lines), seed 2 as the box, seed 4 as a member;
# before, the double screen stayed and refused every key: "pick a cube first")
@pytest.mark.parametrize("mode, seed, member", [("offer", 1, 0), ("offer", 3, 2),
                                                ("double", 2, 1), ("double", 4, 0)])
def test_a_cube_offer_interrupted_by_the_heap_is_answered_and_the_game_goes_on(
        tmp_path, mpy_lib, mode, seed, member):
    r = run_micropython(DRIVE, str(tmp_path), str(PROFILE), str(seed), mode, heap="256k",
                        lib=mpy_lib)
    lines = r.stdout.splitlines()
    # the heap ran out right after the offer was on flash
    offer = "CDOUBLE %d 2" % member
    assert [ln for ln in lines if ln.startswith("OOM ")] == ["OOM " + offer]
    if mode == "double":        # (the person's KEY OK that offered it)
        assert "ERR memory out of memory while answering KEY" in lines
    errors = [ln for ln in lines if ln.startswith("!ERROR")]
    assert errors == [], "%d errors, the first: %s" % (len(errors), errors[0])
    # the offer was answered, and the game went on to its end
    events = [ln[4:] for ln in lines if ln.startswith("!EV ")]
    after = events[events.index(offer) + 1:]
    answer = [e for e in after if re.match(r"C(TAKE|DROP) %d$" % member, e)]
    assert answer, "never answered; the board said: %s" % sorted(
        set(ln for ln in lines if ln.startswith("!NO")))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    assert any(e.startswith("ROLL ") for e in after[after.index(answer[0]):])
    state = dict(w.split("=", 1) for w in lines[-1].split()[1:] if "=" in w)
    assert state["phase"] == "game_over", lines[-1]
    assert int(lines[-2].split()[1]) < 6000         # (PASSES: not stopped by the driver's limit)
    # the record on flash holds what the board announced, and replays
    text = (tmp_path / state["record"]).read_text()
    assert [ln.rsplit("|", 1)[0] for ln in text.splitlines()[1:]] == events
    ch, _, _ = chouette.replay(text)
    assert not ch.in_game() and not ch.offers
    print("%s seed %d: %s answered %s, game 1 over after %s passes"
          % (mode, seed, offer, answer[0], lines[-2].split()[1]))


def test_a_fault_at_every_tick_is_said_once_and_the_board_answers_keys(tmp_path, mpy_lib):
    """A chouette record from another firmware, whose box is a bot of a level this one does not
    have (bot:7-3), resumed at power-up: the bot's turn cannot be played (bgcore.bot: "bot level
    is 1 to 6, not 7"). The board says so once (before: at every pass of its loop, the same
    !ERROR for ever), and it answers keys: MENU, then a new two-player game and its opening
    roll."""
    w = Writer()
    text = (w.header(Rules("money"), ("box", "team"))
            + "".join(w.line(e) for e in ("CHOUETTE multiple Ann Ben bot:7-3",
                                          "ORDER 0:1 1:2 2:6", "GAME 1", "OPEN 6 1")))
    (tmp_path / "0001.bgr").write_text(text)
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "settings.json").write_text('{"current": "0001.bgr", "next": 2}')
    r = run_micropython(DRIVE, str(tmp_path), str(PROFILE), "4", "resume", heap="256k",
                        lib=mpy_lib)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    lines = r.stdout.splitlines()
    errors = [ln for ln in lines if ln.startswith("!ERROR")]
    assert errors == ["!ERROR ValueError('bot level is 1 to 6, not 7',)"], \
        "%d errors: %s" % (len(errors), errors[:2])
    # the keys after it were taken: a new game, its opening roll made
    assert not [ln for ln in lines if ln.startswith("!NO")]
    events = [ln[4:] for ln in lines if ln.startswith("!EV ")]
    assert events[0] == "GAME 1" and events[1].startswith("OPEN ")
    state = dict(w.split("=", 1) for w in lines[-1].split()[1:] if "=" in w)
    assert state["players"] == "player1,player2" and state["record"] == "0002.bgr", lines[-1]
    assert state["phase"] in ("opening", "move"), lines[-1]     # (a tie rolls again)
