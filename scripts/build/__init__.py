"""make site's steps, and the code they generate (README: Commands, Publishing)."""
