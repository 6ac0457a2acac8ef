"""The web app: every system playable in the browser, sessions saved in SQLite. A thin face: pages and a
JSON API over the same library calls, no rule logic here."""
