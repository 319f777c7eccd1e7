"""Build the compiled kernels, when a C compiler is there (everything else is in pyproject.toml).

The extension is optional: without a compiler (or without the Python headers) the install goes on
and designer runs on the numpy/Python twin of the kernels (designer/core/_pykernels.py), slower but
with the same results. `designer` says so once, on standard error.
"""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing when the C extension cannot be built."""

    def run(self):
        try:
            super().run()
        except Exception as exc:  # no compiler at all (DistutilsPlatformError and kin)
            self._skip(exc)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:  # the compiler failed (CompileError, LinkError, missing headers)
            self._skip(exc)

    @staticmethod
    def _skip(exc):
        print(f"warning: the compiled kernels were not built ({exc}); designer will use the slower "
              "pure-Python kernels", file=sys.stderr)


setup(
    ext_modules=[
        # one file a concern (designer/core/kernels.h): the bindings, then the kernels they call
        Extension("designer.core._kernels",
                  ["designer/core/_kernels.c"] + [f"designer/core/kernels_{concern}.c"
                                                  for concern in ("tables", "search", "anneal", "explain", "player")],
                  depends=["designer/core/kernels.h"], extra_compile_args=["-O2", "-std=c99"],
                  libraries=[] if sys.platform == "win32" else ["m"], optional=True),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
