#!/usr/bin/env bash
# Runs the lab in every engine a learner uses (tests/engines/engines.test.mjs): chromium, Firefox ESR over
# WebDriver BiDi and WebKit (WebKitWebDriver + MiniBrowser).  WebKit needs an X display: the suite starts an Xvfb
# of its own for it (tests/engines/drivers.mjs, a free display number), whatever DISPLAY says.  Holds
# /tmp/lock.browser while it runs, so that browser suites started at once on one machine take turns.  Takes about
# 1.5 minutes on 2 quiet cores.
# Needs the Debian packages chromium firefox-esr webkit2gtk-driver xvfb, and web/dist (built if missing or stale).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

missing=()
for tool in /usr/bin/chromium:chromium /usr/bin/firefox-esr:firefox-esr /usr/bin/WebKitWebDriver:webkit2gtk-driver /usr/bin/Xvfb:xvfb; do
  [ -x "${tool%%:*}" ] || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "the engine suite needs Debian packages that are missing; run: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

cd "$ROOT"
exec flock /tmp/lock.browser node --test --test-concurrency=1 tests/engines/engines.test.mjs
