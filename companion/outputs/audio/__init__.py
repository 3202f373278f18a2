"""The one audio path: the priority policy, the player thread, the sinks and the WAV format."""
