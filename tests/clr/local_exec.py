"""Run a harness job with a plain subprocess in a temporary folder (what the sandbox will do)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from vibecode.clr.harness import HarnessJob, RawRun


def execute(job: HarnessJob) -> RawRun:
    with tempfile.TemporaryDirectory(prefix="vibecode-harness-") as tmp:
        work = Path(tmp)
        for name, text in job.files.items():
            (work / name).write_text(text, encoding="utf-8")
        argv = [sys.executable if job.argv[0] == "python3" else job.argv[0], *job.argv[1:]]
        try:
            proc = subprocess.run(argv, cwd=work, capture_output=True, text=True, timeout=job.timeout_s, check=False)
            code, sig, timed_out = proc.returncode, None, False
            stdout, stderr = proc.stdout, proc.stderr
            if code < 0:
                code, sig = None, -code
        except subprocess.TimeoutExpired as exc:
            code, sig, timed_out = None, 9, True
            stdout = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
            stderr = ""
        result = work / job.result_file
        text = result.read_text(encoding="utf-8") if result.exists() else None
        return RawRun(stdout, stderr, code, sig, timed_out, text)
