"""Remote play: boards that play one game through an MQTT broker, and the club relay (docs/remote.md).

The pure parts (messages, topics, the host that referees and the guest that follows) know no clock and
no network; `link.py` alone talks to the broker, on paho-mqtt's own thread, and hands what arrives
to the scan loop through a queue.
"""
