from pathlib import Path

import pytest

from vibecode.config import Settings, load_settings
from vibecode.errors import ConfigError


def test_file_then_environment_then_overrides(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text('n = 4\nengine = "tiny"\nn_ctx = 4096\ntemperature = 1\n')
    settings = load_settings(cfg, environ={"VIBECODE_N": "6", "VIBECODE_N_GPU_LAYERS": "auto"})
    assert (settings.n, settings.engine, settings.n_ctx) == (6, "tiny", 4096)
    assert settings.temperature == 1.0 and settings.n_gpu_layers is None
    assert settings.with_overrides(n=2, engine=None).n == 2
    assert settings.with_overrides(n=2, engine=None).engine == "tiny"


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    assert load_settings(tmp_path / "none.toml", environ={}) == Settings()


@pytest.mark.parametrize(
    ("text", "env", "needle"),
    [
        ("n = ", {}, "not valid TOML"),
        ("colour = 1", {}, "Unknown setting 'colour'"),
        ('n = "many"', {}, "must be int"),
        ("", {"VIBECODE_N": "many"}, "must be int"),
    ],
)
def test_bad_settings_are_clear_errors(
    tmp_path: Path, text: str, env: dict[str, str], needle: str
) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text(text)
    with pytest.raises(ConfigError, match=needle):
        load_settings(cfg, environ=env)
