"""Files a person names (docs/service.md, "Files the board reads"): a configuration, a board
profile, a password file, a ladder's results. Whatever a path names, the command answers at once in
words that name the file: a device that never ends, a FIFO nobody writes, a directory, bytes that
are no UTF-8, a name no file can have. Before, /dev/zero as the configuration filled the memory
until the kernel killed `tafel run`, and a FIFO held it for ever."""

from __future__ import annotations

import io
import os
import re
import stat
from pathlib import Path

import pytest

from controller.files import UnreadableFile, read_text
from controller.service.config import ConfigError, load_config
from controller.service.loop import run_service
from controller.terminal.calibrate import write_thresholds
from controller.terminal.cli import main
from hal.profile import ProfileError, load_profile
from tests.service.configs import EXAMPLES
from tests.web.harness import config_text, running_service


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    os.mkfifo(path)
    return path


def test_text_is_read_from_regular_files_only_and_said_by_line(tmp_path: Path, fifo: Path) -> None:
    with pytest.raises(UnreadableFile, match=r"the configuration /dev/zero is not a regular file"):
        read_text("/dev/zero", "the configuration")
    with pytest.raises(UnreadableFile, match=r"the configuration .*config\.toml is not a regular file"):
        read_text(fifo, "the configuration")  # opened without waiting for a writer
    with pytest.raises(UnreadableFile, match=r"is a directory, not a file"):
        read_text(tmp_path, "the configuration")
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'[game]\nname = "klotz"\n# Gr\xfc\xdfe\n')
    with pytest.raises(UnreadableFile, match=r"latin\.toml is not UTF-8 text: line 3 holds a byte that is not"):
        read_text(latin, "the configuration")
    marked = tmp_path / "marked.toml"
    marked.write_bytes(b'\xef\xbb\xbf[game]\nname = "klotz"\n')  # as some editors save UTF-8
    assert read_text(marked, "the configuration") == '[game]\nname = "klotz"\n'
    with pytest.raises(UnreadableFile, match=r"no file name holds a NUL character") as nul:
        read_text("a\0b.toml", "the configuration")
    assert nul.value.missing
    with pytest.raises(UnreadableFile) as missing:
        read_text(tmp_path / "nowhere.toml", "the configuration")
    assert missing.value.missing and "No such file" in str(missing.value)


@pytest.mark.parametrize(
    ("limit", "words"), [(600, "600 bytes"), (1024, "1 KiB"), (256 * 1024, "256 KiB"), (3 << 19, "1.5 MiB")]
)
def test_a_file_too_long_is_said_with_its_limit_in_words(tmp_path: Path, limit: int, words: str) -> None:
    long = tmp_path / "long.json"
    long.write_bytes(b"x" * (limit + 1))
    with pytest.raises(UnreadableFile, match=rf"long\.json is too long \(at most {re.escape(words)}\)$"):
        read_text(long, "the saved game", limit)
    assert read_text(long, "the saved game", limit + 1) == "x" * (limit + 1)


@pytest.mark.parametrize("name", ["/dev/zero", "fifo", "directory", "latin"])
def test_tafel_run_answers_a_configuration_that_is_no_file_at_once(name: str, tmp_path: Path, fifo: Path) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b"[game]\nname = 'Kl\xf6tz'\n")
    path = {"/dev/zero": Path("/dev/zero"), "fifo": fifo, "directory": tmp_path, "latin": latin}[name]
    stream = io.StringIO()
    assert run_service(path, check=True, stream=stream) == 2
    said = stream.getvalue()
    assert f"the configuration {path} " in said and "Error" not in said and "Traceback" not in said


def test_a_configuration_saved_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    source = (EXAMPLES / "sim.toml").read_text(encoding="utf-8")
    marked = tmp_path / "sim.toml"
    marked.write_bytes(b"\xef\xbb\xbf" + source.encode("utf-8"))
    assert load_config(marked).game.name == "klotz"


def test_a_configuration_naming_a_profile_that_is_no_file_says_so(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    source = (EXAMPLES / "sim.toml").read_text(encoding="utf-8")
    assert 'profile = "square14"' in source
    config.write_text(source.replace('profile = "square14"', 'profile = "/dev/zero"'), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"the board profile /dev/zero is not a regular file"):
        load_config(config)
    config.write_text(source.replace('profile = "square14"', 'profile = "sq\\u0000uare14"'), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\[board\] profile: .*no file name holds a NUL character"):
        load_config(config)


def test_a_profile_given_as_a_device_or_fifo_is_refused(fifo: Path) -> None:
    with pytest.raises(ProfileError, match=r"the board profile /dev/zero is not a regular file"):
        load_profile("/dev/zero")
    with pytest.raises(ProfileError, match=r"is not a regular file"):
        load_profile(fifo)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["demo", "klotz", "--fast", "--profile", "/dev/zero"], "the board profile /dev/zero is not a regular file"),
        (["diagnose", "--config", "/dev/zero"], "the configuration /dev/zero is not a regular file"),
        (["ladder", "klotz", "--games", "1", "--results", "/dev/zero"], "the ladder results file /dev/zero is not"),
        (["relay", "--password-file", "/dev/zero"], "the password file /dev/zero is not a regular file"),
    ],
)
def test_the_commands_say_what_is_wrong_with_a_file_they_are_given(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_calibrate_leaves_a_configuration_it_cannot_write_as_it_was(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[gpio.analog]\nthresholds = [0.1]\n", encoding="utf-8")
    (tmp_path / "config.toml.tmp").mkdir()  # where the new file is written first: the write fails, as root too
    said = write_thresholds(config, (0.2,))
    assert said.startswith(f"{config} cannot be written (") and "add  thresholds = [0.2000]" in said
    assert "Error" not in said and config.read_text(encoding="utf-8") == "[gpio.analog]\nthresholds = [0.1]\n"
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    said = write_thresholds(blocked, (0.2,))
    assert said == (
        f"the configuration {blocked} is a directory, not a file:"
        " add  thresholds = [0.2000]  to its [gpio.analog] table"
    )


def test_calibrate_keeps_a_private_configuration_private(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[remote]\npassword = "secret"\n[gpio.analog]\nthresholds = [0.1]\n', encoding="utf-8")
    config.chmod(0o600)
    assert write_thresholds(config, (0.2,)) == f"wrote thresholds = [0.2000] to [gpio.analog] in {config}"
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert "thresholds = [0.2000]" in config.read_text(encoding="utf-8")


def test_calibrate_changes_a_linked_configuration_where_it_is_and_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "boards" / "config.toml"
    real.parent.mkdir()
    real.write_text("[gpio.analog]\nthresholds = [0.1]\n", encoding="utf-8")
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    assert write_thresholds(link, (0.3,)) == f"wrote thresholds = [0.3000] to [gpio.analog] in {real}"
    assert link.is_symlink() and "thresholds = [0.3000]" in real.read_text(encoding="utf-8")


def test_table_settings_that_are_no_file_are_said_and_the_configuration_applies(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "state" / "settings.json").mkdir(parents=True)
    with caplog.at_level("WARNING"), running_service(tmp_path, config_text()) as service:
        assert service.table.settings.now()["settle_ms"] == 250
    said = [record.getMessage() for record in caplog.records if "settings" in record.getMessage()]
    assert any("the table's settings" in text and "is a directory, not a file" in text for text in said), said
    assert not any("Error" in text for text in said)
