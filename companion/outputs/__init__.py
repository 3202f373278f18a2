"""What goes out of the table: speech engines, the audio path, earcons, speakers and sound profiles."""
