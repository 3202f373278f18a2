"""The table's names in one place, for inputs and channels that plug into it.

A page, a second terminal or a private speaker is a `Channel`; it joins a seat by posting
`Device(SeatClaimed(seat, channel), source)` to the `Inbox` (and leaves with
`SeatReleased`). The implementation lives in `companion.session` (core, table, loop).
"""

from __future__ import annotations

from companion.inbox import BotMove, Closed, Device, Inbox, Line, SeatClaimed, SeatReleased, Tick
from companion.session.core import Seat, SessionCore
from companion.session.loop import TableLoop
from companion.session.outputs import Output, Say
from companion.session.table import Channel, SpeakerChannel, Table

__all__ = ["BotMove", "Channel", "Closed", "Device", "Inbox", "Line", "Output", "Say", "Seat", "SeatClaimed",
           "SeatReleased", "SessionCore", "SpeakerChannel", "Table", "TableLoop", "Tick"]
