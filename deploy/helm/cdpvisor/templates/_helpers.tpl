{{/* The chart's name, at most 63 characters. */}}
{{- define "cdpvisor.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The name of every object: the release's, with the chart's name added unless
the release's already holds it. At most 58 characters, so that "-pods" fits.
*/}}
{{- define "cdpvisor.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 58 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 58 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 58 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "cdpvisor.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "cdpvisor.selectorLabels" -}}
app.kubernetes.io/name: {{ include "cdpvisor.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "cdpvisor.labels" -}}
helm.sh/chart: {{ include "cdpvisor.chart" . }}
{{ include "cdpvisor.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* The image: repository@digest, else repository:tag. */}}
{{- define "cdpvisor.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion | toString) }}
{{- end }}
{{- end }}

{{/* The Secret holding the token, and its key. */}}
{{- define "cdpvisor.secretName" -}}
{{- .Values.existingSecret | default (include "cdpvisor.fullname" .) }}
{{- end }}

{{- define "cdpvisor.secretKey" -}}
{{- if .Values.existingSecret }}{{ .Values.existingSecretKey | default "token" }}{{ else }}token{{ end }}
{{- end }}

{{/*
The Host names cdpvisor answers under (--allow-host): the Service's four,
then allowHosts. The pod's IP is added in the Deployment.
*/}}
{{- define "cdpvisor.allowHosts" -}}
{{- $svc := include "cdpvisor.fullname" . }}
{{- $ns := .Release.Namespace }}
{{- $hosts := list $svc (printf "%s.%s" $svc $ns) (printf "%s.%s.svc" $svc $ns) (printf "%s.%s.svc.%s" $svc $ns .Values.clusterDomain) }}
{{- range .Values.allowHosts }}
{{- $hosts = append $hosts . }}
{{- end }}
{{- $hosts | uniq | toJson }}
{{- end }}

{{/*
Checks of values that would make a broken release, run by every template
that includes it (the Deployment does).
*/}}
{{- define "cdpvisor.validate" -}}
{{- if and .Values.hpa.enabled .Values.keda.enabled }}
{{- fail "hpa.enabled and keda.enabled: choose one, KEDA makes its own HorizontalPodAutoscaler" }}
{{- end }}
{{- if and (not .Values.token) (not .Values.existingSecret) }}
{{- fail "give the token: --set token=... (the chart makes a Secret of it) or --set existingSecret=NAME (a Secret with key existingSecretKey)" }}
{{- end }}
{{- if and .Values.token .Values.existingSecret }}
{{- fail "token and existingSecret are both set: give one" }}
{{- end }}
{{- if .Values.token }}
{{- if regexMatch "[ &\t\r\n]" (toString .Values.token) }}
{{- fail "the token may not hold spaces, tabs, newlines or '&' (cdpvisor refuses it)" }}
{{- end }}
{{- end }}
{{- $drain := int .Values.drainTimeoutSeconds }}
{{- $pre := int .Values.preStopSleepSeconds }}
{{- if le (int .Values.terminationGracePeriodSeconds) (add $drain $pre) }}
{{- fail (printf "terminationGracePeriodSeconds (%d) must be bigger than preStopSleepSeconds + drainTimeoutSeconds (%d): the kubelet would SIGKILL a draining replica" (int .Values.terminationGracePeriodSeconds) (add $drain $pre)) }}
{{- end }}
{{- end }}

{{/*
CDPVISOR_BROWSER_ARG: one argument per line, ending in a newline so that
cdpvisor reads it line by line even when it holds one argument (a single
line would be split as a shell splits words) or none (which then clears
the image's --no-sandbox).
*/}}
{{- define "cdpvisor.browserArgs" -}}
{{- $args := list }}
{{- if .Values.browser.noSandbox }}
{{- $args = append $args "--no-sandbox" }}
{{- end }}
{{- range .Values.browser.args }}
{{- $args = append $args (toString .) }}
{{- end }}
{{- printf "%s\n" (join "\n" $args) }}
{{- end }}
