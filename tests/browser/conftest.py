"""What the browser tests share: a phone- or tablet-sized Chromium, the two players' browsers, and an HTTP client
to the module's own served app (each module serves its own: its `base_url` fixture)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from selenium import webdriver

from tests.support.browser import WAIT_S, chromium

PHONE, TABLET = (390, 844), (820, 1180)


def phone_sized(profile: Path, size: tuple[int, int]) -> webdriver.Chrome:
    driver = chromium(profile, size)
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size == PHONE})
    except BaseException:
        driver.quit()  # its chromedriver and Chromium end with it
        raise
    return driver


@pytest.fixture(scope="module")
def phones(base_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, webdriver.Chrome]]:
    """Seat A's phone and seat B's tablet: two browsers, so two storages and two feeds (quit before the server),
    each quit even when the other failed to start."""
    drivers: dict[str, webdriver.Chrome] = {}
    try:
        drivers["A"] = phone_sized(tmp_path_factory.mktemp("phone-a"), PHONE)
        drivers["B"] = phone_sized(tmp_path_factory.mktemp("tablet-b"), TABLET)
        yield drivers
    finally:
        for driver in drivers.values():
            driver.quit()


@pytest.fixture
def http(base_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base_url, timeout=WAIT_S) as client:
        yield client
