"""Each player's own page on their phone, and the network edge it shares with `companion serve`."""
