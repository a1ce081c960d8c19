{{/*
What every pod of the chart shares: the restricted security context (non-root 10001, no privilege
escalation, read-only root filesystem unless a component's writableRootFilesystem says otherwise, no
capabilities, RuntimeDefault seccomp) and a writable /tmp.
*/}}

{{- define "engram.podSecurityContext" -}}
securityContext:
  runAsNonRoot: true
  runAsUser: {{ .uid | default 10001 }}
  runAsGroup: {{ .uid | default 10001 }}
  fsGroup: {{ .uid | default 10001 }}
  seccompProfile:
    type: RuntimeDefault
{{- end }}

{{- define "engram.containerSecurityContext" -}}
securityContext:
  allowPrivilegeEscalation: false
  {{- /* Only the gateway may opt out, for skaffold's dev file sync (values-dev.yaml). */}}
  readOnlyRootFilesystem: {{ not (and .values .values.writableRootFilesystem) }}
  capabilities:
    drop: [ALL]
{{- end }}

{{- define "engram.tmpVolumeMount" -}}
- name: tmp
  mountPath: /tmp
{{- end }}

{{- define "engram.tmpVolume" -}}
- name: tmp
  emptyDir:
    sizeLimit: 64Mi
{{- end }}

{{/*
The environment of one component's container: (dict "root" $ "name" "cards" "values" $v "env" $plain
"secretEnv" $refs). Plain values merge chart-set variables with <component>.env (which wins), then come
secret references ({name, secret, key}), then <component>.extraEnv. A name set twice is an error, so an
override can never be silently shadowed.
*/}}
{{- define "engram.env" -}}
{{- $root := .root -}}
{{- $plain := dict "NODE_ENV" "production" "LOG_LEVEL" $root.Values.logLevel "SERVICE_VERSION" (include "engram.version" .) -}}
{{- with $root.Values.observability.otlpEndpoint }}{{ $_ := set $plain "OTEL_EXPORTER_OTLP_ENDPOINT" . }}{{ end -}}
{{- $plain = mergeOverwrite $plain .env (.values.env | default dict) -}}
{{- $seen := dict -}}
env:
{{- range $name, $value := $plain }}
  {{- $_ := set $seen $name true }}
  - name: {{ $name }}
    value: {{ $value | toString | quote }}
{{- end }}
{{- range .secretEnv }}
  {{- if hasKey $seen .name }}{{ fail (printf "%s: %s is set both as a plain value and from a Secret" $.name .name) }}{{ end }}
  {{- $_ := set $seen .name true }}
  - name: {{ .name }}
    valueFrom:
      secretKeyRef:
        name: {{ .secret }}
        key: {{ .key }}
{{- end }}
{{- range .values.extraEnv }}
  {{- if hasKey $seen .name }}{{ fail (printf "%s: extraEnv %s is already set by the chart; use env to override it" $.name .name) }}{{ end }}
  {{- $_ := set $seen .name true }}
  {{- toYaml (list .) | nindent 2 }}
{{- end }}
{{- end }}

{{/* Secret references of an optional SaaS integration ({existingSecret, keys}); none when existingSecret is empty. */}}
{{- define "engram.integrationEnv" -}}
{{- $refs := list -}}
{{- if .existingSecret -}}
{{- range $name, $key := .keys -}}
{{- $refs = append $refs (dict "name" $name "secret" $.existingSecret "key" $key) -}}
{{- end -}}
{{- end -}}
{{- toJson $refs -}}
{{- end }}
