"""Levels for people and for games.

- ``report``: the text report ``designer analyze`` prints;
- ``picture``: SVG and PNG pictures, contact sheets, the tileset image (``designer render``);
- ``tiled``: Tiled JSON maps (``designer export --to tiled``);
- ``play``: the self-contained playable page (``designer play``).
"""
