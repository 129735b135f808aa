from tests.firmware.harness import firmware_main

__all__ = ["firmware_main"]
