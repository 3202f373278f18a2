"""The token reader in play (issue #14): tokens laid on the reader become the same moves as
typed ones.

* `play.ReaderPlay` — pure (no I/O), an extension of the session core
  (`companion.session.extension`, `SessionCore.extend`): the core hands it each reader event
  and the lines it registered as its own words (« c'est quoi ? », « annule la lecture »,
  « lecteur »); it plays and speaks through the core's public `Seam`, so the journal is the
  same as a typed game's. What a game knows of its tokens is the game's (`GameUI.tokens`).
* `pairs` — the user's map from a tag's UID to the token it stands for (`companion reader
  pair`), saved atomically in the user's data folder.
* `run` — starts one `TokenReader` per `--reader PORT[=SEAT]`, posting to the inbox.
* `cli` — `companion reader write PORT` and `companion reader pair PORT`: spoken, one token at
  a time.
"""
