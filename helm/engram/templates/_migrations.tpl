{{/*
The container that applies one service's migrations, from that service's own image (the migrations ship
inside it). Used by the pre-install/pre-upgrade Jobs (migrations.mode hook) and as an init container
(migrations.mode initContainer). Concurrent runs are safe: the runner holds a PostgreSQL advisory lock.
*/}}
{{- define "engram.migrationContainer" -}}
- name: migrate
  image: {{ include "engram.image" . }}
  imagePullPolicy: {{ .values.image.pullPolicy }}
  workingDir: /app
  command:
    {{- toYaml .root.Values.migrations.command | nindent 4 }}
  env:
    - name: NODE_ENV
      value: production
    - name: LOG_LEVEL
      value: {{ .root.Values.logLevel | quote }}
    - name: DATABASE_URL
      valueFrom:
        secretKeyRef:
          name: {{ include "engram.databaseSecret" . }}
          key: {{ .values.database.key }}
  resources:
    {{- toYaml .root.Values.migrations.resources | nindent 4 }}
  {{- include "engram.containerSecurityContext" . | nindent 2 }}
  volumeMounts:
    {{- include "engram.tmpVolumeMount" . | nindent 4 }}
{{- end }}
