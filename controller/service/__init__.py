"""`tafel run`: the long-running service on the board.

Configuration, backend choice (hardware or the simulated board), the scan loop, the journal that
keeps a game through a power cut, and systemd's readiness and watchdog notifications.
"""
