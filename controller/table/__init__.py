"""The physical table: from sensor readings to committed moves and LED frames.

The board map (fields to sensor channels and LEDs), the tracker (move inference), the LED composer
and its palette, the session that ties them to the hardware protocols, and the card table's
companion. Pure: time is a parameter, nothing here sleeps or opens a device.
"""
