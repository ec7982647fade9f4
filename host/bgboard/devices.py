"""`bgboard devices`: the boards connected to this laptop. Physical ones are serial ports with
the Raspberry Pi USB vendor id (2E8A: a Pico or Pico 2 running MicroPython); virtual boards
(`bgboard vboard`) register their link in a per-user directory while they run. Each port is
asked HELLO: bgboard firmware answers with its version and board id. Also picks the port for
the other commands when --port is not given."""

import os
import tempfile
from pathlib import Path

from bgboard.link import Board, LinkError, NoBoard
from bgboard.safetext import for_terminal

RASPBERRY_PI_VID = 0x2E8A


def _registry():
    """Where running virtual boards are listed: the user's runtime directory (XDG_RUNTIME_DIR)
    when there is one, else a per-user folder in the temporary directory."""
    run = os.environ.get("XDG_RUNTIME_DIR")
    if run:
        return Path(run) / "bgboard" / "vboards"
    return Path(tempfile.gettempdir()) / ("bgboard-%d" % os.getuid()) / "vboards"


def register_vboard(link):
    """Called by a running virtual board: its link path, under the bridge's process id."""
    d = _registry()
    d.mkdir(parents=True, exist_ok=True)
    (d / str(os.getpid())).write_text(str(Path(link).absolute()) + "\n")


def unregister_vboard():
    try:
        (_registry() / str(os.getpid())).unlink()
    except OSError:
        pass


def _alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def virtual_ports():
    out = []
    d = _registry()
    if not d.is_dir():
        return out
    for entry in sorted(d.iterdir()):
        if not entry.name.isdigit():
            continue
        try:
            link = entry.read_text().strip()
        except OSError:
            continue
        if _alive(int(entry.name)) and os.path.exists(link):
            out.append((link, "virtual board (bgboard vboard, pid %s)" % entry.name))
        elif not _alive(int(entry.name)):
            try:
                entry.unlink()
            except OSError:
                pass
    return out


def usb_ports():
    from serial.tools import list_ports
    out = []
    for p in list_ports.comports():
        if p.vid == RASPBERRY_PI_VID:
            out.append((p.device, "USB %04X:%04X %s" % (p.vid, p.pid, p.description or "")))
    return out


def candidates():
    return usb_ports() + virtual_ports()


def probe(port, timeout=4.0):
    """(fields of HELLO or None, a note saying what answered)."""
    try:
        with Board(port) as b:
            info = b.hello(timeout=timeout)
            return info, "bgboard firmware"
    except LinkError as e:
        return None, str(e)


def find_port(port=None):
    """The port a command should use: --port, or the only board connected."""
    if port:
        return port
    found = candidates()
    if not found:
        raise NoBoard("no board found: plug in a Pico running MicroPython (USB 2E8A:xxxx) or "
                      "start a virtual one (bgboard vboard), or give --port")
    if len(found) > 1:
        raise LinkError("several boards are connected (%s): choose one with --port"
                        % ", ".join(p for p, _ in found))
    return found[0][0]


def run(ports=None, timeout=4.0, out=None):
    import sys
    out = out or sys.stdout
    listed = [(p, "given") for p in ports] if ports else candidates()
    if not listed:
        print("no board found (a Pico shows as USB 2E8A:xxxx; a virtual board: bgboard vboard)",
              file=out)
        return 1
    found = [(port, what) + probe(port, timeout) for port, what in listed]
    if ports and not any(info or os.path.exists(port) for port, _, info, _ in found):
        # only the ports given, and none of them there: one line each, no table (a port that
        # is there but did not answer HELLO, e.g. a blank Pico, is listed with what it said)
        for port, _, _, note in found:
            print("bgboard devices: %s" % for_terminal(note, 300), file=sys.stderr)
        return 1
    print("%-28s %-10s %-18s %-10s %s" % ("port", "firmware", "board id", "profile", "what"),
          file=out)
    failed = 0
    for port, what, info, note in found:
        port = for_terminal(port, 100)
        if info:
            print("%-28s %-10s %-18s %-10s %s" % (
                port, for_terminal(info.get("fw", "?"), 40),
                for_terminal(info.get("board", "?"), 40),
                for_terminal(info.get("profile", "?"), 40), what), file=out)
        else:
            failed += 1
            print("%-28s %-10s %-18s %-10s %s: %s" % (port, "-", "-", "-", what,
                                                      for_terminal(note, 300)), file=out)
    return 1 if ports and failed else 0
