{{/*
Names and labels. Every component's resources are named after the component (image name = values key =
Service name = folder name, docs/architecture.md#names), so one release per namespace; labels tie them to the release.
*/}}

{{- define "engram.chart" -}}
{{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels that select one component's pods: (dict "root" $ "name" "cards"). */}}
{{- define "engram.selectorLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end }}

{{/* Labels of every object of one component. */}}
{{- define "engram.labels" -}}
{{ include "engram.selectorLabels" . }}
app.kubernetes.io/part-of: engram
app.kubernetes.io/component: {{ .component | default .name }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ include "engram.chart" .root }}
{{- end }}

{{/* Selects every pod of this release, whatever its component (NetworkPolicies, ServiceMonitor). */}}
{{- define "engram.releaseSelector" -}}
app.kubernetes.io/part-of: engram
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* The application components, in start order (services before the gateway). */}}
{{- define "engram.components" -}}
identity cards organizations billing ai gateway
{{- end }}

{{/* The gRPC port of each service and the metrics port of each component (docs/architecture.md#conventions). */}}
{{- define "engram.grpcPort" -}}
{{- get (dict "identity" 50051 "organizations" 50052 "cards" 50053 "billing" 50054 "ai" 50055) . -}}
{{- end }}
{{- define "engram.metricsPort" -}}
{{- get (dict "gateway" 9460 "identity" 9461 "organizations" 9462 "cards" 9463 "billing" 9464 "ai" 9465) . -}}
{{- end }}

{{/* A component's image reference; the tag may carry a digest (skaffold sets tag@sha256:...). */}}
{{- define "engram.image" -}}
{{- $image := .values.image -}}
{{ printf "%s:%s" $image.repository ($image.tag | default .root.Chart.AppVersion) }}
{{- end }}

{{/* SERVICE_VERSION: the tag without a digest. */}}
{{- define "engram.version" -}}
{{ regexReplaceAll "@.*$" (.values.image.tag | default .root.Chart.AppVersion) "" }}
{{- end }}

{{/* The Secret holding one database URL. */}}
{{- define "engram.databaseSecret" -}}
{{ .values.database.existingSecret | default .root.Values.secrets.existingSecret }}
{{- end }}

{{/* imagePullSecrets of a pod spec, or nothing (callers wrap it in a with). */}}
{{- define "engram.imagePullSecrets" -}}
{{- with .Values.global.imagePullSecrets -}}
imagePullSecrets:
{{- range . }}
  - name: {{ . }}
{{- end }}
{{- end }}
{{- end }}

{{/* Redis and NATS URLs: the in-cluster dev instances when devDependencies is on, else the values. */}}
{{- define "engram.redisUrl" -}}
{{ if .Values.devDependencies.enabled }}redis://dev-redis:6379{{ else }}{{ .Values.redis.url }}{{ end }}
{{- end }}
{{- define "engram.natsUrl" -}}
{{ if .Values.devDependencies.enabled }}nats://dev-nats:4222{{ else }}{{ .Values.nats.url }}{{ end }}
{{- end }}

{{/* The events variables (NATS and the stream) of a service that publishes or consumes events, set into .env: (dict "root" $ "env" $env). */}}
{{- define "engram.eventsEnv" -}}
{{- $root := .root }}
{{- $events := $root.Values.events }}
{{- $_ := set .env "NATS_URL" (include "engram.natsUrl" $root) }}
{{- $_ := set .env "EVENTS_STREAM" $events.stream }}
{{- $_ := set .env "EVENTS_SUBJECT_PREFIX" $events.subjectPrefix }}
{{- $_ := set .env "EVENTS_STREAM_MAX_AGE_HOURS" (toString $events.maxAgeHours) }}
{{- $_ := set .env "EVENTS_STREAM_MAX_BYTES" (toString (int64 $events.maxBytes)) }}
{{- $_ := set .env "EVENTS_STREAM_REPLICAS" (toString $events.replicas) }}
{{- $_ := set .env "EVENTS_STREAM_ENFORCE_LIMITS" (toString $events.enforceLimits) }}
{{- end }}

{{/* REDIS_URL and REDIS_KEY_PREFIX of a component into its env and secretEnv: (dict "root" $ "env" $env "secretEnv" $secretEnv); returns the secretEnv list as JSON. */}}
{{- define "engram.redisEnv" -}}
{{- $root := .root }}
{{- $_ := set .env "REDIS_KEY_PREFIX" $root.Values.redis.keyPrefix }}
{{- $secretEnv := .secretEnv }}
{{- if $root.Values.redis.existingSecret }}
{{- $secretEnv = append $secretEnv (dict "name" "REDIS_URL" "secret" $root.Values.redis.existingSecret "key" $root.Values.redis.key) }}
{{- else }}
{{- $_ := set .env "REDIS_URL" (include "engram.redisUrl" $root) }}
{{- end }}
{{- toJson $secretEnv }}
{{- end }}


{{- /* The origin browsers send card files to (presigned PUTs): cards.media.publicEndpoint, else its endpoint,
else the bucket's own on AWS; without a bucket (a development cluster) the stand-in cards runs, reached through
`skaffold dev`'s port-forward on localhost:4570. */}}
{{- define "engram.mediaUploadOrigin" -}}
{{- $m := .Values.cards.media -}}
{{- $url := $m.publicEndpoint | default $m.endpoint -}}
{{- if $url -}}
{{- $u := urlParse $url -}}{{ printf "%s://%s" $u.scheme $u.host }}
{{- else if $m.bucket -}}
{{- printf "https://%s.s3.%s.amazonaws.com" $m.bucket $m.region -}}
{{- else -}}
http://localhost:4570
{{- end -}}
{{- end }}
