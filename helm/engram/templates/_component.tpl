{{/*
The objects every component has, called from its own template file with
(dict "root" $ "name" "cards" "values" .Values.cards "ports" (list (dict "name" "grpc" "port" 50053) ...)
      "env" (dict ...) "secretEnv" (list (dict "name" "DATABASE_URL" "secret" "..." "key" "...")) "probe" "grpc").
probe "grpc" uses the standard gRPC health service on the grpc port; "http" uses /healthz and /readyz on
the metrics port (the gateway, which has no gRPC server).
*/}}

{{- define "engram.serviceAccount" -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ .name }}
  labels:
    {{- include "engram.labels" . | nindent 4 }}
  {{- with .values.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
automountServiceAccountToken: false
{{- end }}

{{- define "engram.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ .name }}
  labels:
    {{- include "engram.labels" . | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "engram.selectorLabels" . | nindent 4 }}
  ports:
    {{- range .ports }}
    - name: {{ .name }}
      port: {{ .port }}
      targetPort: {{ .name }}
      protocol: TCP
      {{- if eq .name "grpc" }}
      appProtocol: grpc
      {{- end }}
    {{- end }}
{{- end }}

{{- define "engram.probes" -}}
{{- $grpc := eq .probe "grpc" -}}
{{- $port := include "engram.grpcPort" .name -}}
startupProbe:
  {{- if $grpc }}
  grpc: { port: {{ $port }} }
  {{- else }}
  httpGet: { path: /healthz, port: metrics }
  {{- end }}
  periodSeconds: 2
  failureThreshold: 30
readinessProbe:
  {{- if $grpc }}
  grpc: { port: {{ $port }} }
  {{- else }}
  httpGet: { path: /readyz, port: metrics }
  {{- end }}
  periodSeconds: 5
  timeoutSeconds: 2
  failureThreshold: 2
livenessProbe:
  {{- if $grpc }}
  grpc: { port: {{ $port }} }
  {{- else }}
  httpGet: { path: /healthz, port: metrics }
  {{- end }}
  periodSeconds: 10
  timeoutSeconds: 3
  failureThreshold: 3
{{- end }}

{{- define "engram.deployment" -}}
{{- $root := .root -}}
{{- $values := .values -}}
{{- $lifecycle := $root.Values.lifecycle -}}
{{- if le (int $lifecycle.terminationGracePeriodSeconds) (add $lifecycle.preStopSleepSeconds 26 | int) }}
{{- fail "lifecycle.terminationGracePeriodSeconds must exceed preStopSleepSeconds + 26 (the app's 25 s shutdown limit and 1 s log flush)" }}
{{- end -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .name }}
  labels:
    {{- include "engram.labels" . | nindent 4 }}
spec:
  {{- if not $values.autoscaling.enabled }}
  replicas: {{ $values.replicaCount }}
  {{- end }}
  revisionHistoryLimit: 5
  # A new pod must be ready before an old one goes, and only one extra pod exists at a time.
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 0
      maxSurge: 1
  selector:
    matchLabels:
      {{- include "engram.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "engram.labels" . | nindent 8 }}
      {{- if or $root.Values.metrics.scrapeAnnotations $values.podAnnotations }}
      annotations:
        {{- if $root.Values.metrics.scrapeAnnotations }}
        prometheus.io/scrape: "true"
        prometheus.io/port: {{ include "engram.metricsPort" .name | quote }}
        prometheus.io/path: /metrics
        {{- end }}
        {{- with $values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- end }}
    spec:
      serviceAccountName: {{ .name }}
      automountServiceAccountToken: false
      terminationGracePeriodSeconds: {{ $lifecycle.terminationGracePeriodSeconds }}
      {{- with include "engram.imagePullSecrets" $root }}{{ . | nindent 6 }}{{ end }}
      {{- include "engram.podSecurityContext" (dict) | nindent 6 }}
      {{- if and (eq $root.Values.migrations.mode "initContainer") $values.database $values.database.enabled }}
      initContainers:
        {{- include "engram.migrationContainer" . | nindent 8 }}
      {{- end }}
      containers:
        - name: {{ .name }}
          image: {{ include "engram.image" . }}
          imagePullPolicy: {{ $values.image.pullPolicy }}
          ports:
            {{- range .ports }}
            - name: {{ .name }}
              containerPort: {{ .port }}
              protocol: TCP
            {{- end }}
          {{- include "engram.env" . | nindent 10 }}
          {{- include "engram.probes" . | nindent 10 }}
          # Keep serving while the endpoint removal reaches every node; the app then drains on SIGTERM.
          # The native sleep action needs no shell or sleep binary in the image.
          lifecycle:
            preStop:
              sleep:
                seconds: {{ $lifecycle.preStopSleepSeconds }}
          resources:
            {{- toYaml $values.resources | nindent 12 }}
          {{- include "engram.containerSecurityContext" . | nindent 10 }}
          volumeMounts:
            {{- include "engram.tmpVolumeMount" . | nindent 12 }}
      volumes:
        {{- include "engram.tmpVolume" . | nindent 8 }}
      {{- with $values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
{{- end }}

{{- define "engram.autoscaling" -}}
{{- $values := .values -}}
{{- if $values.autoscaling.enabled }}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ .name }}
  labels:
    {{- include "engram.labels" . | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ .name }}
  minReplicas: {{ $values.autoscaling.minReplicas }}
  maxReplicas: {{ $values.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ $values.autoscaling.targetCPUUtilizationPercentage }}
{{- end }}
{{- if $values.podDisruptionBudget.enabled }}
{{- $pdb := $values.podDisruptionBudget }}
{{- if and (hasKey $pdb "minAvailable") (hasKey $pdb "maxUnavailable") }}
{{- fail (printf "%s.podDisruptionBudget: set minAvailable or maxUnavailable, not both" .name) }}
{{- end }}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ .name }}
  labels:
    {{- include "engram.labels" . | nindent 4 }}
spec:
  {{- if hasKey $pdb "maxUnavailable" }}
  maxUnavailable: {{ $pdb.maxUnavailable }}
  {{- else }}
  minAvailable: {{ $pdb.minAvailable }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "engram.selectorLabels" . | nindent 6 }}
{{- end }}
{{- end }}

{{/* All of one component: ServiceAccount, Service, Deployment, and its HPA and PDB when switched on. */}}
{{- define "engram.component" -}}
{{ include "engram.serviceAccount" . }}
---
{{ include "engram.service" . }}
---
{{ include "engram.deployment" . }}
{{ include "engram.autoscaling" . }}
{{- end }}
