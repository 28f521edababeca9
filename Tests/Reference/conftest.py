"""Keeps Tests/Reference self-contained: its modules import one another from
this folder, no bytecode is left beside them, and the header names the
juice-run the binary tests run."""

from __future__ import annotations

import os
import pathlib
import sys

sys.dont_write_bytecode = True
HERE = pathlib.Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

REPO = HERE.parent.parent
JUICE_RUN = pathlib.Path(os.environ.get("JUICE_RUN") or REPO / ".build" / "debug" / "juice-run")


def pytest_report_header(config):
    return f"juice-run under test: {JUICE_RUN} (set JUICE_RUN to change)"
