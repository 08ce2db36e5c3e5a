#!/usr/bin/env bash
# Headless Chromium for the browser tests (driven by playwright-core, a root
# devDependency), and Firefox ESR for the page-size suite's pages (driven by
# puppeteer-core over WebDriver BiDi).
source "$(dirname "$0")/../lib.sh"
apt_install chromium firefox-esr
