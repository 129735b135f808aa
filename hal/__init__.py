"""Hardware boundary: small protocols for sensors, pixels and inputs, and the Pi backends.

Imports nothing of `controller` or `sim`; hardware libraries are imported lazily inside backends.
"""
