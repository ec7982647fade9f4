# What the flash probes (flash_probe.py, settings_probe.py) share on MicroPython's unix port: the
# virtual board's littlefs image mounted at / as its shim mounts it (bgboard.vboard), with the
# block reads counted, the firmware's modules still found (from the host, under /host), and a
# clock of the process's own CPU time (µs), steady whatever else the machine runs.
import os
import sys
import vfs

_BLOCK = 4096
_BLOCKS = 352             # as the rp2 port's filesystem: 1408 KiB
_stat = open("/proc/self/schedstat", "rb")


def cpu_us():
    """The CPU time this process has run, in µs (the kernel's schedstat)."""
    _stat.seek(0)
    return int(_stat.read(48).split()[0]) // 1000


class Flash:
    """A block device on an image file, as the virtual board's shim, counting its block reads."""
    def __init__(self, f, n):
        self.f = f
        self.n = n
        self.reads = 0

    def readblocks(self, b, buf, off=0):
        self.reads += 1
        self.f.seek(b * _BLOCK + off)
        self.f.readinto(buf)

    def writeblocks(self, b, buf, off=None):
        self.f.seek(b * _BLOCK + (off or 0))
        self.f.write(buf)

    def ioctl(self, op, arg):
        if op == 4:
            return self.n
        if op == 5:
            return _BLOCK
        return 0


def mount(image):
    """Mount the littlefs image file `image` at / (the host's files at /host, the modules' path
    moved there); returns its Flash, whose `reads` counts the block reads."""
    flash = Flash(open(image, "r+b"), _BLOCKS)
    vfs.umount("/")
    vfs.mount(vfs.VfsLfs2(flash), "/")
    vfs.mount(vfs.VfsPosix(), "/host")        # the firmware's modules, from the host
    sys.path[:] = ["/host" + p for p in sys.path if p.startswith("/")]
    os.chdir("/")
    return flash
