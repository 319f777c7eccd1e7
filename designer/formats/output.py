"""Writing results: every output path checked before any work, and every file written whole.

- ``check_file(path, force)`` refuses, with one line, whatever a later write would fail on: an
  empty name, a folder, a name ending in ``/``, a missing or unwritable folder, an existing file
  without ``force``, a block device or a socket.
- ``write(path, data, force)`` writes a regular file atomically (a temporary file beside it, then
  a rename), so a reader never sees half a file. A new file gets the mode the umask allows; a
  replaced one keeps its mode. A character device or a FIFO (``/dev/null``, a terminal, a named
  pipe) is never replaced: it is written directly, and needs no ``force``, since writing to it
  overwrites nothing. A path naming one of this process's open descriptors (``/dev/stdout``,
  ``/dev/stderr``, ``/dev/fd/N``, ``/proc/self/fd/N``) is written through that descriptor, where
  the shell opened it: ``-o /dev/stdout >> log`` appends to the log and never replaces it.
- ``beside(path, name)``: where a file that goes with ``path`` is written (beside the real file
  when ``path`` is a symbolic link).
- ``folder(path, names, force)`` prepares a folder for a pack and removes it again when it made
  the folder and nothing was written into it.

Failures are ``DesignerError`` with one line (status 2 on the command line), never a traceback.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

from designer.core.errors import DesignerError


def _no_nul(text: str, option: str) -> None:
    if "\x00" in text:
        raise DesignerError(f"{option} {text!r}: a file name cannot hold a NUL character")


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _stat(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise DesignerError(f"{path}: cannot use it ({_reason(exc)})") from None


def _streamed(info: os.stat_result | None) -> bool:
    """Written in place, never replaced: character devices and FIFOs."""
    return info is not None and (stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode))


_DESCRIPTOR = re.compile(r"/(?:dev/fd|proc/(?:self|thread-self|(?P<pid>\d+))/fd)/(?P<fd>\d+)")
_STANDARD = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


def descriptor(path: str | Path) -> int | None:
    """The open descriptor of this process that ``path`` names (``/dev/stdout``, ``/dev/fd/N``,
    ``/proc/self/fd/N``, or a link to one of them), or None for any other path.

    >>> descriptor("/dev/stdout"), descriptor("/proc/self/fd/7"), descriptor("out.txt")
    (1, 7, None)
    """
    text = os.path.abspath(str(path))
    for _ in range(40):  # links to links, as the kernel allows
        if text in _STANDARD:
            return _STANDARD[text]
        named = _DESCRIPTOR.fullmatch(text)
        if named:
            pid = named.group("pid")
            return int(named.group("fd")) if pid is None or int(pid) == os.getpid() else None
        try:
            link = os.readlink(text)
        except OSError:
            return None
        text = os.path.normpath(os.path.join(os.path.dirname(text), link))
    return None


def _open_descriptor(fd: int, target: Path) -> None:
    try:
        os.fstat(fd)
    except OSError:
        raise DesignerError(f"{target}: descriptor {fd} is not open") from None


def _write_descriptor(fd: int, target: Path, payload: bytes) -> None:
    """Write through a descriptor the shell opened, at its offset (or at the end when it was
    opened for append); never reopened, truncated or replaced."""
    for stream in (sys.stdout, sys.stderr):  # what Python buffered for it goes out first
        try:
            if stream is not None and stream.fileno() == fd:
                stream.flush()
        except (OSError, ValueError):
            pass
    view = memoryview(payload)
    try:
        while view:
            view = view[os.write(fd, view) :]
    except OSError as exc:
        raise DesignerError(f"{target}: cannot write ({_reason(exc)})") from None


def beside(path: str | Path, name: str) -> Path:
    """Where a file named ``name`` that goes with ``path`` is written: in the folder of the file
    ``path`` really is (a symbolic link's target), since that is where a reader of it looks.

    >>> str(beside("maps/level.tmj", "tiles.png"))
    'maps/tiles.png'
    """
    target = Path(path)
    real = Path(os.path.realpath(target)) if target.is_symlink() else target
    return real.parent / name


def _probe_folder(folder: Path) -> None:
    """Refuse a folder where no file can be created (read-only, /proc, /sys, no permission)."""
    try:
        handle, temp = tempfile.mkstemp(prefix=".designer-probe.", dir=folder)
    except OSError as exc:
        raise DesignerError(f"{folder}: cannot write there ({_reason(exc)})") from None
    os.close(handle)
    os.unlink(temp)


def check_file(
    path: str | Path, *, force: bool = False, option: str = "-o", suffixes: tuple[str, ...] = ()
) -> Path:
    """Check an output file before any work is done; return it as a Path. With ``suffixes``, its
    name must end in one of them (the format is the suffix)."""
    text = str(path)
    if not text:
        raise DesignerError(f"{option}: the file name is empty")
    _no_nul(text, option)
    if text.endswith(("/", os.sep)):
        raise DesignerError(f"{option} {text}: names a folder; give a file name")
    target = Path(text)
    fd = descriptor(target)
    if fd is not None:  # a stream the shell opened: any format, no --force, written in place
        _open_descriptor(fd, target)
        return target
    info = _stat(target)
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise DesignerError(f"{target} is a folder; give a file name")
    # a stream takes any format
    if suffixes and target.suffix.lower() not in suffixes and not _streamed(info):
        raise DesignerError(f"{option} {text}: the file is written as FILE{suffixes[0]}")
    if info is not None:
        if _streamed(info):
            return target
        if not stat.S_ISREG(info.st_mode):
            raise DesignerError(f"{target} is a special file that designer will not write to")
        if not force:
            raise DesignerError(f"{target} already exists (use --force to overwrite it)")
    folder = target.parent
    folder_info = _stat(folder)
    if folder_info is None:
        raise DesignerError(f"{folder}: no such directory")
    if not stat.S_ISDIR(folder_info.st_mode):
        raise DesignerError(f"{folder} is not a directory")
    _probe_folder(folder)
    return target


def _new_file_mode() -> int:
    """The mode ``open()`` would give a new file: 0666 less the umask."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write(path: str | Path, data: str | bytes, *, force: bool = False) -> None:
    """Write ``data`` to ``path`` whole: atomically for a regular file, directly for a stream."""
    target = Path(path)
    payload = data.encode() if isinstance(data, str) else data
    fd = descriptor(target)
    if fd is not None:
        _open_descriptor(fd, target)
        _write_descriptor(fd, target, payload)
        return
    info = _stat(target)
    if _streamed(info):
        try:
            with open(target, "wb") as out:
                out.write(payload)
        except OSError as exc:
            raise DesignerError(f"{target}: cannot write ({_reason(exc)})") from None
        return
    check_file(target, force=force)
    # Through a symbolic link, replace the file it points to and keep the link.
    real = Path(os.path.realpath(target)) if target.is_symlink() else target
    try:
        handle, temp = tempfile.mkstemp(prefix=f".{real.name}.", dir=real.parent)
    except OSError as exc:
        raise DesignerError(f"{real.parent}: cannot write there ({_reason(exc)})") from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        if info is not None:
            os.chmod(temp, stat.S_IMODE(info.st_mode))
            if os.geteuid() == 0 and (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
                os.chown(temp, info.st_uid, info.st_gid)
        else:
            os.chmod(temp, _new_file_mode())
        if force:
            os.replace(temp, real)
        else:
            _create_new(temp, real, payload)
    except FileExistsError:
        Path(temp).unlink(missing_ok=True)
        raise DesignerError(f"{target} already exists (use --force to overwrite it)") from None
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise DesignerError(f"{target}: cannot write ({_reason(exc)})") from None
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _create_new(temp: str, real: Path, payload: bytes) -> None:
    """Put the whole file ``temp`` at ``real``, which must not exist (FileExistsError when another
    process made it since the check): a hard link is created only where no file is, so two
    writers of one new path cannot both succeed. Where the file system has no hard links, the
    file is created exclusively and written in place."""
    try:
        os.link(temp, real)
    except FileExistsError:
        raise
    except OSError:
        with open(real, "xb") as out:
            out.write(payload)
    os.unlink(temp)


def check_folder(path: str | Path, names: list[str], *, force: bool = False) -> list[Path]:
    """Check a pack folder before any work: the files ``names`` inside it, as ``check_file`` would.
    A name may lie in a subfolder (``maps/one.tmj``, as a Tiled world names its maps): ``folder``
    makes what is missing of it."""
    text = str(path)
    if not text:
        raise DesignerError("--out: the folder name is empty")
    _no_nul(text, "--out")
    folder = Path(text)
    info = _stat(folder)
    if info is None:
        parent = folder.parent
        parent_info = _stat(parent)
        if parent_info is None or not stat.S_ISDIR(parent_info.st_mode):
            raise DesignerError(f"{parent}: no such directory")
        _probe_folder(parent)
        return [folder / name for name in names]
    if not stat.S_ISDIR(info.st_mode):
        raise DesignerError(f"{folder} exists and is not a directory")
    found = []
    for name in names:
        target, below = folder / name, folder
        for part in Path(name).parent.parts:  # the subfolders that exist: folders, not files
            below = below / part
            sub = _stat(below)
            if sub is None:
                break
            if not stat.S_ISDIR(sub.st_mode):
                raise DesignerError(f"{below} exists and is not a directory")
        else:
            found.append(check_file(target, force=force, option="--out"))
            continue
        found.append(target)  # its subfolder is made by ``folder``
    return found


@contextmanager
def folder(path: str | Path, files: tuple[Path, ...] | list[Path] = ()):
    """Create ``path`` if it is missing, and the subfolders inside it that ``files`` lie in; if
    this made them and they are still empty when the block fails (an error, a failed design,
    Ctrl-C), remove them again, so nothing is left behind."""
    target = Path(path)
    made: list[Path] = []

    def make(where: Path) -> None:
        if where.is_dir():
            return
        if where != target:
            make(where.parent)
        try:
            where.mkdir(parents=False)
        except OSError as exc:
            _remove_empty(made)
            raise DesignerError(f"{where}: cannot create the folder ({_reason(exc)})") from None
        made.append(where)

    make(target)
    for file in files:
        if target in file.parents:
            make(file.parent)
    try:
        yield target
    except BaseException:
        _remove_empty(made)
        raise


def _remove_empty(made: list[Path]) -> None:
    for one in reversed(made):  # the deepest first
        try:
            one.rmdir()  # only succeeds when empty
        except OSError:
            pass
