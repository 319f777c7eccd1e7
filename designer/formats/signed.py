"""Files the designer vouches for, as Jupyter vouches for the notebooks it trusts: an HMAC-SHA256
over a file's content, keyed by a secret made once per user and kept in the user's data folder
(``$XDG_DATA_HOME/ice-designer/secret``, else ``~/.local/share/ice-designer/secret``) with mode
0600. A file whose signature matches was written by this user's designer and not changed since;
any other (edited, copied from someone else, or written before signatures) is not, and whoever
reads it takes nothing in it on trust.

>>> content = {"records": {"1": {"min_stops": 5}}}
>>> signature = sign(content)
>>> vouched(content, signature) or signature is None   # None: no data folder to keep a secret in
True
>>> vouched({"records": {"1": {"min_stops": 9}}}, signature)
False
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

#: The file of the secret, in the data folder.
SECRET_NAME = "secret"
SECRET_BYTES = 32


def data_folder() -> Path:
    """The user's data folder of the designer (the XDG base directory rule)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return Path(base) / "ice-designer"


def secret() -> bytes | None:
    """This user's secret, made (mode 0600, atomically) the first time it is asked for; None when
    it can be neither read nor made (nothing is then vouched for)."""
    path = data_folder() / SECRET_NAME
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    except OSError:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(SECRET_BYTES))
    except FileExistsError:  # another run made it first: theirs is the secret
        pass
    except OSError:
        return None
    try:
        return _read(path)
    except OSError:
        return None


def _read(path: Path) -> bytes | None:
    """The secret in ``path``; None when it is not one, or others than its owner may read it."""
    info = path.stat()
    if info.st_mode & 0o077 or (hasattr(os, "getuid") and info.st_uid != os.getuid()):
        return None
    data = path.read_bytes()
    return data if len(data) == SECRET_BYTES else None


def canonical(content) -> bytes:
    """The bytes a signature covers: the JSON value with sorted keys and no spaces."""
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def sign(content) -> str | None:
    """The signature of a JSON value (hex), or None when this user has no secret."""
    key = secret()
    return None if key is None else hmac.new(key, canonical(content), hashlib.sha256).hexdigest()


def vouched(content, signature) -> bool:
    """Whether ``signature`` is this user's signature of ``content``."""
    if not isinstance(signature, str):
        return False
    expected = sign(content)
    return expected is not None and hmac.compare_digest(expected, signature)
