"""A whole game from a plan (docs/spec.md, "Games"; ``designer game``): the plan (``plan``), the
mechanics its worlds teach (``mechanics``), teaching checked by ablation (``teach``), the styles
of layout (``styles``), the design of each world (``design``), and what a game writes: its files
and index (``files``), page (``page``), report (``report``) and Tiled project (``tiled``), all
driven by ``make.make_game``."""
