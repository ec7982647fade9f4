# bgcore.scan_native's `delta` in the chip's own instructions (MicroPython's inline Thumb
# assembler, ARMv6-M: the RP2040's Cortex-M0+): work = acc, then the first-layer rows that
# `changes` listed for a play added (2 * row) or removed (2 * row + 1), each row's count in
# work[h]. The same integers as the viper version, which the chip runs at about 100 cycles a
# weight (a row of 32 weights: ~27 us); this one takes a few (a play's ~9 rows: 290 -> 70 us
# a call on the emulated RP2040). Compiled by bgcore.bot at import where the assembler exists
# (bgcore.native returns None elsewhere: the viper version stays); see bgcore.bot for ctx's
# layout (3 the hidden size, 99 where the list ends, from 104 the list).

SOURCE = """
@micropython.asm_thumb
def delta(r0, r1, r2, r3):
    # r0 work, r1 acc (int32), r2 ctx (int32), r3 the first layer's weights (bytes, h a row)
    ldr(r4, [r2, 12])       # r4 = h, for the whole call
    mov(r5, r0)
    mov(r6, r1)
    add(r7, r4, 1)
    label(copy)             # work[0..h] = acc[0..h]
    ldr(r1, [r6, 0])
    str(r1, [r5, 0])
    add(r5, 4)
    add(r6, 4)
    sub(r7, 1)
    bne(copy)
    mov(r5, r2)
    add(r5, 252)
    add(r5, 144)            # r5 = &ctx[99]
    ldr(r1, [r5, 0])
    add(r5, 20)             # r5 = &ctx[104], the list
    sub(r1, 104)            # r1 = the rows listed
    label(rows)
    cmp(r1, 0)
    beq(done)
    ldr(r6, [r5, 0])        # 2 * row, + 1 to remove it
    add(r5, 4)
    sub(r1, 1)
    push({r0, r1})
    mov(r2, r0)             # r2 walks work
    lsr(r7, r6, 1)
    mul(r7, r4)
    add(r7, r7, r3)         # r7 walks the row's weights
    mov(r1, r4)             # r1 counts them
    lsl(r6, r6, 31)
    bmi(minus)
    label(plus)
    ldrb(r6, [r7, 0])
    ldr(r0, [r2, 0])
    add(r0, r0, r6)
    str(r0, [r2, 0])
    add(r2, 4)
    add(r7, 1)
    sub(r1, 1)
    bne(plus)
    ldr(r0, [r2, 0])        # work[h] += 1
    add(r0, 1)
    str(r0, [r2, 0])
    pop({r0, r1})
    b(rows)
    label(minus)
    ldrb(r6, [r7, 0])
    ldr(r0, [r2, 0])
    sub(r0, r0, r6)
    str(r0, [r2, 0])
    add(r2, 4)
    add(r7, 1)
    sub(r1, 1)
    bne(minus)
    ldr(r0, [r2, 0])        # work[h] -= 1
    sub(r0, 1)
    str(r0, [r2, 0])
    pop({r0, r1})
    b(rows)
    label(done)
"""
