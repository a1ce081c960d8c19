// What the chart's pods promise: the restricted security profile everywhere, gRPC probes for services and HTTP
// probes for the gateway on the ports of docs/architecture.md#conventions, rolling updates that drop no request,
// and exactly the environment deploy/local/src/components.ts gives each component, secrets by reference only.

import { type ComponentName, componentEnvironments, DEFAULT_PORTS } from '@engram/local/components';
import { describe, expect, it } from 'vitest';
import {
  chartDir,
  find,
  helm,
  helmTemplate,
  type KubeObject,
  ofKind,
  PROFILES,
  render,
  renderProfile,
} from './helm-support.ts';

const COMPONENTS: ComponentName[] = ['gateway', 'identity', 'organizations', 'cards', 'billing', 'ai'];
const SERVICES = COMPONENTS.filter((c) => c !== 'gateway') as Exclude<ComponentName, 'gateway'>[];
const SECRET_VARIABLES = [
  'BETTER_AUTH_SECRET',
  'INTERNAL_TOKEN_PRIVATE_KEY',
  'INTERNAL_TOKEN_PUBLIC_KEYS',
  'DATABASE_URL',
  'MEDIA_STANDIN_ACCESS_KEY_ID',
  'MEDIA_STANDIN_SECRET_ACCESS_KEY',
];

function podSpecs(objects: KubeObject[]) {
  return objects
    .filter((o) => ['Deployment', 'StatefulSet', 'Job'].includes(o.kind))
    .map((o) => ({ name: `${o.kind}/${o.metadata.name}`, spec: o.spec.template.spec }));
}

function appContainer(objects: KubeObject[], name: string) {
  const container = find(objects, 'Deployment', name).spec.template.spec.containers[0];
  expect(container.name).toBe(name);
  return container;
}

// biome-ignore lint/suspicious/noExplicitAny: rendered EnvVar entries
const envOf = (container: any): Map<string, any> => new Map(container.env.map((e: any) => [e.name, e]));

describe.each(PROFILES)('the pods of the %s values', (profile) => {
  const objects = renderProfile(profile);

  it('run as a non-root user with RuntimeDefault seccomp, no privilege escalation, a read-only root and no capabilities', () => {
    const pods = podSpecs(objects);
    expect(pods.length).toBeGreaterThanOrEqual(6);
    for (const { name, spec } of pods) {
      expect(spec.securityContext, name).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(spec.securityContext.runAsUser, name).toBeGreaterThan(0);
      for (const container of [...(spec.initContainers ?? []), ...spec.containers]) {
        // The one exception: in the dev values the gateway's root stays writable for skaffold's file sync.
        const syncTarget = profile === 'dev' && name === 'Deployment/gateway' && container.name === 'gateway';
        expect(container.securityContext, `${name} ${container.name}`).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: !syncTarget,
          capabilities: { drop: ['ALL'] },
        });
      }
    }
  });

  it('give every component its Deployment, Service and ServiceAccount named after it, running as user 10001 with a writable /tmp', () => {
    for (const name of COMPONENTS) {
      const deployment = find(objects, 'Deployment', name);
      const spec = deployment.spec.template.spec;
      expect(find(objects, 'Service', name).spec.selector).toEqual(deployment.spec.selector.matchLabels);
      expect(find(objects, 'ServiceAccount', name).automountServiceAccountToken).toBe(false);
      expect(spec.serviceAccountName).toBe(name);
      expect(spec.securityContext).toMatchObject({ runAsUser: 10001, fsGroup: 10001 });
      expect(spec.volumes).toContainEqual(expect.objectContaining({ name: 'tmp', emptyDir: expect.any(Object) }));
      expect(appContainer(objects, name).volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
      expect(appContainer(objects, name).image).toMatch(new RegExp(`^ghcr\\.io/engram-app/${name}:`));
    }
  });

  it('probe services over native gRPC health on their gRPC port', () => {
    for (const name of SERVICES) {
      const container = appContainer(objects, name);
      const grpcPort = DEFAULT_PORTS.grpc[name];
      expect(container.ports).toContainEqual({ name: 'grpc', containerPort: grpcPort, protocol: 'TCP' });
      expect(container.ports).toContainEqual({
        name: 'metrics',
        containerPort: DEFAULT_PORTS.metrics[name],
        protocol: 'TCP',
      });
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
        expect(container[probe], `${name} ${probe}`).toMatchObject({ grpc: { port: grpcPort } });
        expect(container[probe].httpGet).toBeUndefined();
      }
    }
  });

  it('probe the gateway over HTTP: /readyz for readiness and /healthz for liveness on its metrics port', () => {
    const gateway = appContainer(objects, 'gateway');
    expect(gateway.ports).toEqual([
      { name: 'http', containerPort: DEFAULT_PORTS.gateway, protocol: 'TCP' },
      { name: 'metrics', containerPort: DEFAULT_PORTS.gatewayMetrics, protocol: 'TCP' },
    ]);
    expect(gateway.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'metrics' });
    expect(gateway.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
    expect(gateway.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
  });

  it('roll out one new pod at a time, never below the wanted count, and terminate after a preStop pause and a full drain', () => {
    for (const name of COMPONENTS) {
      const deployment = find(objects, 'Deployment', name);
      expect(deployment.spec.strategy).toEqual({
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: 0, maxSurge: 1 },
      });
      const pause = appContainer(objects, name).lifecycle.preStop.sleep.seconds;
      expect(pause).toBeGreaterThan(0);
      // preStop + the app's shutdown limit (25 s, which includes its 5 s drain) + 1 s to flush logs.
      expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(pause + 26);
    }
  });
});

describe('rendering refuses unsafe settings', () => {
  it('refuses a termination grace period shorter than the preStop pause plus the app shutdown', () => {
    const result = helmTemplate({ set: ['lifecycle.terminationGracePeriodSeconds=20'] });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/terminationGracePeriodSeconds must exceed/);
  });

  it('refuses clusters older than Kubernetes 1.30, which lack the native preStop sleep action', () => {
    const result = helm(['template', 'engram', chartDir, '--kube-version', '1.29.0']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/chart requires kubeVersion: >=1.30.0-0/);
    expect(helm(['template', 'engram', chartDir, '--kube-version', '1.30.0']).status).toBe(0);
  });

  it('refuses an extraEnv entry that would shadow a variable the chart sets', () => {
    const result = helmTemplate({
      json: { cards: { extraEnv: [{ name: 'NATS_URL', value: 'nats://elsewhere:4222' }] } },
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/cards: extraEnv NATS_URL is already set by the chart/);
  });
});

// Where `npm start` is deliberately roomier or different from what the chart deploys.
const PRODUCTION_VALUES: Record<string, string> = { NODE_ENV: 'production', AUTH_RATE_LIMIT_SIGN_IN_MAX: '3' };

describe('the environment of each component', () => {
  // The settings under which components.ts and the chart's defaults describe the same system.
  const local = new Map(
    componentEnvironments({
      databaseUrl: 'postgresql://unused@db:5432/engram',
      redisUrl: 'redis://redis:6379',
      natsUrl: 'nats://nats:4222',
      ports: DEFAULT_PORTS,
      secrets: {
        BETTER_AUTH_SECRET: 'x',
        INTERNAL_TOKEN_PRIVATE_KEY: 'x',
        INTERNAL_TOKEN_PUBLIC_KEYS: 'x',
        MEDIA_STANDIN_ACCESS_KEY_ID: 'x',
        MEDIA_STANDIN_SECRET_ACCESS_KEY: 'x',
      },
      publicBaseUrl: 'http://localhost:3000',
      streamName: 'ENGRAM',
      subjectPrefix: '',
      logLevel: 'info',
    }),
  );
  const objects = render();

  it.each(COMPONENTS)('%s gets every variable components.ts gives it, with the same plain values', (name) => {
    const env = envOf(appContainer(objects, name));
    for (const [variable, localValue] of Object.entries(local.get(name) ?? {})) {
      const entry = env.get(variable);
      expect(entry, `${name} ${variable}`).toBeDefined();
      if (SECRET_VARIABLES.includes(variable)) continue;
      // Locally peers are on 127.0.0.1; in the cluster each is its Service, named after the component.
      const peer = /^([A-Z]+)_(ADDR|HTTP_URL)$/.exec(variable)?.[1]?.toLowerCase();
      const expected = peer ? localValue.replace('127.0.0.1', peer) : (PRODUCTION_VALUES[variable] ?? localValue);
      expect(entry.value, `${name} ${variable}`).toBe(expected);
    }
    expect(env.get('SERVICE_VERSION')?.value).toBe('0.1.0');
  });

  it.each(COMPONENTS)('%s reads its secrets from Secrets, never from plain values', (name) => {
    const env = envOf(appContainer(objects, name));
    const secrets = Object.keys(local.get(name) ?? {}).filter((v) => SECRET_VARIABLES.includes(v));
    expect(secrets.length).toBeGreaterThan(0);
    for (const variable of secrets) {
      expect(env.get(variable)?.value, `${name} ${variable}`).toBeUndefined();
      expect(env.get(variable)?.valueFrom?.secretKeyRef, `${name} ${variable}`).toMatchObject({ name: 'engram' });
    }
  });

  it('gives cards the events stream limits: one copy by default, three in the production values', () => {
    const limits = (rendered: typeof objects) =>
      Object.fromEntries(
        [...envOf(appContainer(rendered, 'cards'))]
          .filter(([name]) => name.startsWith('EVENTS_STREAM_'))
          .map(([name, entry]) => [name, entry.value]),
      );
    expect(limits(objects)).toEqual({
      EVENTS_STREAM_MAX_AGE_HOURS: '720',
      EVENTS_STREAM_MAX_BYTES: '-1',
      EVENTS_STREAM_REPLICAS: '1',
      EVENTS_STREAM_ENFORCE_LIMITS: 'false',
    });
    expect(limits(renderProfile('production'))).toMatchObject({
      EVENTS_STREAM_REPLICAS: '3',
      EVENTS_STREAM_MAX_BYTES: '53687091200',
    });
  });

  it('tells cards how long to keep idempotency keys: a day by default, what cards.idempotency says', () => {
    const retention = (rendered: typeof objects) =>
      envOf(appContainer(rendered, 'cards')).get('IDEMPOTENCY_RETENTION_HOURS')?.value;
    expect(retention(objects)).toBe('24');
    expect(retention(render({ set: ['cards.idempotency.retentionHours=168'] }))).toBe('168');
    expect(() => render({ set: ['cards.idempotency.retentionHours=0'] })).toThrow();
  });

  it('tells cards when to fit learners’ FSRS parameters again: every 1,000 reviews from 400, or what cards.optimizer says', () => {
    const env = (rendered: typeof objects) => envOf(appContainer(rendered, 'cards'));
    expect(env(objects).get('OPTIMIZE_EVERY_REVIEWS')?.value).toBe('1000');
    expect(env(objects).get('OPTIMIZE_MINIMUM_REVIEWS')?.value).toBe('400');
    const set = render({ set: ['cards.optimizer.everyReviews=500', 'cards.optimizer.minimumReviews=1000'] });
    expect(env(set).get('OPTIMIZE_EVERY_REVIEWS')?.value).toBe('500');
    expect(env(set).get('OPTIMIZE_MINIMUM_REVIEWS')?.value).toBe('1000');
    expect(() => render({ set: ['cards.optimizer.everyReviews=0'] })).toThrow();
  });

  it('gives cards a young generation sized for imports and exports, which cards.youngGenerationMb and cards.env change', () => {
    const nodeOptions = (rendered: typeof objects) => envOf(appContainer(rendered, 'cards')).get('NODE_OPTIONS')?.value;
    expect(nodeOptions(objects)).toBe('--max-semi-space-size=16');
    expect(nodeOptions(render({ set: ['cards.youngGenerationMb=32'] }))).toBe('--max-semi-space-size=32');
    expect(nodeOptions(render({ set: ['cards.youngGenerationMb=0'] }))).toBeUndefined();
    expect(nodeOptions(render({ json: { cards: { env: { NODE_OPTIONS: '--max-old-space-size=300' } } } }))).toBe(
      '--max-old-space-size=300',
    );
    expect(() => render({ set: ['cards.youngGenerationMb=-1'] })).toThrow();
    expect(envOf(appContainer(objects, 'gateway')).has('NODE_OPTIONS')).toBe(false);
  });

  it('keeps cards’ media in the S3 bucket of the values, with credentials by reference, and refuses an endpoint without a bucket', () => {
    const cards = (rendered: typeof objects) => envOf(appContainer(rendered, 'cards'));
    for (const name of ['MEDIA_S3_BUCKET', 'MEDIA_S3_REGION', 'MEDIA_S3_ENDPOINT', 'AWS_ACCESS_KEY_ID']) {
      expect(cards(objects).has(name), name).toBe(false);
    }
    const media = {
      bucket: 'engram-media',
      region: 'eu-west-1',
      endpoint: 'http://minio.storage:9000',
      publicEndpoint: 'https://media.engram.example',
      existingSecret: 'engram-s3',
    };
    const env = cards(render({ json: { cards: { media } } }));
    expect(env.get('MEDIA_S3_BUCKET').value).toBe('engram-media');
    expect(env.get('MEDIA_S3_REGION').value).toBe('eu-west-1');
    expect(env.get('MEDIA_S3_ENDPOINT').value).toBe('http://minio.storage:9000');
    expect(env.get('MEDIA_S3_PUBLIC_ENDPOINT').value).toBe('https://media.engram.example');
    expect(env.get('AWS_SECRET_ACCESS_KEY').valueFrom.secretKeyRef).toEqual({
      name: 'engram-s3',
      key: 'AWS_SECRET_ACCESS_KEY',
    });
    const aws = cards(render({ json: { cards: { media: { bucket: 'engram-media' } } } }));
    expect(aws.get('MEDIA_S3_REGION').value).toBe('us-east-1');
    expect(aws.has('MEDIA_S3_ENDPOINT')).toBe(false);
    const endpointOnly = helmTemplate({ json: { cards: { media: { endpoint: 'http://minio.storage:9000' } } } });
    expect(endpointOnly.status).not.toBe(0);
    expect(endpointOnly.stderr).toMatch(/cards.media.endpoint and publicEndpoint need cards.media.bucket/);
    expect(helmTemplate({ json: { cards: { media: { bucket: 'Not_A_Bucket' } } } }).stderr).toMatch(/bucket/);
  });

  it('gives each database-owning service its own database URL key', () => {
    const keys = ['identity', 'cards', 'organizations', 'billing', 'ai'].map(
      (name) => envOf(appContainer(objects, name)).get('DATABASE_URL').valueFrom.secretKeyRef.key,
    );
    expect(keys).toEqual([
      'DATABASE_URL_IDENTITY',
      'DATABASE_URL_CARDS',
      'DATABASE_URL_ORGANIZATIONS',
      'DATABASE_URL_BILLING',
      'DATABASE_URL_AI',
    ]);
    expect(envOf(appContainer(objects, 'gateway')).has('DATABASE_URL')).toBe(false);
  });

  it('takes the log level, OTLP endpoint, image tag with a digest, env overrides and extra env from values', () => {
    const custom = render({
      set: [
        'logLevel=debug',
        'observability.otlpEndpoint=http://collector:4318',
        'cards.image.tag=1.2.3@sha256:abc',
        'cards.env.EVENTS_STREAM=OTHER',
      ],
      json: { cards: { extraEnv: [{ name: 'FEATURE_X', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] } },
    });
    const cards = appContainer(custom, 'cards');
    const env = envOf(cards);
    expect(cards.image).toBe('ghcr.io/engram-app/cards:1.2.3@sha256:abc');
    expect(env.get('SERVICE_VERSION').value).toBe('1.2.3');
    expect(env.get('LOG_LEVEL').value).toBe('debug');
    expect(env.get('OTEL_EXPORTER_OTLP_ENDPOINT').value).toBe('http://collector:4318');
    expect(env.get('EVENTS_STREAM').value).toBe('OTHER');
    expect(env.get('FEATURE_X').valueFrom.secretKeyRef).toEqual({ name: 's', key: 'k' });
    expect(envOf(appContainer(objects, 'cards')).has('OTEL_EXPORTER_OTLP_ENDPOINT')).toBe(false);
  });

  it('lets identity show Gravatars by default, and turns them off with gravatar=false', () => {
    expect(envOf(appContainer(objects, 'identity')).has('GRAVATAR_URL')).toBe(false);
    const off = render({ set: ['identity.gravatar=false'] });
    expect(envOf(appContainer(off, 'identity')).get('GRAVATAR_URL').value).toBe('off');
  });

  it('sends identity’s mail through SES with the region and sender of the values, and refuses a region without a sender', () => {
    const identity = (rendered: typeof objects) => envOf(appContainer(rendered, 'identity'));
    for (const name of ['SES_REGION', 'MAIL_FROM', 'SES_ENDPOINT']) expect(identity(objects).has(name)).toBe(false);
    const production = identity(renderProfile('production'));
    expect(production.get('SES_REGION').value).toBe('eu-west-1');
    expect(production.get('MAIL_FROM').value).toBe('Engram <no-reply@engram.example.com>');
    expect(production.get('NODE_ENV').value).toBe('production');

    const vpc = identity(
      render({
        json: { identity: { ses: { region: 'us-east-1', from: 'a@b.example', endpoint: 'https://vpce.example' } } },
      }),
    );
    expect(vpc.get('SES_ENDPOINT').value).toBe('https://vpce.example');
    const unsigned = helmTemplate({ json: { identity: { ses: { region: 'us-east-1' } } } });
    expect(unsigned.status).not.toBe(0);
    expect(unsigned.stderr).toMatch(/identity.ses.from: the sender SES has verified is required/);
    expect(helmTemplate({ json: { identity: { ses: { region: 'Ireland' } } } }).stderr).toMatch(/identity.ses.region/);
  });

  it('texts identity’s phone codes through SNS only where a region is given, with its endpoint and sender ID', () => {
    const identity = (rendered: typeof objects) => envOf(appContainer(rendered, 'identity'));
    for (const name of ['SNS_REGION', 'SNS_ENDPOINT', 'SMS_SENDER_ID']) expect(identity(objects).has(name)).toBe(false);
    const sms = identity(
      render({
        json: { identity: { sms: { region: 'sa-east-1', endpoint: 'https://vpce-sns.example', senderId: 'Engram' } } },
      }),
    );
    expect(sms.get('SNS_REGION').value).toBe('sa-east-1');
    expect(sms.get('SNS_ENDPOINT').value).toBe('https://vpce-sns.example');
    expect(sms.get('SMS_SENDER_ID').value).toBe('Engram');
    expect(helmTemplate({ json: { identity: { sms: { region: 'São Paulo' } } } }).stderr).toMatch(
      /identity.sms.region/,
    );
    expect(helmTemplate({ json: { identity: { sms: { senderId: 'Engram Learning' } } } }).stderr).toMatch(
      /identity.sms.senderId/,
    );
  });

  it('runs identity, the gateway and cards in development mode in the dev values, where mail goes to the dev mailbox and card files to the S3 stand-in', () => {
    const dev = renderProfile('dev');
    for (const name of ['identity', 'gateway', 'cards'] as const) {
      expect(envOf(appContainer(dev, name)).get('NODE_ENV').value, name).toBe('development');
    }
    expect(envOf(appContainer(dev, 'cards')).has('MEDIA_S3_BUCKET')).toBe(false);
    expect(envOf(appContainer(dev, 'gateway')).get('MEDIA_UPLOAD_ORIGINS').value).toBe('http://localhost:4570');
    expect(envOf(appContainer(dev, 'organizations')).get('NODE_ENV').value).toBe('production');
  });

  it("lets the pages send card files to the bucket's origin: its public endpoint, or AWS's for the bucket", () => {
    const origin = (media: object) =>
      envOf(appContainer(render({ json: { cards: { media } } }), 'gateway')).get('MEDIA_UPLOAD_ORIGINS').value;
    expect(origin({ bucket: 'engram-media', region: 'eu-west-1' })).toBe(
      'https://engram-media.s3.eu-west-1.amazonaws.com',
    );
    expect(origin({ bucket: 'media', region: 'eu-west-1', publicEndpoint: 'https://files.example.com/x' })).toBe(
      'https://files.example.com',
    );
  });

  it('gives identity captcha from the values, its secret by reference, and refuses a provider without its keys', () => {
    const captcha = { provider: 'cloudflare-turnstile', siteKey: 'site-key', existingSecret: 'engram-captcha' };
    const identity = envOf(appContainer(render({ json: { identity: { captcha } } }), 'identity'));
    expect(identity.get('CAPTCHA_PROVIDER').value).toBe('cloudflare-turnstile');
    expect(identity.get('CAPTCHA_SITE_KEY').value).toBe('site-key');
    expect(identity.get('CAPTCHA_SECRET_KEY').valueFrom.secretKeyRef).toEqual({
      name: 'engram-captcha',
      key: 'CAPTCHA_SECRET_KEY',
    });
    for (const name of ['CAPTCHA_PROVIDER', 'CAPTCHA_SECRET_KEY']) {
      expect(envOf(appContainer(objects, 'identity')).has(name)).toBe(false);
    }
    // The gateway lets the pages load that captcha's widget, and no other's.
    const gateway = envOf(appContainer(render({ json: { identity: { captcha } } }), 'gateway'));
    expect(gateway.get('CAPTCHA_PROVIDER').value).toBe('cloudflare-turnstile');
    expect(envOf(appContainer(objects, 'gateway')).has('CAPTCHA_PROVIDER')).toBe(false);
    const keyless = helmTemplate({ json: { identity: { captcha: { provider: 'hcaptcha', siteKey: 'k' } } } });
    expect(keyless.stderr).toMatch(/identity.captcha.existingSecret/);
    const siteless = helmTemplate({ json: { identity: { captcha: { provider: 'hcaptcha', existingSecret: 's' } } } });
    expect(siteless.stderr).toMatch(/identity.captcha.siteKey is required/);
  });

  it("gives the gateway Google sign-in's client id from identity's OAuth Secret, and none without one", () => {
    const oauth = { existingSecret: 'engram-oauth' };
    const gateway = envOf(appContainer(render({ json: { identity: { oauth } } }), 'gateway'));
    expect(gateway.get('GOOGLE_CLIENT_ID').valueFrom.secretKeyRef).toEqual({
      name: 'engram-oauth',
      key: 'GOOGLE_CLIENT_ID',
    });
    // The same key identity signs in with.
    const identity = envOf(appContainer(render({ json: { identity: { oauth } } }), 'identity'));
    expect(identity.get('GOOGLE_CLIENT_ID').valueFrom.secretKeyRef).toEqual(
      gateway.get('GOOGLE_CLIENT_ID').valueFrom.secretKeyRef,
    );
    expect(envOf(appContainer(objects, 'gateway')).has('GOOGLE_CLIENT_ID')).toBe(false);
  });

  it('gives identity ADMIN_EMAILS from the values', () => {
    const identity = envOf(
      appContainer(
        render({ json: { identity: { adminEmails: ['a@engram.example', 'b@engram.example'] } } }),
        'identity',
      ),
    );
    expect(identity.get('ADMIN_EMAILS').value).toBe('a@engram.example,b@engram.example');
    expect(envOf(appContainer(objects, 'identity')).has('ADMIN_EMAILS')).toBe(false);
    expect(helmTemplate({ json: { identity: { adminEmails: ['not an address'] } } }).status).not.toBe(0);
  });

  it('gives the gateway SUPPORT_EMAIL and GA_MEASUREMENT_ID from the values, and neither when they are empty', () => {
    const gateway = envOf(
      appContainer(
        render({ json: { gateway: { supportEmail: 'help@engram.example', gaMeasurementId: 'G-ABC123XYZ' } } }),
        'gateway',
      ),
    );
    expect(gateway.get('SUPPORT_EMAIL').value).toBe('help@engram.example');
    expect(gateway.get('GA_MEASUREMENT_ID').value).toBe('G-ABC123XYZ');
    for (const name of ['SUPPORT_EMAIL', 'GA_MEASUREMENT_ID'])
      expect(envOf(appContainer(objects, 'gateway')).has(name)).toBe(false);
    expect(helmTemplate({ json: { gateway: { supportEmail: 'not an address' } } }).status).not.toBe(0);
    expect(helmTemplate({ json: { gateway: { gaMeasurementId: 'UA-1234-1' } } }).status).not.toBe(0);
  });

  it("gives the gateway its batch size and call limits from the values, and refuses a batch size below the web app's", () => {
    expect(
      Object.fromEntries([...envOf(appContainer(objects, 'gateway'))].map(([name, e]) => [name, e.value])),
    ).toMatchObject({
      TRPC_MAX_BATCH_SIZE: '20',
      TRPC_RATE_LIMIT_PER_USER: '600',
      TRPC_RATE_LIMIT_STRIPE_PER_USER: '60',
      TRPC_RATE_LIMIT_GENERATE_PER_USER: '10',
      TRPC_RATE_LIMIT_UPLOAD_PER_USER: '10',
      TRPC_RATE_LIMIT_FORECAST_PER_USER: '30',
      TRPC_RATE_LIMIT_SYNC_PER_USER: '20',
    });
    const limits = { stripePerUser: 5, generatePerUser: 3, uploadPerUser: 4, forecastPerUser: 6, syncPerUser: 7 };
    const gateway = envOf(
      appContainer(render({ json: { gateway: { trpcMaxBatchSize: 50, rateLimit: limits } } }), 'gateway'),
    );
    expect(gateway.get('TRPC_MAX_BATCH_SIZE').value).toBe('50');
    expect(gateway.get('TRPC_RATE_LIMIT_STRIPE_PER_USER').value).toBe('5');
    expect(gateway.get('TRPC_RATE_LIMIT_GENERATE_PER_USER').value).toBe('3');
    expect(gateway.get('TRPC_RATE_LIMIT_UPLOAD_PER_USER').value).toBe('4');
    expect(gateway.get('TRPC_RATE_LIMIT_FORECAST_PER_USER').value).toBe('6');
    expect(gateway.get('TRPC_RATE_LIMIT_SYNC_PER_USER').value).toBe('7');
    expect(helmTemplate({ json: { gateway: { trpcMaxBatchSize: 19 } } }).status).not.toBe(0);
  });

  it('references outside SaaS credentials only when their Secret is named', () => {
    expect(envOf(appContainer(objects, 'billing')).has('STRIPE_SECRET_KEY')).toBe(false);
    const billing = envOf(appContainer(renderProfile('production'), 'billing'));
    expect(billing.get('STRIPE_PRICE_PRO_ANNUAL_BRL').value).toBe('price_1ProAnnualBrl');
    expect(billing.get('STRIPE_SECRET_KEY').valueFrom.secretKeyRef).toEqual({
      name: 'engram-stripe',
      key: 'STRIPE_SECRET_KEY',
    });
  });

  it('refuses Stripe keys without a price id for every plan, interval and currency', () => {
    expect(() => render({ set: ['billing.stripe.existingSecret=stripe'] })).toThrow(
      /billing\.stripe\.prices\.\w+ is required with billing\.stripe\.existingSecret/,
    );
  });
});

describe('Secrets', () => {
  it.each(['default', 'production'] as const)('the %s values render no Secret at all', (profile) => {
    expect(ofKind(renderProfile(profile), 'Secret')).toEqual([]);
  });

  it('the dev values render one dev-only Secret holding every key the pods reference', () => {
    const objects = renderProfile('dev');
    const [secret, ...others] = ofKind(objects, 'Secret');
    expect(others).toEqual([]);
    expect(secret?.metadata.annotations?.['engram.dev/warning']).toMatch(/dev-only/);
    const referenced = podSpecs(objects).flatMap(({ spec }) =>
      [...(spec.initContainers ?? []), ...spec.containers].flatMap((c) =>
        // biome-ignore lint/suspicious/noExplicitAny: rendered EnvVar entries
        (c.env ?? []).flatMap((e: any) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef] : [])),
      ),
    );
    expect(referenced.length).toBeGreaterThan(6);
    for (const ref of referenced) {
      expect(ref.name).toBe(secret?.metadata.name);
      expect(Object.keys(secret?.stringData ?? {})).toContain(ref.key);
    }
    expect(secret?.stringData.DATABASE_URL_CARDS).toMatch(
      /^postgresql:\/\/engram:.+@dev-postgresql:5432\/engram\?schema=cards$/,
    );
  });

  it("gives the dev cluster's S3 stand-in credentials of its own installation, never a published pair", () => {
    const standIn = () => {
      const [secret] = ofKind(renderProfile('dev'), 'Secret');
      return {
        id: secret?.stringData.MEDIA_STANDIN_ACCESS_KEY_ID ?? '',
        secret: secret?.stringData.MEDIA_STANDIN_SECRET_ACCESS_KEY ?? '',
      };
    };
    const first = standIn();
    expect(first.id).toMatch(/^[A-Z0-9]{20}$/);
    expect(first.secret).toHaveLength(40);
    // Made at install (an upgrade keeps the installed pair, which `helm template` cannot look up).
    expect(standIn().id).not.toBe(first.id);
  });

  it('refuses the published dev Secret without the throwaway in-cluster database', () => {
    const result = helmTemplate({ set: ['devSecrets.enabled=true', 'devSecrets.postgresPassword=x'] });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/devSecrets .* only with devDependencies.enabled/);
  });
});
