# The core's hot loops in native code where MicroPython has a native emitter (Thumb on the
# RP2040, x64 on the unix port): each loop's viper source lives in a module of its own (e.g.
# bgcore.scan_native, used by bgcore.bot) that is compiled once, at import of the module using
# it, and then dropped (as is this module), so the source text does not stay in the heap. A
# board's firmware usually has them compiled already, to its own machine code (bgboard.build):
# the module then holds the functions, taken as they are.
# CPython, and a MicroPython without a native emitter, run the Python loops of the modules
# using them.

import sys

MACHINE_CODE = 1    # (for bgboard.build: this firmware's loaders take the loops as machine code)


def load(module, *names):
    """The functions `names` compiled from bgcore.`module`'s SOURCE (a list), or None where
    there is no native emitter, or too little heap in one piece to compile them: the Python
    loops then play, the same moves several times slower (the board's STATE says which code
    its bot runs: `bot=`)."""
    try:
        import micropython  # noqa: F401  (MicroPython only)
    except ImportError:     # CPython
        return None
    import bgcore
    full = "bgcore." + module
    try:
        found = {}
        mod = __import__(full, None, None, ("SOURCE",))
        source = getattr(mod, "SOURCE", None)
        if source is None:          # compiled by the build to this board's machine code
            return [getattr(mod, name) for name in names]       # (bgboard.build)
        for piece in source if isinstance(source, tuple) else (source,):   # one at a time
            exec(piece, found)
        return [found[name] for name in names]
    except (SyntaxError, MemoryError):      # no native emitter ("invalid micropython
        return None                         # decorator"); a heap in pieces
    finally:
        for name in (module, "native"):          # this module too: it is needed at import only
            sys.modules.pop("bgcore." + name, None)
            if name in bgcore.__dict__:
                delattr(bgcore, name)
