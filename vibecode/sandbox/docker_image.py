"""Building the Docker sandbox's default image from a registry base (``vibecode sandbox image
build``): Python, pytest and the project's test requirements. Offline, scripts/docker-up builds
one from Debian packages instead."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from vibecode.errors import SandboxError
from vibecode.sandbox.docker import DEFAULT_IMAGE, _short, connect
from vibecode.sandbox.workspace import remove_tree

# Requirement files whose packages `image build` installs next to pytest.
TEST_REQUIREMENT_FILES = (
    "requirements-test.txt",
    "requirements-tests.txt",
    "test-requirements.txt",
    "requirements-dev.txt",
    "requirements/test.txt",
    "requirements/tests.txt",
    "requirements/dev.txt",
)

def build_image(
    tag: str = DEFAULT_IMAGE,
    *,
    base: str = "python:3.11-slim",
    project: Path | None = None,
    timeout: float = 1800.0,
) -> tuple[str, list[str]]:
    """Build the default test image from a registry base: Python, pytest and the project's test
    requirements (see :data:`TEST_REQUIREMENT_FILES`). Returns (image id, requirement files)."""
    client = connect()
    context = Path(tempfile.mkdtemp(prefix="vibecode-image-"))
    try:
        found: list[str] = []
        lines = [
            f"FROM {base}",
            'RUN python3 -c "import pytest" 2>/dev/null || python3 -m pip install --no-cache-dir pytest',
        ]
        for rel in TEST_REQUIREMENT_FILES if project else ():
            assert project is not None
            src = project / rel
            if src.is_file():
                name = f"req{len(found)}.txt"
                shutil.copyfile(src, context / name)
                lines += [
                    f"COPY {name} /tmp/{name}",
                    f"RUN pip install --no-cache-dir -r /tmp/{name}",
                ]
                found.append(rel)
        (context / "Dockerfile").write_text("\n".join(lines) + "\n", encoding="utf-8")
        try:
            image, _logs = client.images.build(
                path=str(context), tag=tag, rm=True, forcerm=True, timeout=int(timeout)
            )
        except Exception as exc:
            raise SandboxError(
                f"Building the image {tag} from {base} failed: {_short(exc)}.",
                "Without a registry, run scripts/docker-up: it builds an image offline.",
            ) from exc
        return str(image.id), found
    finally:
        client.close()
        remove_tree(context)
