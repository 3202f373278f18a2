"""Saves: the journal format, its writer, scan and resume, and crash-safe small files."""
