"""Plastic Ostfront: procedures and calculators, with their tables in data/."""
