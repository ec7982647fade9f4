"""The top of a board as built: where the LED panel, the keys and the display sit, in mm (a
profile's `mechanical` section, hardware/profiles/README.md), and whether the keys physically
fit: no two switches overlap or sit closer than the profile's clearance, everything is inside
the enclosure and off the panel and the display, and every point's key is at that point.
`bgboard hw check` runs `check`; tools/mechanical_svg.py draws the same `Layout`.

Coordinates: x from the enclosure's left edge as player 0 sees it, y from its far edge (player
1's side), both in mm; a key is placed by its centre, the panel and the display module by their
far-left corner. The LED map's logical pixel (x, y) has its centre at
panel + ((x + 0.5) * pitch, (y + 0.5) * pitch)."""

import math

# a point's key is within this many LED pitches of the LED at its edge (its first LED)
REACH_PITCHES = 3


class Box:
    """An axis-aligned rectangle by its far-left corner and size, in mm."""

    def __init__(self, x, y, w, h):
        self.x, self.y, self.w, self.h = x, y, w, h

    @property
    def centre(self):
        return (self.x + self.w / 2, self.y + self.h / 2)

    def inside(self, other):
        return (self.x >= other.x and self.y >= other.y and self.x + self.w <= other.x + other.w
                and self.y + self.h <= other.y + other.h)

    def gap(self, other):
        """The distance between the two outlines; negative when they overlap (by how much,
        along the axis where they overlap least)."""
        dx = max(other.x - (self.x + self.w), self.x - (other.x + other.w))
        dy = max(other.y - (self.y + self.h), self.y - (other.y + other.h))
        if dx < 0 and dy < 0:
            return max(dx, dy)
        return math.hypot(max(dx, 0), max(dy, 0))


class Key:
    def __init__(self, name, switch, x, y, size):
        self.name, self.switch, self.x, self.y = name, switch, x, y
        self.box = Box(x - size[0] / 2, y - size[1] / 2, size[0], size[1])


class Layout:
    """A profile's `mechanical` section, read: `pitch`, `enclosure`, `panel` and `oled` (Box or
    None), `clearance`, `switches` (name -> (w, h)), `keys` (name -> Key, in the profile's
    order)."""

    def __init__(self, profile):
        m = profile["mechanical"]
        self.pitch = m["pitch_mm"]
        self.columns = profile["panel"]["width"]
        self.rows = profile["panel"]["height"]
        w, h = m["enclosure_mm"]
        self.enclosure = Box(0, 0, w, h)
        px, py = m["panel_mm"]
        self.panel = Box(px, py, self.columns * self.pitch, self.rows * self.pitch)
        self.clearance = m["clearance_mm"]
        self.switches = {name: tuple(size) for name, size in m["switches"].items()}
        self.keys = {}
        for name, (switch, x, y) in m["keys"].items():
            self.keys[name] = Key(name, switch, x, y, self.switches[switch])
        oled = m.get("oled_mm")
        self.oled = Box(*oled) if oled else None

    def led(self, x, y):
        """The centre of logical pixel (x, y), in mm."""
        return (self.panel.x + (x + 0.5) * self.pitch, self.panel.y + (y + 0.5) * self.pitch)


def board_keys(profile):
    """The names of the keys a profile's input has, in its order."""
    inp = profile["input"]
    if inp["style"] == "matrix":
        return [k for row in inp["keys"] for k in row if k]
    return list(inp["buttons"])


def _num(v, low=0):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v >= low


def _nums(v, count, low=0):
    return isinstance(v, list) and len(v) == count and all(_num(n, low) for n in v)


def check_form(profile):
    """The faults in the form of a profile's `mechanical` section (all must be empty before a
    Layout can be read); [] when it has none."""
    m = profile.get("mechanical")
    if m is None:
        return []
    if not isinstance(m, dict):
        return ["mechanical: must be an object (the layout of the top) or null"]
    faults = []
    for key in sorted(m):
        if key not in ("pitch_mm", "enclosure_mm", "panel_mm", "clearance_mm", "switches",
                       "keys", "oled_mm"):
            faults.append("mechanical.%s: not a setting (pitch_mm, enclosure_mm, panel_mm, "
                          "clearance_mm, switches, keys, oled_mm)" % key)
    if not _num(m.get("pitch_mm"), 1):
        faults.append("mechanical.pitch_mm: %r is not the LED pitch in mm (10 on a 160 mm "
                      "16x16 panel)" % (m.get("pitch_mm"),))
    if not _nums(m.get("enclosure_mm"), 2, 1):
        faults.append("mechanical.enclosure_mm: %r is not [width, depth] in mm"
                      % (m.get("enclosure_mm"),))
    if not _nums(m.get("panel_mm"), 2):
        faults.append("mechanical.panel_mm: %r is not [x, y] in mm (the panel's far-left "
                      "corner)" % (m.get("panel_mm"),))
    if not _num(m.get("clearance_mm")):
        faults.append("mechanical.clearance_mm: %r is not a distance in mm"
                      % (m.get("clearance_mm"),))
    switches = m.get("switches")
    if not isinstance(switches, dict) or not switches:
        faults.append("mechanical.switches: missing (switch name -> [width, depth] in mm)")
        switches = {}
    for name in sorted(switches):
        if not _nums(switches[name], 2, 1):
            faults.append("mechanical.switches.%s: %r is not [width, depth] in mm"
                          % (name, switches[name]))
    keys = m.get("keys")
    if not isinstance(keys, dict):
        faults.append("mechanical.keys: missing (key name -> [switch, x, y])")
        keys = {}
    for name in keys:
        k = keys[name]
        if not (isinstance(k, list) and len(k) == 3 and _nums(k[1:], 2, -10 ** 6)):
            faults.append("mechanical.keys.%s: %r is not [switch, x, y] (its centre in mm)"
                          % (name, k))
        elif not isinstance(k[0], str) or k[0] not in switches:
            faults.append("mechanical.keys.%s: no switch %r in mechanical.switches (%s)"
                          % (name, k[0], ", ".join(sorted(switches))))
    oled = m.get("oled_mm")
    if oled is not None and not _nums(oled, 4):
        faults.append("mechanical.oled_mm: %r is not [x, y, width, depth] in mm (the display "
                      "module's outline)" % (oled,))
    if oled is None and profile.get("oled"):
        faults.append("mechanical.oled_mm: missing (the board has a display: where does it go?)")
    if oled is not None and not profile.get("oled"):
        faults.append("mechanical.oled_mm: the board has no display (oled is null)")
    return faults


def check(profile):
    """Every reason the keys of this profile do not fit, one message each; [] when they do or
    when the profile has no `mechanical` section."""
    faults = check_form(profile)
    if faults or profile.get("mechanical") is None:
        return faults
    lay = Layout(profile)
    wanted = board_keys(profile)
    missing = [k for k in wanted if k not in lay.keys]
    if missing:
        faults.append("mechanical.keys: no place for %s" % ", ".join(missing))
    for name in lay.keys:
        if name not in wanted:
            faults.append("mechanical.keys.%s: not a key of this board" % name)
    encl = lay.enclosure
    if not lay.panel.inside(encl):
        faults.append("mechanical.panel_mm: the %s panel at %s reaches outside the %s "
                      "enclosure" % (_size(lay.panel), _at(lay.panel.x, lay.panel.y),
                                     _size(encl)))
    if lay.oled:
        if not lay.oled.inside(encl):
            faults.append("mechanical.oled_mm: the %s display module at %s reaches outside "
                          "the %s enclosure" % (_size(lay.oled), _at(lay.oled.x, lay.oled.y),
                                                _size(encl)))
        if lay.oled.gap(lay.panel) < 0:
            faults.append("mechanical.oled_mm: the display module overlaps the panel")
    keys = list(lay.keys.values())
    for key in keys:
        where = "mechanical.keys.%s" % key.name
        if not key.box.inside(encl):
            faults.append("%s: its %s switch at %s reaches outside the %s enclosure"
                          % (where, _size(key.box), _at(key.x, key.y), _size(encl)))
        if key.box.gap(lay.panel) < 0:
            faults.append("%s: its switch at %s is under the panel" % (where, _at(key.x, key.y)))
        if lay.oled and key.box.gap(lay.oled) < lay.clearance:
            faults.append("%s: its switch at %s and the display module %s" % (
                where, _at(key.x, key.y), _closeness(key.box.gap(lay.oled), lay.clearance)))
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            gap = a.box.gap(b.box)
            if gap < lay.clearance:
                sizes = _size(a.box) if _size(a.box) == _size(b.box) else "%s and %s" % (
                    _size(a.box), _size(b.box))
                faults.append("mechanical.keys: %s and %s %s (%s switches, centres %s mm "
                              "apart)" % (a.name, b.name, _closeness(gap, lay.clearance), sizes,
                                          _mm(math.hypot(a.x - b.x, a.y - b.y))))
    faults.extend(_point_faults(profile, lay))
    return faults


def _point_faults(profile, lay):
    """A point's key must be nearer the LED at that point's edge than to any other point's,
    and within REACH_PITCHES LED pitches of it."""
    edge = {}
    for n in range(1, 25):
        runs = profile["leds"]["p%d" % n]
        edge[n] = lay.led(runs[0][0], runs[0][1])
    faults = []
    reach = REACH_PITCHES * lay.pitch
    for n in range(1, 25):
        key = lay.keys.get("P%d" % n)
        if key is None:
            continue
        dist = {m: math.hypot(key.x - ex, key.y - ey) for m, (ex, ey) in edge.items()}
        nearest = min(dist, key=lambda m: (dist[m], m != n))
        if nearest != n:
            faults.append("mechanical.keys.P%d: at %s it is nearer point %d than its own point "
                          "%d" % (n, _at(key.x, key.y), nearest, n))
        elif dist[n] > reach:
            faults.append("mechanical.keys.P%d: at %s it is %s mm from its point's edge LED "
                          "at %s (at most %s mm, %d LED pitches)"
                          % (n, _at(key.x, key.y), _mm(dist[n]), _at(*edge[n]), _mm(reach),
                             REACH_PITCHES))
    return faults


def narrowest(lay):
    """(gap in mm, key, key) of the two keys closest together, or None with under two keys."""
    keys = list(lay.keys.values())
    best = None
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            gap = a.box.gap(b.box)
            if best is None or gap < best[0]:
                best = (gap, a, b)
    return best


def summary(profile):
    """One line on the top's layout for `bgboard hw check`."""
    if profile.get("mechanical") is None:
        return ("  top: no mechanical section, so whether the keys fit is not checked (see "
                "hardware/profiles/README.md)")
    lay = Layout(profile)
    counts = {}
    for key in lay.keys.values():
        counts[key.switch] = counts.get(key.switch, 0) + 1
    parts = ["%d switches %s x %s mm" % ((counts[s],) + tuple(_mm(v) for v in lay.switches[s]))
             for s in sorted(counts, key=lambda s: -counts[s])]
    line = "  top: %s enclosure, %s" % (_size(lay.enclosure), ", ".join(parts))
    best = narrowest(lay)
    if best:
        line += "; narrowest gap %s mm (%s-%s)" % (_mm(best[0]), best[1].name, best[2].name)
    return line


def _closeness(gap, clearance):
    if gap < 0:
        return "overlap by %s mm" % _mm(-gap)
    return "are %s mm apart, less than the %s mm clearance" % (_mm(gap), _mm(clearance))


def _mm(v):
    return ("%.1f" % v).rstrip("0").rstrip(".")


def _at(x, y):
    return "(%s, %s)" % (_mm(x), _mm(y))


def _size(box):
    return "%s x %s mm" % (_mm(box.w), _mm(box.h))
