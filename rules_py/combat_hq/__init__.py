"""Combat HQ: procedures and calculators, with their tables in data/."""
