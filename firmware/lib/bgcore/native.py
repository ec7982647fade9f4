# The core's hot loops in native code where MicroPython has a native emitter (Thumb on the
# RP2040, x64 on the unix port): each loop's viper source lives in a module of its own (today
# bgcore.scan_native, used by bgcore.bot) that is compiled once, at import of the module using
# it, and then dropped (as is this module), so the source text does not stay in the heap.
# CPython, and a MicroPython without a native emitter, run the Python loops of the modules
# using them.

import sys


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
        source = __import__(full, None, None, ("SOURCE",)).SOURCE
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
