"""Each player's own private channel: a page on their phone (`WebHub`), shared seat claims
(`SeatBook`) with the second terminal (`companion.inputs.terminal`). See docs/private-channels.md."""

from .seats import SeatBook, SeatChannel, SeatClaimed, SeatLine, SeatReleased, release_target

__all__ = ["SeatLine", "SeatBook", "SeatChannel", "SeatClaimed", "SeatReleased", "release_target"]
