"""A braille seat: one player reads and plays on their own refreshable braille display (BrlAPI)."""
