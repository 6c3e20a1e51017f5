import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]


def test_the_package_and_its_adapters_type_check_under_mypy_strict():
    # the cache lives in the environment whose pinned packages it describes (a first run takes minutes)
    cache = Path(sys.prefix) / "mypy-cache"
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), "ratchet_client"],
                            cwd=PACKAGE, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout
