"""Ranked games on the virtual board (real MicroPython over its pty, pyserial): the TICKETS
request that stores server tickets, kept across power cuts and out of GET's reach."""

import hashlib
import re

from test_vboard import Client, board, golden_image  # noqa: F401  (fixtures)


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
