# Run by MicroPython: the firmware's own profile check over the given profile files. Prints one
# JSON line per file: [file name, list of faults] or [file name, "ValueError: ..."].
import json
import sys

from bghal import profile

for path in sys.argv[1:]:
    name = path.split("/")[-1]
    try:
        result = profile.check(profile.load(path))
    except ValueError as e:
        result = "ValueError: " + str(e)
    print(json.dumps([name, result]))
