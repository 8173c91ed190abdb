# The few commands a user types. Every target sets up what it needs first.
PY := .venv/bin/python
STAMP := .venv/.installed

.PHONY: run test test-slurm bench scale fidelity soak fuzz fuzz-inputs coverage venv native clean report paper-table

venv: $(STAMP)

# torch is pinned and installed first: that pin is a local CPU build here, any
# other request would pull gigabytes of CUDA wheels.
$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv .venv
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

# The engine's core compiled with mypyc (workers/engine/native.py); the build itself decides,
# from a digest of the sources, whether there is anything to do. Without a C compiler it fails
# with a message and the engine stays plain Python, about 2.5x slower; every target still
# works. (DSAME_NATIVE=0: the build needs no compiled engine, and an outdated one would warn.)
native: $(STAMP)
	-DSAME_NATIVE=0 $(PY) -m workers.engine.native_build

# DSA-ME with the paper's protocol players (beam search, depth 13, width 4) at a small budget:
# conf/experiment/smoke.yaml, 250 evaluations of 24 games, at least 5 outer iterations.
run: native
	@echo "make run: DSA-ME with the paper's players, 250 decks x 24 games, about 3 1/2 minutes on 2 idle cores" \
	      "(experiment=smoke; the random-player preset for tests is experiment=smoke_random)."
	$(PY) -m pipeline experiment=smoke
	@echo "Open archive.html in the run folder named above (files in ...) to explore the archive and its decks."

# Table 1, statistics, figures, surrogate analyses and top decks of every run under RUNS
# (run or sweep directories), with REPORT/index.html to look at.
RUNS ?= results
REPORT ?= results/report
REPORT_FLAGS ?=
report: native
	$(PY) -m pipeline.report --out $(REPORT) $(REPORT_FLAGS) $(RUNS)

# Our runs of experiment=paper beside the paper's Table 1, from their summaries in results/paper
# alone (docs/results.md): paper_table.md and qd_score_vs_paper.png there, the table printed.
paper-table: native
	$(PY) -m pipeline.report.paper results/paper --out results/paper

test: native
	@echo "make test: about 23 minutes on an idle 2-core machine. Installs with apt-get when missing" \
	      "(as root or through sudo -n): chromium, mono-devel, SLURM and munge; starts munged, slurmctld" \
	      "and slurmd (and network namespaces dsame-*) for the SLURM tests and stops or removes them" \
	      "when the tests end (README.md)."
	$(PY) -m pytest -q -n 2 tests

test-slurm: native
	$(PY) -m pytest -q tests/slurm

coverage: native
	$(PY) -m workers.engine coverage

# BENCH_BASELINE=DIR: also time the playout figures on the checkout DIR, alternating, with the ratio.
BENCH_BASELINE ?=
bench: native
	$(PY) -m tools.bench $(if $(BENCH_BASELINE),--baseline $(BENCH_BASELINE))

# The pipeline at N = 200 and 1,000 worker slots, 5,000 evaluations, the synchronous and the
# steady-state loop: real driver, scheduler and head node, STAND-IN game tasks timed from real
# games (tools/scale.py), e.g. SCALE_FLAGS="--slots 200 --budget 1000"; SCALE_FLAGS=--slurm: the
# workers as SLURM jobs on the three-host cluster of slurm/nodes_slurm.sh (root).
SCALE_FLAGS ?=
scale: native
	$(PY) -m tools.scale $(SCALE_FLAGS)

# The built-in engine against SabberStone's reference records (workers/data/sabberstone/),
# e.g. FIDELITY_FLAGS="--runs miracle_rogue --games 60".
FIDELITY_FLAGS ?=
fidelity: native
	$(PY) -m tools.fidelity $(FIDELITY_FLAGS)

soak: native
	$(PY) -m tools.soak --random-games 2000 --beam-games 100

fuzz: native
	$(PY) -m tools.soak --pool --random-games 100000 --beam-games 0

# Bad configs, files and arguments, each run as a user would; prints how each one ended
# (clear error, traceback, hang, silent acceptance), e.g. FUZZ_INPUTS_FLAGS="--sample 100".
FUZZ_INPUTS_FLAGS ?=
fuzz-inputs: native
	$(PY) -m tools.fuzz_inputs $(FUZZ_INPUTS_FLAGS)

clean:
	rm -rf .venv .cache build
