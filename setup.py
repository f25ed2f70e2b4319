"""Build of the compiled double-dummy core; all package metadata is in pyproject.toml."""

import platform
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def cpu_flags() -> list[str]:
    """-mpopcnt when this x86-64 machine has the instruction (the solver counts
    bits at every node: about 7% of its time, docs/performance.md, "Double-dummy
    solver"). The core is compiled where it runs, so the build machine's CPU is
    the one that matters; without /proc/cpuinfo the portable code is used."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    try:
        info = Path("/proc/cpuinfo").read_text()
    except OSError:
        return []
    return ["-mpopcnt"] if " popcnt" in info else []



class BuildDDS(build_ext):
    """build_ext that says what is missing when the C core cannot be compiled."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # CCompilerError, DistutilsPlatformError, ...
            raise SystemExit(
                "cardtable: cannot compile the double-dummy solver core (engine/dds/src). "
                "Install a C compiler and the Python headers (Debian/Ubuntu: "
                "`apt-get install build-essential python3-dev`), then run "
                f"`pip install -e .` again. Cause: {exc}"
            ) from exc


setup(
    ext_modules=[
        Extension(
            "engine.dds._dds",
            sources=[
                "engine/dds/src/module.c",
                "engine/dds/src/solver.c",
                "engine/dds/src/bounds.c",
                "engine/dds/src/order.c",
                "engine/dds/src/tt.c",
            ],
            depends=[
                "engine/dds/src/solver.h",
                "engine/dds/src/bounds.h",
                "engine/dds/src/masks.h",
                "engine/dds/src/order.h",
                "engine/dds/src/tt.h",
            ],
            extra_compile_args=["-O3", "-std=c99", *cpu_flags()],
        ),
        # The seeded shuffle (engine/rng.py); optional at run time.
        Extension(
            "engine._rng",
            sources=["engine/_rng.c"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        # FrozenAction.get as the class's own method (engine/actions.py); optional.
        Extension(
            "engine._actions",
            sources=["engine/_actions.c"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        # Gin's least-deadwood search (rules/rummy/least.py); optional at run time.
        Extension(
            "rules.rummy._deadwood",
            sources=["rules/rummy/_deadwood.c"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        # The best-arrangement search (rules/rummy/search.py); optional at run time.
        Extension(
            "rules.rummy._arrange",
            sources=["rules/rummy/_arrange.c", "rules/rummy/_arrange_moves.c"],
            depends=["rules/rummy/_arrange.h"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        # Bridge card play's hot step (rules/bridge/play.py); optional at run time.
        Extension(
            "rules.bridge._play",
            sources=["rules/bridge/_play.c"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        # The poker evaluator's lookups (rules/poker/evaluator.py); optional at run time.
        Extension(
            "rules.poker._eval",
            sources=["rules/poker/_eval.c"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
    ],
    cmdclass={"build_ext": BuildDDS},
)
