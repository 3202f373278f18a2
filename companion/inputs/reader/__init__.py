"""The token reader in play (issue #14): tokens laid on the reader become the same moves as
typed ones.

* `play.ReaderPlay` — pure (no I/O): the session core hands it each reader event
  (`SessionCore._device`) and the lines that are the reader's own words (« c'est quoi ? »,
  « annule la lecture », « lecteur »); it acts through the core, so the journal is the same
  as a typed game's.
* `pairs` — the user's map from a tag's UID to the token it stands for (`companion reader
  pair`), saved atomically in the user's data folder.
* `run` — starts one `TokenReader` per `--reader PORT[=SEAT]`, posting to the inbox.
* `cli` — `companion reader write PORT` and `companion reader pair PORT`: spoken, one token at
  a time.
"""
