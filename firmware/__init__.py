"""Firmware of the RP2040 scanner board (MicroPython): sensor scan and LED drive over USB serial.

The same files run on the board (copied to /firmware/, with main.py as /main.py) and under CPython,
where the host imports `firmware.proto` as its codec and the tests run the loop against fakes.
"""
