# A 3x5 pixel font for text on the LED panel (the name entry, the best-wins view): the characters
# a name may hold. Each glyph is five rows of three pixels, one octal digit a row (4 = left).

_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-. "
_ROWS = ("25755" "65656" "34443" "65556" "74647" "74644" "34553" "55755" "72227" "11152"
         "55655" "44447" "57755" "65555" "25552" "65644" "25563" "65655" "34216" "72222"
         "55557" "55552" "55775" "55255" "55222" "71247" "75557" "26227" "61247" "61216"
         "55711" "74616" "34757" "71222" "75757" "75716" "00700" "00002" "00000")


def text(r, s, x, y, rgb):
    """Draw `s` on renderer r's frame with its top left pixel at (x, y); characters 4 pixels
    apart. Pixels off the panel are left out."""
    w = r.w
    h = r.h
    for c in s:
        i = _CHARS.find(c)
        if i >= 0:
            for row in range(5):
                bits = ord(_ROWS[i * 5 + row]) - 48
                yy = y + row
                for col in range(3):
                    if bits & (4 >> col) and 0 <= x + col < w and 0 <= yy < h:
                        r.put(yy * w + x + col, rgb)
        x += 4
