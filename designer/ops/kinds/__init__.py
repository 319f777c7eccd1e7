"""The kinds of puzzle, one table each: a level (``LEVEL``: one start and one goal, with its
floors, portals, items and coins), a room of numbered doors (``ROOM``) and a cave of rooms with
keys (``CAVE``).

A table answers the protocol ``PuzzleKind`` (``designer.ops.kinds.protocol``): how its files are
told apart and read, how it is solved and analysed (its full clear too), and what a picture,
Tiled and the play page take of it. Every operation of ``designer.ops`` reads a file through
``designer.ops.kinds.registry.read`` and asks the kind it found (``registry.kind_of``), never the
class it holds; an export asks what its source file is (``designer.ops.kinds.files.file_kind``).
Each name is imported from the module that owns it: this package's face loads nothing, so a
level's work never loads a cave's table.

The kind's value types carry the facts every floor shares (``designer.core.grid.Grid``: its
``kind_name``, its ends and its routes as classic levels), and a design request's kind is a table
of its own (``designer.core.request_kinds``)."""
