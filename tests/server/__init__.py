"""Tests of the game server (gouji.server)."""
