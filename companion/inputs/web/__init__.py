"""Each player's own private channel: a page on their phone (`WebHub`), shared seat claims
(`SeatBook`) with the second terminal (`companion.inputs.terminal`). See docs/private-channels.md."""

from .seats import Heard, SeatBook, SeatChannel, SeatClaimed, SeatReleased, release_target

__all__ = ["Heard", "SeatBook", "SeatChannel", "SeatClaimed", "SeatReleased", "release_target"]
