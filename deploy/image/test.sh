#!/usr/bin/env bash
# Builds the cdpvisor image (deploy/image/build.sh) and runs it the way a
# container runtime would, without one: no runtime can start a container on
# these machines (no CAP_SYS_RESOURCE for crun's setrlimit), so the image's
# root filesystem is exported and run as PID 1 of a pid + mount + network
# namespace of its own:
#
#   unshare --pid --mount --net --fork --mount-proc=ROOT/proc
#     a fresh /dev (null, zero, full, random, urandom, tty; tmpfs /dev/shm of
#     1 GiB), a read-only /sys, then
#   chroot --userspec=<image User> ROOT env -i -C <WorkingDir> <image Env>
#     CDPVISOR_TOKEN=… CDPVISOR_ALLOW_HOST=<its address> <Entrypoint> <Cmd>      (tini -- cdpvisor serve --listen 0.0.0.0:9222)
#
# The clients (node, curl) run on the host's binaries in a second network
# namespace, joined to the replica's by a veth pair: they reach it from
# another address, by its address, as other pods and the kubelet reach a pod
# (and the replica's default port is free whatever runs on the host).
#
# Checks, each failing loudly:
#   runs-as-10001  every process of the namespace has uid and gid 10001, tini
#                  is its PID 1 and cdpvisor tini's child
#   puppeteer      puppeteer-core connects with the token and evaluates; no
#                  token gets 401
#   dev-shm        with the 1 GiB /dev/shm Chromium has no --disable-dev-shm-usage;
#                  the image's launcher rule adds it for a 64 MiB /dev/shm
#   healthcheck    the image's HEALTHCHECK command passes inside
#   browser-kill   kill -9 of Chromium (--remote-debugging-pipe, no --type=):
#                  the next Puppeteer connect works, on a new browser
#   zombies        a few seconds after the kill no process of the namespace
#                  is a zombie (the orphaned helpers went to tini)
#   sigterm-drain  SIGTERM to tini with a client connected: /health/ready 503
#                  within 1 s, the client still gets answers, and once it
#                  leaves the namespace exits with code 0
#
#   bash deploy/image/test.sh [--image NAME]   (root; --image: test that image, build nothing)
#
# Removes what it made, on failure too: the namespaces' processes, the veth,
# the exported root, the image it built and the container it created. Kept:
# the debootstrap tarball and the imported debian:bookworm-slim (build caches).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

image=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --image) image="$2"; shift 2 ;;
    --image=*) image="${1#--image=}"; shift ;;
    -h|--help) sed -n '2,42p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

log() { printf 'image/test: %s\n' "$*" >&2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
ms() { date +%s%3N; }

passed=0
failed=0
pass() { passed=$((passed + 1)); log "PASS $1: $2"; }
fail() {
  failed=$((failed + 1))
  log "FAIL $1: $2"
  if [[ -s "${work:-/nonexistent}/replica.log" ]]; then
    log "the replica's last log lines:"
    tail -n 25 "$work/replica.log" | sed 's/^/    /' >&2
  fi
  exit 1
}

t_all="$(now)"
[[ "$(uname -s)" == Linux ]] || { log "FAIL: Linux only"; exit 1; }
[[ "$(id -u)" -eq 0 ]] || { log "FAIL: run as root (podman, unshare, chroot, veth)"; exit 1; }
for tool in unshare nsenter chroot ip curl node; do
  command -v "$tool" >/dev/null 2>&1 || { log "FAIL: $tool is missing"; exit 1; }
done
if [[ ! -d testdata/clients/node_modules/puppeteer-core ]]; then
  log "puppeteer-core missing: bash .ci/setup"
  bash .ci/setup
fi

# --- cleanup, on every exit ------------------------------------------------------
work="$(mktemp -d /tmp/cdpvisor-image-test.XXXXXX)"
rootfs="$work/rootfs"
built="" cid="" upid="" ns1="" netpid="" hpid="" veth=""
cleanup() {
  local rc=$?
  set +e
  [[ -n "$hpid" ]] && kill -KILL "$hpid" 2>/dev/null && wait "$hpid" 2>/dev/null
  if [[ -n "$upid" ]] && kill -0 "$upid" 2>/dev/null; then
    # SIGKILL to a pid namespace's init ends every process in it.
    [[ -n "$ns1" ]] && kill -KILL "$ns1" 2>/dev/null
    kill -KILL "$upid" 2>/dev/null
    wait "$upid" 2>/dev/null
  fi
  [[ -n "$netpid" ]] && kill -KILL "$netpid" 2>/dev/null && wait "$netpid" 2>/dev/null
  [[ -n "$veth" ]] && ip link del "$veth" 2>/dev/null
  [[ -n "$cid" ]] && podman rm -f "$cid" >/dev/null 2>&1
  [[ -n "$built" ]] && podman rmi -f "$built" >/dev/null 2>&1
  # The mounts lived in the replica's mount namespace, gone with it: were one
  # still seen here, removing the tree could reach through it into the host.
  if grep -q " $rootfs/" /proc/self/mounts 2>/dev/null; then
    log "WARNING: mounts under $rootfs are still there: left in place for a look"
  else
    rm -rf --one-file-system "$work"
  fi
  if [[ $rc -ne 0 && $failed -eq 0 ]]; then
    failed=1
    log "FAIL: stopped with exit code $rc before the checks were done"
  fi
  log "total $(since "$t_all") s"
  echo "image: $passed passed, $failed failed"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
trap 'log "FAIL: line $LINENO: \"$BASH_COMMAND\" exited $?"' ERR

# --- 1. build ------------------------------------------------------------------
t0="$(now)"
if [[ -z "$image" ]]; then
  image="localhost/cdpvisor:imagetest-$$"
  built="$image"
  bash deploy/image/build.sh --tag "$image" >/dev/null
  log "built $image in $(since "$t0") s"
fi
podman image exists "$image" || fail build "no image $image"

# --- 2. export its root filesystem and read its config --------------------------
t0="$(now)"
mkdir -p "$rootfs"
# (podman create and rm complain that there is no systemd to time the
# HEALTHCHECK with: said on failure only.)
cid="$(podman create "$image" 2>"$work/podman.err")" || { cat "$work/podman.err" >&2; fail export "podman create $image"; }
podman export "$cid" | tar -x -C "$rootfs" --numeric-owner
podman rm "$cid" >/dev/null 2>>"$work/podman.err" || { cat "$work/podman.err" >&2; fail export "podman rm $cid"; }
cid=""
podman image inspect "$image" >"$work/inspect.json"
# One file per field, NUL-separated: User, WorkingDir, Env, Entrypoint, Healthcheck.
node -e '
  const fs = require("fs");
  const [img] = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const c = img.Config || {};
  const out = (name, list) => fs.writeFileSync(`${process.argv[2]}/${name}`, list.map((s) => s + "\0").join(""));
  out("user", [c.User || "0:0"]);
  out("workdir", [c.WorkingDir || "/"]);
  out("env", c.Env || []);
  out("entrypoint", c.Entrypoint || []);
  out("cmd", c.Cmd || []);
  out("healthcheck", ((img.Healthcheck || c.Healthcheck || {}).Test) || []);
' "$work/inspect.json" "$work"
mapfile -d '' -t user <"$work/user"
mapfile -d '' -t workdir <"$work/workdir"
mapfile -d '' -t env <"$work/env"
mapfile -d '' -t entrypoint <"$work/entrypoint"
mapfile -d '' -t cmd <"$work/cmd"
mapfile -d '' -t healthcheck <"$work/healthcheck"
log "exported $(du -sh "$rootfs" | cut -f1) in $(since "$t0") s; User ${user[0]}, Entrypoint ${entrypoint[*]}, Cmd ${cmd[*]:-}"
[[ ${#entrypoint[@]} -gt 0 ]] || fail config "the image has no Entrypoint"
uid="${user[0]%%:*}"
gid="${user[0]#*:}"
[[ "$uid" =~ ^[0-9]+$ && "$gid" =~ ^[0-9]+$ ]] || fail config "User ${user[0]}: want numeric uid:gid"

# --- 3. the network: the replica's namespace and the clients', a veth between --
# The replica runs the image's Entrypoint and Cmd as they are: in a network
# namespace of its own, its default port is free.
[[ "${cmd[*]:-}" == "--listen 0.0.0.0:9222" ]] || fail config "Cmd is '${cmd[*]:-}', want '--listen 0.0.0.0:9222'"
port=9222
token="$(head -c 24 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
# Link-local addresses on a veth between two namespaces made here: this
# traffic never leaves the machine, nor reaches the host's own network.
replica_ip=169.254.92.1 client_ip=169.254.92.2
endpoint="http://$replica_ip:$port"
# Clients name the replica by its address, as a pod's name it by its IP or
# its Service: cdpvisor serves a Host that is not loopback only when allowed
# (CDPVISOR_ALLOW_HOST below, as the chart's --allow-host; the probes answer
# whatever the Host).
unshare --net sleep 100000 &
netpid=$!

# --- 4. run the image ------------------------------------------------------------
inner='
set -e
r=$1 wd=$2 user=$3
shift 3
mount -t tmpfs -o nosuid,mode=0755,size=65536k tmpfs "$r/dev"
for d in null zero full random urandom tty; do
  : >"$r/dev/$d"
  mount --bind "/dev/$d" "$r/dev/$d"
done
ln -s /proc/self/fd "$r/dev/fd"
ln -s /proc/self/fd/0 "$r/dev/stdin"
ln -s /proc/self/fd/1 "$r/dev/stdout"
ln -s /proc/self/fd/2 "$r/dev/stderr"
mkdir -p "$r/dev/shm" "$r/dev/pts"
mount -t tmpfs -o nosuid,nodev,mode=1777,size=1g tmpfs "$r/dev/shm"
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$r/sys"
exec chroot --userspec="$user" "$r" /usr/bin/env -i -C "$wd" "$@"
'
t_run="$(now)"
unshare --pid --mount --net --fork --mount-proc="$rootfs/proc" \
  /bin/sh -c "$inner" sh "$rootfs" "${workdir[0]}" "${user[0]}" \
  "${env[@]}" "CDPVISOR_TOKEN=$token" "CDPVISOR_ALLOW_HOST=$replica_ip" \
  "${entrypoint[@]}" "${cmd[@]}" \
  >"$work/replica.log" 2>&1 &
upid=$!

# ns1: tini, the namespace's PID 1, by its host pid (the one child of unshare).
for _ in $(seq 100); do
  ns1="$(awk '{ print $1 }' "/proc/$upid/task/$upid/children" 2>/dev/null || true)"
  [[ -n "$ns1" && "$(cat "/proc/$ns1/comm" 2>/dev/null)" == tini ]] && break
  kill -0 "$upid" 2>/dev/null || fail start "the namespace exited at once"
  sleep 0.1
done
[[ "$(cat "/proc/$ns1/comm" 2>/dev/null)" == tini ]] || fail start "no tini as the namespace's PID 1 after 10 s (saw: ${ns1:-nothing})"

veth="cdpv$$"
ip link add "$veth" type veth peer name "${veth}c"
ip link set "$veth" netns "$ns1"
ip link set "${veth}c" netns "$netpid"
nsenter --target "$ns1" --net sh -c "ip link set lo up && ip addr add $replica_ip/30 dev $veth && ip link set $veth up"
nsenter --target "$netpid" --net sh -c "ip link set lo up && ip addr add $client_ip/30 dev ${veth}c && ip link set ${veth}c up"
veth="" # it lives in the namespaces now, and goes with them

# client CMD…: a command in the clients' network namespace.
client() { nsenter --target "$netpid" --net -- "$@"; }
http_code() { client curl -s -o /dev/null -m 2 -w '%{http_code}' "$@" || true; }

# ns_pids: host pids of every process of the replica's pid namespace: tini
# and its descendants (an orphan there goes to tini), zombies included.
ns_pids() {
  local queue=("$ns1") p
  while [[ ${#queue[@]} -gt 0 ]]; do
    p="${queue[0]}"
    queue=("${queue[@]:1}")
    [[ -d "/proc/$p" ]] || continue
    echo "$p"
    # shellcheck disable=SC2207
    queue+=($(cat /proc/"$p"/task/*/children 2>/dev/null))
  done
}
cmdline() { tr '\0' ' ' 2>/dev/null <"/proc/$1/cmdline" || true; }
state() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1; }
ppid() { awk '/^PPid:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
ps_ns() {
  local p
  for p in $(ns_pids); do
    printf '    %-7s ppid %-7s %s %s\n' "$p" "$(ppid "$p")" "$(state "$p")" "$(cmdline "$p" | cut -c1-110)"
  done >&2
}
browser_pid() {
  local p
  for p in $(ns_pids); do
    case "$(cmdline "$p")" in *--type=*) ;; *--remote-debugging-pipe*) echo "$p" ;; esac
  done
}

for _ in $(seq 150); do
  [[ "$(http_code "$endpoint/health/live")" == 200 ]] && break
  kill -0 "$upid" 2>/dev/null || fail start "the replica exited before serving"
  sleep 0.2
done
[[ "$(http_code "$endpoint/health/live")" == 200 ]] || fail start "/health/live is not 200 after 30 s"
log "replica serving at $endpoint (from the clients' namespace) $(since "$t_run") s after start"

puppeteer() {
  client env CLIENT_TIMEOUT_MS=60000 node testdata/clients/puppeteer_connect.mjs "$endpoint" "--token=$token" 2>"$work/client.err"
}

# --- (b) Puppeteer through the endpoint with the token --------------------------
t0="$(now)"
code="$(http_code "$endpoint/json/version")"
[[ "$code" == 401 ]] || fail puppeteer "GET /json/version without the token: HTTP $code, want 401"
out="$(puppeteer)" || fail puppeteer "puppeteer_connect failed: $(tail -n 3 "$work/client.err")"
[[ "$out" == *'"ok":true'* ]] || fail puppeteer "puppeteer_connect said: $out"
pass puppeteer "no token: 401; with it: $out ($(since "$t0") s, browser launched on demand)"

# --- (a) every process runs as the image's user ---------------------------------
pids="$(ns_pids)"
n=0
for p in $pids; do
  ids="$(awk '/^Uid:/ { u = $2 " " $3 " " $4 " " $5 } /^Gid:/ { g = $2 " " $3 " " $4 " " $5 } END { print u "/" g }' "/proc/$p/status" 2>/dev/null)" || continue
  [[ -z "$ids" ]] && continue
  [[ "$ids" == "$uid $uid $uid $uid/$gid $gid $gid $gid" ]] || { ps_ns; fail runs-as-10001 "pid $p ($(cmdline "$p" | cut -c1-80)) has uid/gid $ids, want $uid/$gid"; }
  n=$((n + 1))
done
[[ "$(awk '/^NSpid:/ { print $NF }' "/proc/$ns1/status")" == 1 ]] || fail runs-as-10001 "tini is not PID 1 of its namespace"
cdpvisor_pid=""
for p in $pids; do
  [[ "$(ppid "$p")" == "$ns1" && "$(cat "/proc/$p/comm" 2>/dev/null)" == cdpvisor ]] && cdpvisor_pid="$p"
done
[[ -n "$cdpvisor_pid" ]] || { ps_ns; fail runs-as-10001 "no cdpvisor child of tini"; }
bpid="$(browser_pid)"
[[ -n "$bpid" ]] || { ps_ns; fail runs-as-10001 "no Chromium (--remote-debugging-pipe) in the namespace"; }
[[ "$uid" == 10001 && "$gid" == 10001 ]] || fail runs-as-10001 "the image's User is $uid:$gid, want 10001:10001"
pass runs-as-10001 "all $n processes (tini = PID 1, cdpvisor, Chromium $bpid and its helpers) have uid/gid 10001 (real, effective, saved, fs)"
ps_ns

# --- /dev/shm: used when big enough, else /tmp --------------------------------------
# The replica has a 1 GiB tmpfs there: its Chromium must use it. With the
# 64 MiB a runtime gives by default, the image's launcher rule must add
# --disable-dev-shm-usage (run here alone, in a mount namespace of its own).
case " $(cmdline "$bpid") " in
  *" --disable-dev-shm-usage "*) fail dev-shm "Chromium got --disable-dev-shm-usage with a 1 GiB /dev/shm" ;;
esac
small="$(unshare --mount --pid --fork --mount-proc="$rootfs/proc" /bin/sh -c '
  r=$1 user=$2
  mkdir -p "$r/dev/shm"
  mount -t tmpfs -o size=64m tmpfs "$r/dev/shm"
  exec chroot --userspec="$user" "$r" /bin/sh -c ". /etc/chromium.d/dev-shm; echo \$CHROMIUM_FLAGS"
' sh "$rootfs" "${user[0]}" 2>&1)" || fail dev-shm "running /etc/chromium.d/dev-shm with a 64 MiB /dev/shm: $small"
[[ " $small " == *" --disable-dev-shm-usage "* ]] || fail dev-shm "with a 64 MiB /dev/shm the launcher's flags are '$small', want --disable-dev-shm-usage"
pass dev-shm "1 GiB /dev/shm: Chromium uses it (no --disable-dev-shm-usage); 64 MiB: the launcher adds --disable-dev-shm-usage"

# --- the image's HEALTHCHECK, run inside ---------------------------------------------
if [[ ${#healthcheck[@]} -gt 1 ]]; then
  hc=("${healthcheck[@]:1}")
  [[ "${healthcheck[0]}" == CMD-SHELL ]] && hc=(/bin/sh -c "${hc[*]}")
  nsenter --target "$ns1" --mount --net --pid -- \
    chroot --userspec="${user[0]}" "$rootfs" /usr/bin/env -i "${env[@]}" "${hc[@]}" \
    || fail healthcheck "the image's HEALTHCHECK (${hc[*]}) failed inside"
  pass healthcheck "${hc[*]} exits 0 inside, as uid $uid over the replica's loopback"
else
  fail healthcheck "the image has no HEALTHCHECK (${healthcheck[*]:-none})"
fi

# --- (c), (d) kill -9 of the browser ------------------------------------------------
# tini's children besides cdpvisor: Chromium's helpers that left their parent
# (the crash handlers daemonize), and any the kill orphans.
declare -A orphans=()
tini_children() {
  local p exe
  for p in $(ns_pids); do
    [[ "$p" != "$cdpvisor_pid" && -z "${orphans[$p]:-}" && "$(ppid "$p")" == "$ns1" ]] || continue
    exe="$(cmdline "$p")"
    exe="${exe%% *}"
    [[ -n "$exe" ]] && orphans[$p]="$(basename "$exe")$(cmdline "$p" | grep -o -- ' --type=[a-z-]*' | sed 's/ --type=/ (/; s/$/)/' || true)"
  done
  return 0
}
tini_children
kill -KILL "$bpid"
t_kill="$(now)"
for _ in $(seq 10); do tini_children; sleep 0.1; done
sleep 2
zombies=""
for _ in $(seq 40); do
  zombies=""
  for p in $(ns_pids); do [[ "$(state "$p")" == Z ]] && zombies+="$p "; done
  [[ -z "$zombies" ]] && break
  sleep 0.25
done
[[ -z "$zombies" ]] || { ps_ns; fail zombies "zombies left $(since "$t_kill") s after the kill: $zombies"; }
gone=0
for p in "${!orphans[@]}"; do [[ -d "/proc/$p" ]] || gone=$((gone + 1)); done
pass zombies "none $(since "$t_kill") s after the kill; of the ${#orphans[@]} helpers that were tini's children ($(IFS=,; echo "${orphans[*]:-none}")), $gone exited and were reaped by tini"

t0="$(now)"
out="$(puppeteer)" || fail browser-kill "puppeteer_connect after the kill failed: $(tail -n 3 "$work/client.err")"
[[ "$out" == *'"ok":true'* ]] || fail browser-kill "puppeteer_connect after the kill said: $out"
nbpid="$(browser_pid)"
[[ -n "$nbpid" && "$nbpid" != "$bpid" ]] || { ps_ns; fail browser-kill "no new browser after the kill (was $bpid, now ${nbpid:-none})"; }
pass browser-kill "Chromium $bpid killed; the next connect works ($(since "$t0") s) on Chromium $nbpid"

# --- (e) SIGTERM with a client connected ----------------------------------------------
# Started here, not through a function, so that $! is node itself (nsenter
# and env exec it); an asynchronous command ignores SIGINT: it leaves on TERM.
nsenter --target "$netpid" --net -- env HOLD_TOKEN="$token" node deploy/image/hold_client.mjs "$endpoint" \
  >"$work/hold.out" 2>"$work/hold.err" &
hpid=$!
for _ in $(seq 150); do
  grep -q '"connected"' "$work/hold.out" && break
  kill -0 "$hpid" 2>/dev/null || fail sigterm-drain "the holding client exited: $(tail -n 3 "$work/hold.err")"
  sleep 0.2
done
grep -q '"connected"' "$work/hold.out" || fail sigterm-drain "the holding client did not connect in 30 s"
sleep 0.5
code="$(http_code "$endpoint/health/ready")"
[[ "$code" == 200 ]] || fail sigterm-drain "/health/ready before SIGTERM: HTTP $code, want 200"

t_term="$(now)"
kill -TERM "$ns1"
code=""
while awk -v a="$t_term" -v b="$(now)" 'BEGIN { exit !(b - a < 1.0) }'; do
  code="$(client curl -s -o /dev/null -m 1 -w '%{http_code}' "$endpoint/health/ready" || true)"
  [[ "$code" == 503 ]] && break
  sleep 0.05
done
ready_after="$(awk -v a="$t_term" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')"
[[ "$code" == 503 ]] || fail sigterm-drain "/health/ready was $code, not 503, within 1 s of SIGTERM"
t_503="$(ms)"
live="$(http_code "$endpoint/health/live")"

# The client keeps being answered while the replica drains.
got=0
for _ in $(seq 50); do
  got="$(node -e '
    const t = Number(process.argv[1]);
    const lines = require("fs").readFileSync(process.argv[2], "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
    if (lines.some((l) => l.event === "error")) { console.log("error"); process.exit(0); }
    console.log(lines.filter((l) => l.event === "answer" && l.at > t).length);
  ' "$t_503" "$work/hold.out")"
  [[ "$got" == error ]] && fail sigterm-drain "the connected client got an error while draining: $(grep '"error"' "$work/hold.out" | head -n 1)"
  [[ "$got" -ge 5 ]] && break
  sleep 0.2
done
[[ "$got" -ge 5 ]] || fail sigterm-drain "the connected client got $got answers in 10 s after the 503, want 5"
kill -0 "$upid" 2>/dev/null || fail sigterm-drain "the replica exited while its client was still connected"

# The client leaves; the replica then stops by itself, exit code 0.
kill -TERM "$hpid"
hrc=0
wait "$hpid" || hrc=$?
hpid=""
[[ $hrc -eq 0 ]] || fail sigterm-drain "the holding client exited $hrc: $(tail -n 2 "$work/hold.out") $(tail -n 3 "$work/hold.err")"
t_left="$(now)"
for _ in $(seq 150); do
  kill -0 "$upid" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$upid" 2>/dev/null && fail sigterm-drain "the namespace is still running 15 s after its last client left"
rc=0
wait "$upid" || rc=$?
upid=""
left_to_exit="$(since "$t_left")"
[[ $rc -eq 0 ]] || fail sigterm-drain "the namespace's PID 1 exited with code $rc, want 0"
[[ -z "$(ns_pids)" ]] || fail sigterm-drain "processes of the namespace outlived it"
grep -q '"draining' "$work/replica.log" || fail sigterm-drain "no 'draining' line in the replica's log"
pass sigterm-drain "/health/ready 503 ${ready_after} s after SIGTERM (/health/live $live); the client got $got more answers; it left, and the namespace exited 0 ${left_to_exit} s later"

log "the replica's log (last lines):"
tail -n 8 "$work/replica.log" | cut -c1-200 | sed 's/^/    /' >&2
