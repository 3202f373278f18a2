"""What comes into the table: keyboard, second terminal, seat pages, voice, token reader; each posts to the one inbox."""
