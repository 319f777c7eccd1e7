"""The puzzle itself and what every other room builds on.

- ``level``: the level value type and its canonical ASCII form (dialects too);
- ``rules``: the sliding rule (slide tables, replaying moves);
- ``request``: ``LayoutRequest``, what a designer is asked for, with its JSON form;
- ``space``: ``LayoutSpace``, a request's cells as flat arrays, and its budget filter;
- ``budget``: ``Budget``, the one clock of a piece of work;
- ``kernels``: the compiled kernels (``_kernels.c``) and their numpy/Python twin (``_pykernels``);
- ``errors``: the exceptions a refusal raises;
- ``extras``: the optional parts of the install, loaded with a one-line message when missing.
"""
