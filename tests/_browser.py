"""Headless Chromium driven by selenium, shared by the browser tests (``test_site``,
``test_jupyter_browser``).

Chromium and chromedriver are looked up at Debian's ``/usr/bin`` paths first, then on
``PATH``; :func:`browser_missing` says what is missing (the tests skip with that reason).
``.ci/run`` installs Debian's ``chromium`` and ``chromium-driver`` when they are missing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

_CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def _find(default: str, names) -> Path | None:
    if Path(default).is_file():
        return Path(default)
    for name in names:
        found = shutil.which(name)
        if found:
            return Path(found)
    return None


def chromium_path() -> Path | None:
    """The Chromium (or Chrome) executable, or None."""
    return _find("/usr/bin/chromium", _CHROMIUM_NAMES)


def chromedriver_path() -> Path | None:
    """The chromedriver executable, or None."""
    return _find("/usr/bin/chromedriver", ("chromedriver",))


def browser_missing() -> str | None:
    """Why no headless browser can be driven here, or None when one can."""
    if chromium_path() is None:
        return (
            "no Chromium found at /usr/bin/chromium or on PATH (apt-get install chromium"
            " chromium-driver)"
        )
    if chromedriver_path() is None:
        return (
            "no chromedriver found at /usr/bin/chromedriver or on PATH (apt-get install"
            " chromium-driver)"
        )
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium not installed (pip install -e '.[test]')"
    return None


@contextlib.contextmanager
def headless_chromium(window_size: str = "1400,2000", page_load_timeout_s: float = 30.0):
    """A selenium Chrome driver on headless Chromium with a throw-away profile; quit on exit."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_AVOID_STATS", "true")
    profile = tempfile.mkdtemp(prefix="pqlab-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(chromium_path())
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        f"--window-size={window_size}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(
        service=Service(executable_path=str(chromedriver_path())), options=options
    )
    driver.set_page_load_timeout(page_load_timeout_s)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
