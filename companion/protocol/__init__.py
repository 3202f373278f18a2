"""The token reader's serial protocol, version 1 (firmware-protocol/PROTOCOL.md), sans I/O.

Bytes in, typed messages out; messages in, bytes out. Standard library only (an
import-linter contract keeps it so): the firmware, the emulator and the adapter share it.
"""

from companion.protocol.codec import Decoder, Encoder, Received
from companion.protocol.frame import (
    MAX_PAYLOAD,
    MAX_WIRE,
    DecoderStats,
    Frame,
    FrameDecoder,
    crc16,
    decode_body,
    encode_frame,
)
from companion.protocol.messages import (
    ACK_BAD_PAYLOAD,
    ACK_CODES,
    ACK_NO_TAG,
    ACK_OK,
    ACK_UNKNOWN_TYPE,
    ACK_WRITE_FAILED,
    CAP_BUTTONS,
    CAP_BUZZER,
    CAP_LED,
    CAP_WRITE_TAGS,
    DEVICE_TO_HOST,
    HOST_TO_DEVICE,
    PRESS_LONG,
    PRESS_SHORT,
    PROTOCOL_VERSION,
    UID_LENGTHS,
    Ack,
    BadPayload,
    Beep,
    Button,
    Hello,
    HelloReq,
    Led,
    Malformed,
    Message,
    Ping,
    Placed,
    Presence,
    Removed,
    SlotReq,
    Status,
    StatusReq,
    Unknown,
    WriteTag,
    parse_message,
    presence_parts,
)

__all__ = [
    "ACK_BAD_PAYLOAD", "ACK_CODES", "ACK_NO_TAG", "ACK_OK", "ACK_UNKNOWN_TYPE", "ACK_WRITE_FAILED",
    "CAP_BUTTONS", "CAP_BUZZER", "CAP_LED", "CAP_WRITE_TAGS", "DEVICE_TO_HOST", "HOST_TO_DEVICE",
    "MAX_PAYLOAD", "MAX_WIRE", "PRESS_LONG", "PRESS_SHORT", "PROTOCOL_VERSION", "UID_LENGTHS",
    "Ack", "BadPayload", "Beep", "Button", "Decoder", "DecoderStats", "Encoder", "Frame",
    "FrameDecoder", "Hello", "HelloReq", "Led", "Malformed", "Message", "Ping", "Placed",
    "Presence", "Received", "Removed", "SlotReq", "Status", "StatusReq", "Unknown", "WriteTag",
    "crc16", "decode_body", "encode_frame", "parse_message", "presence_parts",
]
