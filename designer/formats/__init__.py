"""Files: reading and writing levels and templates, and writing any output safely.

- ``level_files``: format detection, the JSON level ("ice-level"), reading from a path or stdin;
- ``template``: the ``--template`` sketch (canonical ASCII plus ``?``);
- ``output``: every output path checked before work, every file written whole.
"""
