"""What two boards compare to know they agree: a digest of the public position at a ply
(docs/remote.md, rule 4). A stand-in and the true state have the same public part, so host and guest
compute the same digest from different states."""

from __future__ import annotations

import hashlib
import json

from controller.games import State
from controller.games.public import public_observation


def digest(state: State, ply: int) -> str:
    public, _ = public_observation(state)
    text = json.dumps({"ply": ply, "public": public}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
