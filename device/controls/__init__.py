"""Buttons, LEDs and buzzer (gpiozero) and a keyboard stand-in, as one event queue."""
