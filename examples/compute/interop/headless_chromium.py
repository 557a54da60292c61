"""Debian's `chromium`, headless, driven through its `chromium-driver` by
Selenium: the browser of the reference page checks (reference_browser.py,
reference_axe.py)."""

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def driver():
    """A new headless Chromium, 1280 by 1600; quit it when done."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,1600"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
