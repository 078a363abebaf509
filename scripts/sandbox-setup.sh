#!/usr/bin/env bash
# Makes the machine ready for proctor's sandboxes and their tests, offline and idempotently (quiet when all is
# there already): Debian's docker.io, bubblewrap, debootstrap, busybox-static and socat (the agents' relay to
# their interceptor); a Docker daemon with no bridge network (nothing in a container can reach a private
# address); and the two base images the tests and examples build FROM, made without a registry:
#   proctor-busybox  busybox-static's binary and its applet links, `docker import`ed (a second)
#   proctor-debian   `debootstrap --variant=minbase --include=python3 bookworm` from the machine's own apt
#                    mirror, `docker import`ed (~40 s to 3 min, once; cached by Docker afterwards)
set -euo pipefail

log() { echo "sandbox-setup: $*" >&2; }

install_packages() {
  local missing=()
  command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
  command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
  command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
  command -v socat >/dev/null 2>&1 || missing+=(socat)
  [ -x /bin/busybox ] && dpkg -s busybox-static >/dev/null 2>&1 || missing+=(busybox-static)
  if [ "${#missing[@]}" -eq 0 ]; then return; fi
  log "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

start_dockerd() {
  if docker info >/dev/null 2>&1; then return; fi
  log "starting dockerd (no bridge network)"
  mkdir -p /var/log
  # 9>&-: the daemon outlives this script and must not hold its lock (the next set-up would wait forever).
  nohup dockerd --bridge=none --iptables=false --ip6tables=false >>/var/log/proctor-dockerd.log 2>&1 9>&- &
  for _ in $(seq 1 120); do
    if docker info >/dev/null 2>&1; then return; fi
    sleep 0.5
  done
  log "dockerd did not answer within 60 s (see /var/log/proctor-dockerd.log)"
  exit 1
}

has_image() { docker image inspect "$1" >/dev/null 2>&1; }

build_busybox_image() {
  if has_image proctor-busybox; then return; fi
  log "building proctor-busybox"
  local dir
  dir="$(mktemp -d)"
  mkdir -p "$dir/bin" "$dir/tmp" "$dir/etc" "$dir/root" "$dir/app"
  chmod 1777 "$dir/tmp"
  cp /bin/busybox "$dir/bin/busybox"
  # Relative links: `busybox --install` would point them at wherever the host keeps busybox (/usr/bin on merged-usr).
  for applet in $(/bin/busybox --list); do [ "$applet" = busybox ] || ln -s busybox "$dir/bin/$applet"; done
  printf 'root:x:0:0:root:/root:/bin/sh\n' >"$dir/etc/passwd"
  printf 'root:x:0:\n' >"$dir/etc/group"
  tar -C "$dir" -c . | docker import -c 'ENV PATH=/usr/local/bin:/usr/bin:/bin' -c 'CMD ["/bin/sh"]' - proctor-busybox >/dev/null
  rm -rf "$dir"
}

apt_mirror() {
  local uri
  uri="$(grep -hsE '^(URIs:|deb )' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    grep -v security | head -1 | sed -E 's/^URIs:[[:space:]]*//; s/^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?//' | awk '{print $1}')"
  echo "${uri:-http://deb.debian.org/debian}"
}

build_debian_image() {
  if has_image proctor-debian; then return; fi
  local mirror dir
  mirror="$(apt_mirror)"
  log "building proctor-debian (debootstrap bookworm from $mirror; a few minutes, once)"
  dir="$(mktemp -d)"
  debootstrap --variant=minbase --include=python3 bookworm "$dir" "$mirror" >"$dir.log" 2>&1 ||
    { log "debootstrap failed (see $dir.log)"; exit 1; }
  tar -C "$dir" -c . | docker import -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    -c 'CMD ["/bin/bash"]' - proctor-debian >/dev/null
  rm -rf "$dir" "$dir.log"
}

# Several checkouts may run this at once: one at a time builds, the rest find the images there.
exec 9>/tmp/proctor-sandbox-setup.lock
flock 9
install_packages
start_dockerd
build_busybox_image
if [ "${PROCTOR_SKIP_DEBIAN_IMAGE:-}" != "1" ]; then build_debian_image; fi
