# shellcheck shell=bash
# Where this machine's apt gets Debian's packages: the mirror build.sh's
# debootstrap and the image's own apt sources use. No mirror host is written
# into the project: it is this machine's (its apt sources), or the one the
# user names (DEBIAN_MIRROR, DEBIAN_SECURITY_MIRROR). Sourced by build.sh;
# deploy/image/apt_mirror_test.go runs it on fixture sources (APT_ETC).

# apt_mirror SUITE prints the first URI this machine's apt fetches SUITE
# from, reading the files as apt does: $APT_ETC/sources.list (default
# /etc/apt), then $APT_ETC/sources.list.d/ in name order, one-line *.list
# and deb822 *.sources (entries with Enabled: no, or deb-src alone, do not
# count). Prints nothing and fails when no source names SUITE.
apt_mirror() {
  local suite="$1" etc="${APT_ETC:-/etc/apt}" f uri
  for f in "$etc/sources.list" "$etc"/sources.list.d/*; do
    [[ -f "$f" ]] || continue
    case "$f" in
      *.list) uri="$(awk -v s="$suite" "$_apt_one_line" "$f")" ;;
      *.sources) uri="$(awk -v s="$suite" "$_apt_deb822" "$f")" ;;
      *) continue ;; # apt ignores other names too (*.disabled, *.save)
    esac
    if [[ -n "$uri" ]]; then
      echo "$uri"
      return 0
    fi
  done
  return 1
}

# debian_mirrors sets debian and security, the mirrors of bookworm and
# bookworm-security: DEBIAN_MIRROR and DEBIAN_SECURITY_MIRROR when set, else
# this machine's apt sources. It fails with mirror_problem saying what to set.
debian_mirrors() {
  local etc="${APT_ETC:-/etc/apt}"
  local where="this machine's apt sources ($etc/sources.list, $etc/sources.list.d/*.list and *.sources)"
  debian="${DEBIAN_MIRROR:-$(apt_mirror bookworm || true)}"
  security="${DEBIAN_SECURITY_MIRROR:-$(apt_mirror bookworm-security || true)}"
  mirror_problem=""
  [[ -n "$debian" ]] ||
    mirror_problem="no mirror of bookworm in $where: set DEBIAN_MIRROR to the URL of a Debian archive mirror"
  [[ -n "$security" ]] ||
    mirror_problem="${mirror_problem:+$mirror_problem; }no mirror of bookworm-security in $where: set DEBIAN_SECURITY_MIRROR to the URL of a Debian security mirror"
  [[ -z "$mirror_problem" ]]
}

# One-line style: deb [OPTIONS] URI SUITE COMPONENT…
_apt_one_line='
$1 == "deb" {
  i = 2
  if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
  if ($(i + 1) == s) { print $i; exit }
}'

# deb822 style: paragraphs of Field: value, continuation lines indented,
# field names in any case.
_apt_deb822='
function flush(   n, i, ss, us) {
  gsub(/[ \t]+/, " ", types); gsub(/[ \t]/, "", enabled)
  if (tolower(enabled) != "no" && (" " types " ") ~ / deb / && uris != "") {
    n = split(suites, ss, " ")
    for (i = 1; i <= n; i++) if (ss[i] == s) { split(uris, us, " "); print us[1]; found = 1; exit }
  }
  types = uris = suites = enabled = field = ""
}
/^[ \t]*#/ { next }
/^[ \t]*$/ { flush(); next }
/^[ \t]/ {
  if (field == "types") types = types " " $0
  else if (field == "uris") uris = uris " " $0
  else if (field == "suites") suites = suites " " $0
  next
}
{
  i = index($0, ":"); if (!i) next
  field = tolower(substr($0, 1, i - 1)); value = substr($0, i + 1)
  if (field == "types") types = value
  else if (field == "uris") uris = value
  else if (field == "suites") suites = value
  else if (field == "enabled") enabled = value
}
END { if (!found) flush() }'
