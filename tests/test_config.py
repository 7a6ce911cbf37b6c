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


def test_out_of_range_values_are_refused_from_every_source(tmp_path: Path) -> None:
    """n = 0, VIBECODE_N_CTX=-5, --time-budget -1, sandbox = "bogus": refused where given, naming it."""
    config = tmp_path / "config.toml"
    config.write_text("n = 0\n")
    with pytest.raises(ConfigError, match=r"'n' in .*config\.toml is 0; it must be at least 1"):
        load_settings(config, environ={})
    config.write_text('sandbox = "bogus"\n')
    with pytest.raises(ConfigError, match=r"'sandbox' in .*config\.toml is 'bogus'"):
        load_settings(config, environ={})
    with pytest.raises(ConfigError, match="VIBECODE_N_CTX in the environment is -5"):
        load_settings(tmp_path / "none.toml", environ={"VIBECODE_N_CTX": "-5"})
    with pytest.raises(ConfigError, match="--time-budget is -1"):
        Settings().with_overrides(time_budget_s=-1.0)
    with pytest.raises(ConfigError, match="is a folder"):
        load_settings(tmp_path, environ={})
    assert Settings().with_overrides(n=3, temperature=0.0).n == 3
