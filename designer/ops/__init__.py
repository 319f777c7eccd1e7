"""The operations: one call per thing a user does, under every shell (the ``designer`` command,
a user's script, a server). Each takes typed values and returns typed results; each reports
progress through one callback type and stops through one cancel token
(``designer.core.control``: ``Update``, ``CancelToken``); none prints, parses text options or
exits. Output paths are checked before any work and written whole (``designer.formats.output``).

- ``design``: ``plan`` / ``plan_from`` and ``make``: a level or a pack (presets, curves, ``--from``);
- ``levels``: ``solve`` and ``analyze`` a level file;
- ``exports``: ``render`` a picture, ``export_tiled`` maps, ``write_play_page``;
- ``studies``: ``compare`` generators, the ``pareto`` front, ``records`` per rock count.

The modules are imported by name (``from designer.ops import design``), each bringing only what
its calls need.
"""
