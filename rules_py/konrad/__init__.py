"""Operation Konrad: procedures and calculators, with their tables in data/."""
