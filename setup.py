"""Build the compiled kernels (everything else is in pyproject.toml)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("designer._kernels", ["designer/_kernels.c"], extra_compile_args=["-O2", "-std=c99"]),
    ]
)
