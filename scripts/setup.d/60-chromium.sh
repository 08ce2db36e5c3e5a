#!/usr/bin/env bash
# Headless Chromium for the browser tests (driven by playwright-core, a root devDependency).
source "$(dirname "$0")/../lib.sh"
apt_install chromium
