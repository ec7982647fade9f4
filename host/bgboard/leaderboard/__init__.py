"""The leaderboard: a web server that counts a ranked win only after replaying its record
(`app`, `service`, `db`), and the host tool's commands that register a board, put server
tickets on it and submit its records (`client`). `commands` wires them into `bgboard`."""
