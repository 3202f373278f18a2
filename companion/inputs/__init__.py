"""What the companion takes in: keyboard, terminals, readers, voice, seat pages."""
