"""mkdocs hooks, loaded by their path from mkdocs.yml: each may import a module beside it by its bare name (mkdocs puts a hook's folder on its path)."""
