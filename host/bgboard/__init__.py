"""bgboard, the host tool: it runs bgcore on CPython, whose network loops it first swaps for
CPython's faster versions (bgcore.net_cpython: the same integers, 1.4-1.7x the bots' speed)."""

from bgcore import net_cpython as _net_cpython

_net_cpython.install()
