"""ice-designer: design, solve and analyse sliding-ice puzzles.

The level type and its formats, the sliding rule, the solver and the analyses are plain
functions over ``Level``; the ``designer`` command is a thin shell over them.
"""

from designer.errors import DesignerError, LevelError
from designer.level import ICE, ROCK, SNOW, Level

__all__ = ["DesignerError", "ICE", "Level", "LevelError", "ROCK", "SNOW"]
__version__ = "0.1.0"
