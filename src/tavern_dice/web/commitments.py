"""Dice anyone can verify: SHA-256 commitments to secret rolls.

Before anyone acts on a secret roll the server publishes ``digest``; at the
reveal it publishes the faces and the salt, and anyone recomputes the digest.
The canonical string is (see ``docs/web-protocol.md``)::

    {game_id}:{round}:{seat}:{faces}:{salt}

with ``seat`` a decimal seat number or ``house``, ``faces`` decimal faces joined
by ``,`` and ``salt`` 32 lowercase hex digits (16 random bytes).

>>> canonical("g_1", 3, 1, (3, 1, 6), "00" * 16)
'g_1:3:1:3,1,6:00000000000000000000000000000000'
>>> c = Commitment.make("g_1", 3, 1, (3, 1, 6), salt="ab" * 16)
>>> c.digest[:16]
'109fc02f6c4975c0'
>>> verify(c.digest, "g_1", 3, 1, (3, 1, 6), "ab" * 16)
True
>>> verify(c.digest, "g_1", 3, 1, (3, 1, 5), "ab" * 16)
False
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

HOUSE_SEAT = "house"
"""The ``seat`` field of a commitment to the house's dice (Dice Blackjack)."""

SALT_BYTES = 16
_SALT = re.compile(r"^[0-9a-f]{32}$")


def new_salt() -> str:
    """Return a fresh salt: 16 bytes from the OS's secure RNG as 32 lowercase hex digits."""
    return secrets.token_bytes(SALT_BYTES).hex()


def canonical(
    game_id: str, round_: int, seat: int | str, faces: Sequence[int], salt: str
) -> str:
    """The string whose SHA-256 is the commitment: ``game_id:round:seat:faces:salt``."""
    return f"{game_id}:{round_}:{seat}:{','.join(str(int(f)) for f in faces)}:{salt}"


def digest_of(game_id: str, round_: int, seat: int | str, faces: Sequence[int], salt: str) -> str:
    """Lowercase hex SHA-256 of :func:`canonical`."""
    text = canonical(game_id, round_, seat, faces, salt)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def verify(
    digest: str, game_id: str, round_: int, seat: int | str, faces: Sequence[int], salt: str
) -> bool:
    """Whether ``digest`` commits to ``faces`` for this game, round and seat with ``salt``.

    A malformed salt (not 32 lowercase hex digits) never verifies.
    """
    if not isinstance(salt, str) or not _SALT.match(salt):
        return False
    expected = digest_of(game_id, round_, seat, faces, salt)
    return hmac.compare_digest(expected, digest)


@dataclass(frozen=True, slots=True)
class Commitment:
    """One committed roll. ``seat`` is ``str(seat)`` or ``'house'``; faces stay server-side
    until :attr:`revealed`."""

    game_id: str
    round: int
    seat: str
    faces: tuple[int, ...]
    salt: str
    digest: str
    revealed: bool = False

    @staticmethod
    def make(
        game_id: str, round_: int, seat: int | str, faces: Sequence[int], salt: str | None = None
    ) -> Commitment:
        """Commit to ``faces`` with a fresh salt (or the given one)."""
        salt = new_salt() if salt is None else salt
        return Commitment(
            game_id, round_, str(seat), tuple(int(f) for f in faces), salt,
            digest_of(game_id, round_, seat, faces, salt),
        )

    def public(self) -> dict[str, Any]:
        """What may be published before the reveal: ``{"seat", "digest"}``."""
        return {"seat": self.seat, "digest": self.digest}

    def proof(self) -> dict[str, Any]:
        """What is published at the reveal: seat, faces, salt and digest."""
        return {"seat": self.seat, "faces": list(self.faces), "salt": self.salt,
                "digest": self.digest}
