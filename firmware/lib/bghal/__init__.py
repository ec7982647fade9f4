# bghal: the hardware abstraction. open(profile) returns the HAL object the profile's "hal" names
# (rp2: the Pico's pins; virtual: MicroPython's unix port as a board), importing only that one.
# The members every HAL provides are listed in docs/firmware-layout.md.


def open(profile):
    kind = profile.get("hal")
    if kind == "virtual":
        from bghal.virtual import VirtualHal
        return VirtualHal(profile)
    if kind == "rp2":
        from bghal.rp2 import Rp2Hal
        return Rp2Hal(profile)
    raise ValueError("profile %r: unknown hal %r (rp2 or virtual)" % (profile.get("name"), kind))
