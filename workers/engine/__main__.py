"""`python -m workers.engine coverage`: the card coverage report."""
import sys

from .coverage import main

if len(sys.argv) != 2 or sys.argv[1] != "coverage":
    sys.exit("usage: python -m workers.engine coverage")
sys.exit(main())
