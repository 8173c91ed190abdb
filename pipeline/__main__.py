"""`python -m pipeline [overrides]`: compose the config once up front so that a bad override
gives a one-line error, then hand over to the Hydra driver (multirun and launchers included)."""
import difflib
import sys


def _precheck(argv: list[str]) -> None:
    if any(a.startswith("-") for a in argv):  # Hydra's own flags (--multirun, --cfg, ...)
        return
    from hydra import compose, initialize_config_dir
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    from .driver import CONF_DIR
    try:
        with initialize_config_dir(config_dir=CONF_DIR, version_base="1.3"):
            compose("config", overrides=argv)
    except (HydraException, OmegaConfBaseException) as exc:
        print(f"error: bad config override: {override_error(exc)}", file=sys.stderr)
        sys.exit(2)


def override_error(exc) -> str:
    """Hydra's message in one line. An unknown group option lists the group's options one a
    line, so its first lines would name only the first option: all of them, and the closest."""
    options = getattr(exc, "options", None)
    if options and "/" in (exc.missing_cfg_file or ""):
        group, _, option = exc.missing_cfg_file.rpartition("/")
        close = difflib.get_close_matches(option, options, n=1)
        hint = f"; did you mean {group}={close[0]}?" if close else ""
        return f"{group}={option} is not an option of {group} (options: {', '.join(options)}){hint}"
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    return " ".join(lines[:3])


if __name__ == "__main__":
    _precheck(sys.argv[1:])
    from .driver import main
    main()
