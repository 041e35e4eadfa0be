#!/usr/bin/env bash
# Make sure HAProxy (Debian's `haproxy`) is at /usr/sbin for the deployment recipe's test (tests/integration/test_deploy.py)
# and ops/deploy/cluster.py. The test never skips: if it cannot be installed, this fails loudly.
# Installing the package does not need its service: nothing here starts it (the recipe runs its own, in the foreground).
set -euo pipefail
have() { [ -x /usr/sbin/haproxy ]; }
if have; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
else
  echo "HAProxy is missing and cannot be installed here: as root, apt-get install haproxy" >&2
  exit 1
fi
have || { echo "HAProxy is still missing at /usr/sbin after apt-get install" >&2; exit 1; }
# sed reads to the end; head would close the pipe early, a SIGPIPE that pipefail turns into a failure (seen on a fresh machine)
/usr/sbin/haproxy -v | sed -n 1p
