# bgapp: the board's application (state machine, rendering, input, journal on flash, serial
# protocol). Hardware is reached only through the HAL object that bghal.open returns.
