# bgapp: the board's application (a dispatcher over views, rendering, input, journal on flash,
# serial protocol). Hardware is reached only through the HAL object that bghal.open returns.
