"""`python -m pipeline [overrides]`: compose the config once up front so that a bad override
gives a one-line error, then hand over to the Hydra driver (multirun and launchers included)."""
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
        lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
        print(f"error: bad config override: {' '.join(lines[:3])}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    _precheck(sys.argv[1:])
    from .driver import main
    main()
