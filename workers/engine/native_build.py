"""`python -m workers.engine.native_build [--status]`: compile the engine's core with mypyc
(see native.py) unless the build there was made from the current sources, or say whether this
process would play with it."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from .native import (C_EXTENSIONS, COMPILED_MODULES, DIGEST_FILE, GROUP, NATIVE_DIR, ROOT, built_digest,
                     compiled, sources_digest)


def build(native_dir: Path = NATIVE_DIR) -> None:
    """Compile COMPILED_MODULES and C_EXTENSIONS into `native_dir`, replacing what was there
    only once the build succeeded (processes that loaded the old modules keep them)."""
    from mypyc.build import mypycify  # the dev extra's mypy; imported only to build
    from setuptools import Distribution, Extension

    digest = sources_digest()
    work = native_dir.with_name(f"{native_dir.name}.building-{os.getpid()}")
    shutil.rmtree(work, ignore_errors=True)
    here = Path.cwd()
    os.chdir(ROOT)  # mypyc names each module from its path: workers/engine/state.py
    try:
        # Type errors in the compiled modules stop the build; the modules they import (card
        # data, scripts) are read for their types only.
        options = ["--follow-imports=silent", "--ignore-missing-imports"]
        extensions = mypycify(options + list(COMPILED_MODULES),
                              opt_level="3", group_name=GROUP, target_dir=str(work / "c"))
        # The group is one C file. In a shared library gcc otherwise assumes that any exported
        # function may be replaced at load time, so every call between the group's functions
        # (a small shared method such as Minion.can_attack too) went through the PLT and none
        # could be inlined; with the flag gcc inlines where it finds it pays.
        for ext in extensions:
            ext.extra_compile_args = list(ext.extra_compile_args) + ["-fno-semantic-interposition"]
        # -ffp-contract=off: no multiply and add fused into one rounding (the same bits as Python)
        extensions += [Extension(path[:-2].replace("/", "."), [path], libraries=["m"],
                                 extra_compile_args=["-ffp-contract=off"]) for path in C_EXTENSIONS]
        dist = Distribution({"name": "dsame-engine-native", "ext_modules": extensions})
        command = dist.get_command_obj("build_ext")
        command.build_lib = str(work / "lib")
        command.build_temp = str(work / "obj")
        dist.run_command("build_ext")
        (work / "lib" / DIGEST_FILE).write_text(digest + "\n")
        shutil.rmtree(native_dir, ignore_errors=True)
        native_dir.parent.mkdir(parents=True, exist_ok=True)
        os.replace(work / "lib", native_dir)
    finally:  # a failed build leaves the old one, used only while it matches the sources
        os.chdir(here)
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str]) -> int:
    if argv == []:
        if built_digest() == sources_digest():
            print(f"compiled engine: {NATIVE_DIR}, up to date")
            return 0
        try:
            build()
        except (Exception, SystemExit) as exc:  # setuptools reports a failed compile by exiting
            print(f"error: the engine could not be compiled ({exc}); without a build of the "
                  "current sources it runs as plain Python", file=sys.stderr)
            return 1
        print(f"compiled engine: {NATIVE_DIR} ({', '.join(COMPILED_MODULES)})")
        return 0
    if argv == ["--status"]:
        print("compiled" if compiled() else "plain Python")
        return 0
    print("usage: python -m workers.engine.native_build [--status]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
