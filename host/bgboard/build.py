"""The firmware build: firmware/lib compiled to .mpy bytecode with mpy-cross, the way every
user of it needs it (`bgboard flash`, the virtual board's --install, the benches, the tests).
Each module is compiled with `-s` and its path inside lib/, so the output does not depend on
where the repository lives (the name is kept on the board as a string: the heap a test measures
would change with the clone's path), and with OPTIMISE. The firmware's version is bgcore's
`__version__`, read here and nowhere else. Also the board profile file as a board of a given kind
gets it."""

import ast
import functools
import json
import re
import subprocess
import tempfile
from pathlib import Path

from bgboard import paths


# mpy-cross's optimisation level for everything a board gets: -O3 keeps no line numbers in the
# bytecode (a traceback on the board names the file and the function, each line as line 1; the
# same code run from its sources, or bgcore on the laptop, gives them). A board holds its
# modules' bytecode in its heap: on the emulated RP2040 the app has 92,720 bytes free after
# power-up instead of 88,752, and the bot imported takes 1,008 bytes less.
OPTIMISE = "-O3"


class BuildError(Exception):
    """mpy-cross refused a file, or wrote something that is not bytecode."""


def version(fw_dir=None):
    """The firmware version of the tree FW_DIR (default: this repository's firmware): the
    `__version__` string of its bgcore package."""
    init = Path(fw_dir or paths.FIRMWARE) / "lib" / "bgcore" / "__init__.py"
    for node in ast.parse(init.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__version__"
                                                for t in node.targets):
            return ast.literal_eval(node.value)
    raise BuildError("%s does not set __version__" % init)


def compile_module(src, name, out):
    """mpy-cross SRC into OUT, recorded under the short source NAME; returns the bytes."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    r = subprocess.run([paths.tool("mpy-cross"), OPTIMISE, "-s", name, "-o", str(out), str(src)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise BuildError("mpy-cross could not compile %s: %s" % (src, r.stderr.strip()))
    return out.read_bytes()


# Modules of firmware/lib a board never gets, nor their names in bgnames: the laptop's faster
# versions of the core's loops (CPython only), and the networks made from their modules (a
# board reads them from its network file).
HOST_ONLY = ("bgcore/net_cpython.py", "bgcore/netmodules.py")


# The bot's networks: modules in the library (tools/train_bot.py writes them), one data file on a
# board (bgcore.netfile reads it, and describes it), made here.
NETWORKS = ("bgcore/botnet.py", "bgcore/racenet.py")       # the main network first
NETS_FILE = "bgcore/nets.bin"      # (where bgcore.net looks for it: beside itself)


def board_sources(lib):
    """The .py files of the library LIB a board gets, sorted (all but HOST_ONLY's, and the
    networks' modules when it gets them as NETS_FILE)."""
    lib = Path(lib)
    skip = set(HOST_ONLY) | (set(NETWORKS) if data_files(lib) else set())
    return [src for src in sorted(lib.rglob("*.py"))
            if src.relative_to(lib).as_posix() not in skip]


def data_files(lib):
    """The data files (not modules) the build makes for a board from the library LIB: NETS_FILE
    where it has both networks' modules."""
    return [NETS_FILE] if all((Path(lib) / n).exists() for n in NETWORKS) else []


def nets_file(lib):
    """The bytes of NETS_FILE for the library LIB's network modules (see bgcore.netfile)."""
    from bgcore import net, netfile
    nets = []
    for name in NETWORKS:
        values = {}
        exec(compile((Path(lib) / name).read_text(), name, "exec"), values)
        inputs = values.get("SHOTS", 0) | values.get("CONTACT", 0) << 1
        nets.append(([values.get(k, 0) for k in ("HIDDEN", "HIDDEN2", "LEVELS")] + [inputs],
                     [len(values.get(t, b"")) for t in netfile.TABLES],
                     b"".join(values.get(t, b"") for t in netfile.TABLES)))
    for name, (shape, sizes, _) in zip(NETWORKS[1:], nets[1:]):
        if shape != nets[0][0] or sizes != nets[0][1]:
            raise BuildError("%s is not the shape of %s (hidden units, count levels, inputs)"
                             % (name, NETWORKS[0]))
    return net.NETS_MAGIC + bytes(nets[0][0]) + b"".join(data for _, _, data in nets)


def heap_beyond_chip(lib=None):
    """The heap in bytes that MicroPython's unix port holds for the first layer of NETS_FILE (the
    library LIB's networks) and an RP2040 does not, reading it in flash (bgcore.net.flash_saves;
    0 without the networks): what a heap standing in for a chip's needs on top."""
    lib = Path(lib or paths.FIRMWARE_LIB)
    if not data_files(lib):
        return 0
    from bgcore import net
    data = nets_file(lib)
    return net.flash_saves(data[8], len(data))


# ---- native code compiled for the board's own instructions ----------------------------------
# A module whose whole text is `SOURCE = ...` (bgcore.net_native, scan_native, scan_viper,
# scan_thumb, search_native, bgapp.native) holds viper or inline-Thumb source that a board compiles
# at import (bgcore.native.load, bgapp.moves.natives) and then drops. That compile needs the source
# text and the compiler's work in the heap at once: at power-up an RP2040 with its heap in pieces
# could not, and its bot ran the Python loops, 3.8 times slower. Where the build knows the board's
# instruction set (its sys.implementation._mpy: the native sub-version in bits 8-9, the
# architecture from bit 10) and that sub-version is mpy-cross's own, it compiles such a module here
# to machine code: the .mpy then holds the functions themselves, which the loaders take as they
# are, and the board compiles nothing. Otherwise (a board not known, an architecture whose source
# does not assemble, e.g. Thumb on x64) the module goes as bytecode as before.
ARCHS = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
         "xtensa", "xtensawin")          # mpy-cross's -march by the architecture's number


def native_sources(text):
    """The viper source of a module whose whole text is SOURCE = a string (or a tuple of them,
    compiled in turn into the same names), else None."""
    body = ast.parse(text).body
    if len(body) != 1 or not isinstance(body[0], ast.Assign) or \
            [getattr(t, "id", None) for t in body[0].targets] != ["SOURCE"]:
        return None
    value = ast.literal_eval(body[0].value)
    return "".join(value) if isinstance(value, tuple) else value


@functools.cache
def mpy_cross_sub_version():
    """The native sub-version of the .mpy files mpy-cross writes ("mpy v6.3": 3)."""
    r = subprocess.run([paths.tool("mpy-cross"), "--version"], capture_output=True, text=True)
    found = re.search(r"mpy v(\d+)\.(\d+)", r.stdout)
    if r.returncode or not found:
        raise BuildError("mpy-cross --version did not say its .mpy version: %r" % r.stdout[-200:])
    return int(found.group(2))


def native_arch(board_mpy):
    """mpy-cross's -march for a board whose sys.implementation._mpy is BOARD_MPY, or None where
    the board compiles its native code itself (see ARCHS)."""
    if not board_mpy:
        return None
    arch = board_mpy >> 10
    if arch >= len(ARCHS) or (board_mpy >> 8) & 3 != mpy_cross_sub_version():
        return None
    return ARCHS[arch]


def takes_machine_code(lib):
    """Whether the firmware library LIB's loaders take a native module compiled here (its
    bgcore.native sets MACHINE_CODE; an older firmware tree, e.g. `bench chip --before`'s, looks
    for the source)."""
    native = Path(lib) / "bgcore" / "native.py"
    if not native.exists():
        return False
    for node in ast.parse(native.read_text()).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == \
                ["MACHINE_CODE"]:
            return bool(ast.literal_eval(node.value))
    return False


def compile_native(src, name, out, arch):
    """SRC's viper source (native_sources) compiled by mpy-cross to ARCH's machine code into
    OUT, recorded under NAME; returns the bytes, or None where the source does not assemble for
    ARCH (inline Thumb on another architecture)."""
    text = native_sources(Path(src).read_text())
    if text is None:
        return None
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        code = Path(tmp) / Path(name).name
        code.write_text(text)
        r = subprocess.run([paths.tool("mpy-cross"), OPTIMISE, "-march=" + arch, "-s", name,
                            "-o", str(out), str(code)], capture_output=True, text=True)
    if r.returncode != 0:
        if "invalid arch" in r.stderr:
            return None
        raise BuildError("mpy-cross could not compile %s for %s: %s"
                         % (src, arch, r.stderr.strip()))
    return out.read_bytes()


def compile_lib(dest, lib=None, package=None, board_mpy=None):
    """Compile the firmware library LIB (default firmware/lib; only its PACKAGE subfolder when
    given) to .mpy files under DEST, in the same layout, the networks' modules made into
    NETS_FILE; for a board whose sys.implementation._mpy is BOARD_MPY, the native loops as its
    machine code (native_arch). Returns {relative path: bytes}."""
    lib = Path(lib or paths.FIRMWARE_LIB)
    top = lib / package if package else lib
    arch = native_arch(board_mpy) if takes_machine_code(lib) else None
    files = {}
    for src in board_sources(lib):
        if not src.is_relative_to(top):
            continue
        rel = src.relative_to(lib)
        mpy = rel.with_suffix(".mpy").as_posix()
        code = compile_native(src, rel.as_posix(), Path(dest) / mpy, arch) if arch else None
        files[mpy] = code or compile_module(src, rel.as_posix(), Path(dest) / mpy)
    if NETS_FILE in data_files(lib) and (lib / NETS_FILE).is_relative_to(top):
        files[NETS_FILE] = nets_file(lib)
        (Path(dest) / NETS_FILE).write_bytes(files[NETS_FILE])
    if "bgapp/app.mpy" in files:           # (the board's application: its names, bgnames)
        files[NAMES_MODULE] = names_module(files, Path(dest) / NAMES_MODULE)
    return files


# ---- the names the board interns at power-up (bgapp.app.intern_names imports bgnames) --------
# MicroPython keeps every name it meets (a qstr: module, function and attribute names, short
# strings) for good, in tables that double: once about 1,260 names have come, the next table
# takes 1,280 entries, 14 KB in one block on the unix port (8 KB on an RP2040). The soak found
# long sessions that first met a new name late (the best-wins view's module, the characters of
# a garbage GET name) with 47 KB free and no 14 KB in a row: "memory allocation failed,
# allocating 1280 bytes" (that figure counts the entries) on every key of the menu. bgnames.mpy
# is a module that does nothing but holds every name of the compiled firmware in its table:
# importing it at power-up, once the first frame is lit, interns them all while the heap is in
# one piece (MicroPython's loader does it in C, with no garbage between the names to split the
# heap), and the big table comes then.
NAMES_MODULE = "bgnames.mpy"


def _vuint(data, i):
    v = 0
    while True:
        b = data[i]
        i += 1
        v = (v << 7) | (b & 0x7F)
        if not b & 0x80:
            return v, i


def _vuint_bytes(v):
    out = [v & 0x7F]
    v >>= 7
    while v:
        out.append(0x80 | (v & 0x7F))
        v >>= 7
    return bytes(reversed(out))


def _name_table(data):
    """(.mpy DATA's names that are text, the offset after its count of names, the offset after
    its table of names)."""
    mpy_version(data)
    if data[1] != 6:
        raise BuildError("a .mpy %d file: bgboard reads the names of .mpy 6 only" % data[1])
    n, i = _vuint(data, 4)
    after_count = i
    _, i = _vuint(data, i)              # (the constants that follow the names)
    names = []
    for _ in range(n):
        size, i = _vuint(data, i)
        if size & 1:                    # (a name MicroPython has built in: a number)
            continue
        size >>= 1
        names.append(data[i:i + size])
        i += size + 1                   # (each name ends with a zero byte)
    return names, after_count, i


def mpy_names(data):
    """The names (qstrs) a .mpy file holds as text: what MicroPython interns as it loads it."""
    return _name_table(data)[0]


def names_module(files, out):
    """bgnames.mpy (written to OUT, returned) for the compiled library FILES ({path: .mpy
    bytes}): an empty module whose table of names holds every name their modules intern, their
    dotted and short module names (an import interns both) and each printable ASCII character
    (a str's characters are interned as it is iterated)."""
    names = {bytes([c]) for c in range(32, 127)}
    for path, data in files.items():
        if path.endswith(".mpy"):
            names.update(mpy_names(data))
            mod = path[:-4].replace("/", ".")
            if mod.endswith(".__init__"):
                mod = mod[:-9]
            names.add(mod.encode())
            names.add(mod.rsplit(".", 1)[-1].encode())
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "bgnames.py"
        src.write_text("# the firmware's names (bgboard.build.names_module)\n")
        empty = compile_module(src, "bgnames.py", out)
    own, after_count, after_table = _name_table(empty)
    n, _ = _vuint(empty, 4)
    extra = sorted(names - set(own))
    table = b"".join(_vuint_bytes(len(x) << 1) + x + b"\0" for x in extra)
    data = (empty[:4] + _vuint_bytes(n + len(extra)) + empty[after_count:after_table] + table
            + empty[after_table:])
    Path(out).write_bytes(data)
    return data


def mpy_version(data):
    """The .mpy version of a compiled file (its header's second byte). A file without native
    code carries no sub-version: any MicroPython loading this major version runs it (the
    native loops compiled for a board carry its own: native_arch)."""
    if len(data) < 4 or data[0:1] != b"M":
        raise BuildError("mpy-cross wrote something that is not a .mpy file")
    return data[1]


def profile_file(profile, target):
    """The /profile.json a board of TARGET gets for board profile PROFILE (a dict): on the unix
    port (the virtual board) the same board, its hardware played by the virtual HAL."""
    data = dict(profile)
    if target == "unix":
        data["hal"] = "virtual"
    return (json.dumps(data, indent=1) + "\n").encode()


class Build:
    """The board's files for one firmware tree: `files` {path on the board, relative to the
    firmware's root: bytes} (main.py as source, lib/... as .mpy), the loader, the version and
    the .mpy version."""

    def __init__(self, fw_dir, files, loader, version, mpy):
        self.fw_dir = fw_dir
        self.files = files
        self.loader = loader
        self.version = version
        self.mpy = mpy


def build(fw_dir=None, work=None, board_mpy=None):
    """Build the firmware tree FW_DIR (default: this repository's) for a board whose
    sys.implementation._mpy is BOARD_MPY (compile_lib), compiling into WORK (a temporary
    directory when not given)."""
    fw_dir = Path(fw_dir or paths.FIRMWARE)
    with tempfile.TemporaryDirectory() as tmp:
        lib = compile_lib(Path(work or tmp), fw_dir / "lib", board_mpy=board_mpy)
    files = {"main.py": (fw_dir / "main.py").read_bytes()}
    files.update(("lib/" + k, v) for k, v in lib.items())
    loader = fw_dir / "loader.py"
    if not loader.exists():
        loader = paths.FIRMWARE / "loader.py"
    mpy = mpy_version(next(v for k, v in lib.items() if k.endswith(".mpy")))
    return Build(fw_dir, files, loader.read_bytes(), version(fw_dir), mpy)


# ---- the checked-profile marker -------------------------------------------------------------
# A board checks its profile at boot (bghal.profile.check: a quarter of a second on an RP2040)
# unless /profile.checked holds the stamp of the profile it has and of the code that checks it:
# the pair last found without a fault. The board writes the stamp after its own check passed;
# `bgboard flash` and the virtual boards' install write it after running that same check (the
# firmware tree's own code) on the laptop, so that the first boot skips it too. Any change to
# the profile or to the checking code changes the stamp, and the board checks again.
PROFILE_CHECKED = "/profile.checked"
CHECK_CODE = ("bghal/profile", "bghal/profile_check")   # bghal.profile.CHECK_CODE, under lib/

# run with the firmware tree's library first on the path: its check of the profile (argv[1]) and
# the stamp of the profile and the checking code as the board holds it (argv[2:])
_CHECK = """import json, sys
from bghal import profile
data = open(sys.argv[1], "rb").read()
faults = profile.check(profile.loads(data, "profile.json"))
stamp = profile.stamp_of([data] + [open(p, "rb").read() for p in sys.argv[2:]])
print(json.dumps({"faults": faults, "stamp": stamp.decode()}))
"""


def profile_marker(profile, fw_dir=None, lib_files=None):
    """The /profile.checked a board gets with PROFILE (bytes) and the firmware tree FW_DIR (its
    library installed as LIB_FILES, {path under lib/: bytes}; the .py sources when None):
    the stamp (bghal.profile.stamp_of) when the tree's own check finds no fault in the profile,
    else None (the board then checks it at boot and says what is wrong)."""
    import os
    import sys
    lib = Path(fw_dir or paths.FIRMWARE) / "lib"
    code = []
    for name in CHECK_CODE:
        data = None
        for ext in (".mpy", ".py"):
            if lib_files is not None and name + ext in lib_files:
                data = lib_files[name + ext]
                break
        if data is None:
            if lib_files is not None or not (lib / (name + ".py")).exists():
                return None
            data = (lib / (name + ".py")).read_bytes()
        code.append(data)
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i, data in enumerate([profile] + code):
            files.append(Path(tmp) / ("part%d" % i))
            files[-1].write_bytes(data)
        r = subprocess.run([sys.executable, "-c", _CHECK] + [str(f) for f in files],
                           capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=str(lib)))
    try:
        got = json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None
    if r.returncode or got["faults"]:
        return None
    return got["stamp"].encode()
