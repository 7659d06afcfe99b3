"""Research tools on top of the engine and the bots: the arena, process and Ray workers, training."""
