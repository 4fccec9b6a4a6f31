"""make site's steps, and the code they generate (README: Commands; guides/publishing.md)."""
