"""A records run's checkpoint: the records proven so far and the shards of the proof under way,
saved after each, read back only when well formed, and each level verified again before it is
trusted (``Checkpoint``); the request for a rock count (``record_request``)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from designer.analysis.graph import analyze
from designer.analysis.verify import meets
from designer.core.errors import DesignerError, LevelError
from designer.core.limits import MAX_CELLS, fits_seconds
from designer.core.request import LayoutRequest
from designer.formats.level_json import level_from_json
from designer.formats.output import write
from designer.formats.reading import decode_text, load_json, read_bytes
from designer.formats.signed import sign, vouched
from designer.search.engines import exhaustive
from designer.search.tuning import SAVE_EVERY

CHECKPOINT_VERSION = 2  # 2: shards keyed by (rocks, first, second)


def record_request(height: int, width: int, frame: bool, rocks: int) -> LayoutRequest:
    """Any strong reversible level of at most ``rocks`` placed rocks (frame rocks not counted)."""
    return LayoutRequest(height=height, width=width, frame=frame, min_stops=1, max_rocks=rocks)


def _shard_key(text: str) -> tuple[int, int, int]:
    """A shard's key as the checkpoint writes it: "rocks,first,second"."""
    rocks, first, second = map(int, text.split(","))
    return rocks, first, second


class Checkpoint:
    """Progress of a records run in a JSON file, rewritten atomically after every step and signed
    (``designer.formats.signed``). A file whose signature does not match is read as untrusted:
    ``verify`` keeps its levels only once they are checked again, and drops every proof claim and
    every shard's progress in it, to be done again (``note`` says so)."""

    def __init__(self, path: Path | None, key: dict):
        self.path, self.key = path, key
        self.saved_at = time.perf_counter()
        self.records: dict[int, dict] = {}
        self.partial: dict[
            int, dict
        ] = {}  # rocks -> {"bound": level json | None, "threshold": t, "shards": {...}}
        self.trusted = True  # a new checkpoint is this run's own
        self.note: str | None = None
        if path is not None and path.exists():
            self._load()

    def _load(self) -> None:
        try:
            assert self.path is not None  # loaded only from a path
            state = load_json(decode_text(read_bytes(self.path, "records checkpoint")))
            _need(isinstance(state, dict), "not a JSON object")
            signature = state.pop("signature", None)
            if state.get("version") != CHECKPOINT_VERSION or state.get("key") != self.key:
                raise DesignerError(
                    f"{self.path}: the checkpoint is for another run "
                    f"({json.dumps(state.get('key'))[:120]}); remove it or pick another file"
                )
            _need(
                isinstance(state.get("records"), dict) and isinstance(state.get("partial"), dict),
                "no records and progress objects",
            )
            self.records = {_rock_count(k): v for k, v in state["records"].items()}
            self.partial = {_rock_count(k): v for k, v in state["partial"].items()}
            for rocks, stored in self.records.items():
                _well_formed_record(rocks, stored)
            for rocks, stored in self.partial.items():
                _well_formed_partial(rocks, stored)
            self.trusted = vouched(state, signature)
        except LevelError as exc:  # unreadable, too large, nested too deeply, not JSON
            message = str(exc).removeprefix(f"{self.path}: ")
            raise DesignerError(
                f"{self.path}: not a records checkpoint ({message})"[:300]
            ) from None
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise DesignerError(f"{self.path}: not a records checkpoint ({reason})"[:300]) from None

    def verify(self, height: int, width: int, frame: bool) -> list[int]:
        """Take nothing on trust. Progress of a proof where no proof applies, or with a shard the
        proof does not have, is refused (DesignerError). An untrusted file loses every proof
        claim and every shard's progress. Then every finished record whose level fails the
        verifier, or whose stops or rock count disagree with its level, and every record that
        claims no level exists, is dropped, to be found again; so is a count in progress whose
        lower bound fails, or whose threshold is not one above its bound. Returns the rock counts
        dropped."""
        for rocks, state in self.partial.items():
            self._valid_progress(record_request(height, width, frame, rocks), rocks, state)
        if not self.trusted:
            self.note = (
                f"{self.path}: the checkpoint is not signed by this user's designer (edited, copied or "
                "older): its levels are checked again, its proofs and progress redone"
            )
            for (
                stored
            ) in self.records.values():  # kept as levels to beat, tried again (no limit known)
                stored.update(proven_optimal=False, time_limit=None, seconds=0.0)
            self.partial.clear()
        dropped = []
        for rocks, stored in list(self.records.items()):
            level = level_from_json(stored["level"]) if stored["level"] is not None else None
            request = record_request(height, width, frame, rocks)
            report = analyze(level) if level is not None else None
            if (
                level is None
                or report is None
                or stored["rocks"] != rocks
                or not meets(request, level, report)
                or report.min_stops != stored["min_stops"]
            ):
                del self.records[rocks]
                dropped.append(rocks)
        for rocks, state in list(self.partial.items()):
            bound = level_from_json(state["bound"]) if state["bound"] is not None else None
            request = record_request(height, width, frame, rocks)
            report = analyze(bound) if bound is not None else None
            stops = (
                report.min_stops
                if bound is not None and report is not None and meets(request, bound, report)
                else None
            )
            if (bound is not None and stops is None) or state["threshold"] != (stops or 0) + 1:
                del self.partial[rocks]
                dropped.append(rocks)
        return sorted(set(dropped))

    def _valid_progress(self, request: LayoutRequest, rocks: int, state: dict) -> None:
        """Refuse progress that no run of this request can have written."""

        def refuse(what: str) -> None:
            raise DesignerError(f"{self.path}: not a records checkpoint ({what})")

        if not exhaustive.applies(request):
            refuse(f"progress of a proof for {rocks} rocks, where no proof applies")
        keys = set(exhaustive.shard_keys(request))
        cells = request.height * request.width
        for text, value in state["shards"].items():
            key = tuple(map(int, text.split(",")))
            stops, ties, mask, start, goal, layouts, complete = value
            if key not in keys:
                refuse(f"shard {text} is not a shard of the proof for {rocks} rocks")
            ends = (-1, -1) if stops < 0 else (0, 0)  # nothing found: no ends
            if not (
                -1 <= stops <= cells * 4
                and 0 <= ties
                and 0 <= mask < 2 ** len(request.free_cells())
                and all(low <= end < cells for low, end in zip(ends, (start, goal)))
                and 0 <= layouts
                and type(complete) is bool
            ):
                refuse(f"shard {text} holds a value out of range")

    def save(self) -> None:
        self.saved_at = time.perf_counter()
        if self.path is None:
            return
        state = {
            "version": CHECKPOINT_VERSION,
            "key": self.key,
            "records": {str(k): v for k, v in self.records.items()},
            "partial": {str(k): v for k, v in self.partial.items()},
        }
        signature = sign(state)
        if signature is not None:
            state["signature"] = signature
        write(self.path, json.dumps(state), force=True)

    def shards(self, rocks: int) -> dict[tuple[int, int, int], tuple]:
        stored = self.partial.get(rocks, {}).get("shards", {})
        return {_shard_key(key): tuple(value) for key, value in stored.items()}

    def add_shard(self, rocks: int, key: tuple[int, int, int], result: tuple) -> None:
        """Keep a finished shard; the file is rewritten at most every ``SAVE_EVERY`` seconds (and
        by ``save`` when the run ends or stops), so that writing never holds the search up."""
        self.partial[rocks]["shards"][",".join(map(str, key))] = [
            int(v) if not isinstance(v, bool) else v for v in result
        ]
        if time.perf_counter() - self.saved_at >= SAVE_EVERY:
            self.save()


def _need(condition: bool, what: str) -> None:
    if not condition:
        raise ValueError(what)


def _is_int(value) -> bool:
    return type(value) is int


def _rock_count(text: str) -> int:
    """A rock count's key: a whole number from 0 to the most a grid has."""
    _need(
        isinstance(text, str) and text.isdigit() and len(text) <= 7 and int(text) <= MAX_CELLS,
        f"{text[:20]!r} is not a rock count",
    )
    return int(text)


def _well_formed_record(rocks: int, stored) -> None:
    """A finished record's shape (its evidence is checked by ``Checkpoint.verify``)."""
    fields = {"rocks", "min_stops", "proven_optimal", "seconds", "level"}
    _need(
        isinstance(stored, dict)
        and set(stored) - {"time_limit"} == fields,  # no limit: made before it was kept
        f"the record for {rocks} rocks is not a record object",
    )
    limit = stored.get("time_limit")
    _need(
        _is_int(stored["rocks"])
        and (stored["min_stops"] is None or _is_int(stored["min_stops"]))
        and type(stored["proven_optimal"]) is bool
        and fits_seconds(stored["seconds"])
        and (limit is None or fits_seconds(limit)),
        f"the record for {rocks} rocks has a field of the wrong type or out of range",
    )
    if stored["level"] is not None:
        level_from_json(stored["level"])


def _well_formed_partial(rocks: int, state) -> None:
    """A count in progress's shape: its bound, threshold, finished shards and seconds."""
    _need(
        isinstance(state, dict) and set(state) == {"bound", "threshold", "shards", "seconds"},
        f"the progress for {rocks} rocks is not a progress object",
    )
    _need(
        _is_int(state["threshold"])
        and 1 <= state["threshold"] <= 4 * MAX_CELLS
        and fits_seconds(state["seconds"])
        and isinstance(state["shards"], dict),
        f"the progress for {rocks} rocks has a field of the wrong type or out of range",
    )
    if state["bound"] is not None:
        level_from_json(state["bound"])
    for key, value in state["shards"].items():
        parts = key.split(",")
        _need(
            len(parts) == 3 and all(p.lstrip("-").isdigit() and len(p) <= 8 for p in parts),
            f"shard key {key[:20]!r} is not R,A,B",
        )
        _need(
            isinstance(value, list)
            and len(value) == 7
            and all(type(v) in (int, bool) for v in value),
            f"shard {key} is not 7 numbers",
        )
