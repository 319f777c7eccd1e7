"""Measurements built on the designer.

- ``records``: the longest level per rock count, proven optimal where the search completes;
- ``compare``: generators side by side on the same requests, budget and verifier;
- ``bench``: benchmarks that print figures (speed targets live here, not in tests).
"""
