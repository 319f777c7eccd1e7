"""``designer studio``: a local web app to paint a room, lock what you like, let the solver fill
the rest, and see the figures at once. A second shell over the operations (``designer.ops``):

- ``server``: the Starlette app and its guards (a token per start, the Host and Origin checked,
  a strict Content Security Policy, bounded bodies), served by uvicorn;
- ``fills``: each fill in a process of its own (``designer.ops.design.make``), its progress
  streamed, ended at once on cancel, on a closed page and when the server stops;
- ``static``: the page, its script and its styles.

It ships in the ``studio`` extra (Starlette and uvicorn); docs/studio.md is its guide.
"""
