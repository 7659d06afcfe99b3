"""The learning environment (PettingZoo AEC, Gymnasium single-agent) and its action catalogue."""
