#!/usr/bin/env bash
# task helm: lints the chart, renders it with the default values and with
# every optional object on (ci/*-values.yaml: the HPA and KEDA exclude each
# other, so two runs), and validates every manifest offline:
#
# - built-in kinds against Kubernetes 1.30's schemas, embedded in
#   kubectl-validate (unknown fields, types, required fields);
# - ServiceMonitor and ScaledObject against their real CRDs, taken from the
#   prometheus-operator and KEDA Go modules through the Go module proxy
#   (both modules ship their CRD manifests);
# - what a schema cannot say: the values the chart must refuse, and a few
#   facts of the rendered objects (probes, allowed hosts, no replicas under
#   an autoscaler).
#
# Needs only Go: helm and kubectl-validate are `go run` at pinned versions.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../../../.."   # the repository's root
chart=deploy/helm/cdpvisor
kube=1.30

helm() { go run helm.sh/helm/v3/cmd/helm@v3.22.0 "$@"; }
validate() { go run sigs.k8s.io/kubectl-validate@v0.0.4 "$@"; }
# The CRDs' versions: the API versions the chart renders are served by these
# and by older releases of both.
promop=github.com/prometheus-operator/prometheus-operator@v0.85.0
keda=github.com/kedacore/keda/v2@v2.21.0

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "helm check: $*" >&2; exit 1; }
step() { printf '== %s\n' "$*"; }

# render NAME ARGS...: helm template into $out/NAME.yaml.
render() {
  local name=$1
  shift
  helm template cdpv "$chart" --namespace agents --kube-version "$kube.0" "$@" > "$out/$name.yaml" \
    || fail "helm template $name failed"
}
# refused WHY ARGS...: helm template must fail, saying WHY.
refused() {
  local why=$1
  shift
  local said
  if said=$(helm template cdpv "$chart" --namespace agents --kube-version "$kube.0" "$@" 2>&1); then
    fail "helm template $* rendered; it must refuse ($why)"
  fi
  grep -qF -- "$why" <<<"$said" || fail "helm template $* failed without saying \"$why\": $said"
}
# has FILE TEXT / lacks FILE TEXT: a fixed string in a rendered file, or not.
has() { grep -qF -- "$2" "$out/$1.yaml" || fail "$1.yaml lacks: $2"; }
lacks() { ! grep -qF -- "$2" "$out/$1.yaml" || fail "$1.yaml must not hold: $2"; }

step "helm lint"
helm lint --strict --kube-version "$kube.0" "$chart" --set token=lint-token
helm lint --strict --kube-version "$kube.0" "$chart" -f "$chart/ci/all-hpa-values.yaml"
helm lint --strict --kube-version "$kube.0" "$chart" -f "$chart/ci/all-keda-values.yaml"

step "helm template: default values, every optional object (HPA), every optional object (KEDA)"
render default --set token=ci-token
render all-hpa -f "$chart/ci/all-hpa-values.yaml"
render all-keda -f "$chart/ci/all-keda-values.yaml"
wc -l "$out"/*.yaml | sed 's|'"$out"'/||'

step "values the chart refuses"
refused "give the token" --set token=
refused "choose one" --set token=t,hpa.enabled=true,keda.enabled=true
refused "must be bigger than" --set token=t,drainTimeoutSeconds=60
refused "may not hold spaces" --set-string 'token=a&b'

step "what the manifests must say"
for kind in Deployment Service Secret PodDisruptionBudget; do has default "kind: $kind"; done
for kind in ServiceMonitor HorizontalPodAutoscaler; do lacks default "kind: $kind"; done
lacks default "kind: ScaledObject"
has default "replicas: 2"
has default "path: /health/ready"
has default "path: /health/live"
has default "startupProbe:"
has default "readOnlyRootFilesystem: true"
has default "allowPrivilegeEscalation: false"
has default "medium: Memory"
has default "mountPath: /dev/shm"
has default "mountPath: /tmp"
has default "mountPath: /home/cdpvisor"
has default '- /var/run/cdpvisor/token'
has default 'value: "--no-sandbox\n"'
has default '- $(POD_IP)'
for host in cdpv-cdpvisor cdpv-cdpvisor.agents cdpv-cdpvisor.agents.svc cdpv-cdpvisor.agents.svc.cluster.local; do
  has default "- \"$host\""
done
has default "prometheus.io/scrape: \"true\""
has all-hpa "kind: ServiceMonitor"
has all-hpa "kind: HorizontalPodAutoscaler"
has all-hpa "clusterIP: None"
has all-hpa '- "cdp.example.com"'
has all-hpa 'value: "--no-sandbox\n--disable-dev-shm-usage\n--lang=fr\n"'
lacks all-hpa "replicas:"
has all-hpa "minAvailable: 1"
lacks all-hpa "maxUnavailable: 1"
has all-keda "kind: ScaledObject"
has all-keda "name: cdpvisor-token"
has all-keda "key: cdp-token"
has all-keda 'value: "\n"'
lacks all-keda "kind: Secret"
lacks all-keda "kind: HorizontalPodAutoscaler"
lacks all-keda "replicas:"
lacks all-keda "prometheus.io/scrape"

step "the CRDs of ServiceMonitor and ScaledObject, from their Go modules"
mkdir "$out/crds"
crd() { # crd MODULE@VERSION PATH: copy PATH of the module into $out/crds.
  local dir
  # Outside any module, so that go.mod and go.sum are left alone.
  dir=$(cd "$out" && go mod download -json "$1" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [[ -n "$dir" && -f "$dir/$2" ]] || fail "no $2 in $1"
  cp "$dir/$2" "$out/crds/"
}
crd "$promop" example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml
crd "$keda" config/crd/bases/keda.sh_scaledobjects.yaml

step "kubectl-validate --version $kube"
validate --version "$kube" --local-crds "$out/crds" "$out/default.yaml" "$out/all-hpa.yaml" "$out/all-keda.yaml"
echo "helm check: the chart lints, renders and validates"
