"""The project's own tools, by job: ``build`` (make site's steps and the code
they generate), ``hooks`` (mkdocs hooks, named in mkdocs.yml), ``bench`` (make
bench), ``support`` (the local site, the functions run in a page, the engine's
recorded answers). Run one from the project root as a module, ``python -m
scripts.build.build_pages``, so that it imports another as ``scripts.JOB.NAME``."""
