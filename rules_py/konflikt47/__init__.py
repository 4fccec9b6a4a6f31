"""Konflikt '47: procedures and calculators, with their tables in data/."""
