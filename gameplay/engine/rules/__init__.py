"""One module per family of rules, so "how does eight below work" is one file to open."""
