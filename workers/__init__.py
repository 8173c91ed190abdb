"""What runs inside a Dask worker: the game engines, the players and deck evaluation."""
