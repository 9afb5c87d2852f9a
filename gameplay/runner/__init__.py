"""The match runner: bots seated at a table play whole games through the engine (match), and
tournaments' tables are drawn so that pairs meet evenly (pairing). Plain Python, no Django."""
