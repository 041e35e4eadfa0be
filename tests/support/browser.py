"""Headless Debian Chromium for the browser tests, started one way (`make chromium` installs it)."""
from __future__ import annotations

from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
WAIT_S = 10.0


def waiting(driver: webdriver.Chrome, seconds: float = WAIT_S) -> WebDriverWait[webdriver.Chrome]:
    """A bounded wait that reads the page again when it redrew an element mid-read (an element gone stale is a
    page still changing, not a failure), as every browser test's waits do."""
    return WebDriverWait(driver, seconds, ignored_exceptions=(StaleElementReferenceException,))


def chromium(profile: Path, size: tuple[int, int], hosts: tuple[str, ...] = ()) -> webdriver.Chrome:
    """A headless browser window of that size, with its own profile; fails (never skips) without Chromium.
    `hosts`: names Chromium resolves to 127.0.0.1 (`--host-resolver-rules`), every other name left unresolved, so
    a page can be opened at a plain-HTTP origin the browser deems insecure while reaching only loopback."""
    assert CHROMIUM.is_file() and CHROMEDRIVER.is_file(), \
        "Chromium and chromedriver are needed at /usr/bin: run `make chromium` (ops/ensure-chromium.sh)"
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--window-size={size[0]},{size[1]}", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    if hosts:
        rules = ", ".join(f"MAP {host} 127.0.0.1" for host in hosts)
        options.add_argument(f"--host-resolver-rules={rules}, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    try:
        driver.set_page_load_timeout(WAIT_S)
    except BaseException:
        driver.quit()  # chromedriver and Chromium end with it, as a test's fixture would
        raise
    return driver


def network(driver: webdriver.Chrome, online: bool) -> None:
    """DevTools' network emulation: the page sees the network go and come back."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": not online, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
