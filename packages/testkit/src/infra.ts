// Where the test infrastructure comes from: containers when a container runtime exists, else the
// servers named by DATABASE_URL / REDIS_URL / NATS_URL, else the local default ports.
export interface Infrastructure {
  /** A PostgreSQL URL with rights to create databases. */
  postgresUrl: string;
  redisUrl: string;
  natsUrl: string;
  source: 'containers' | 'environment' | 'local';
  stop(): Promise<void>;
}

const LOCAL = {
  postgresUrl: 'postgresql://postgres@127.0.0.1:5432/postgres',
  redisUrl: 'redis://127.0.0.1:6379',
  natsUrl: 'nats://127.0.0.1:4222',
};

async function containerRuntimeAvailable(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

async function startContainers(): Promise<Infrastructure> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const [postgres, redis, nats] = await Promise.all([
    new GenericContainer('postgres:17-alpine')
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/, 2))
      .start(),
    new GenericContainer('redis:7-alpine').withExposedPorts(6379).start(),
    new GenericContainer('nats:2-alpine').withCommand(['-js']).withExposedPorts(4222).start(),
  ]);
  return {
    postgresUrl: `postgresql://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`,
    redisUrl: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
    source: 'containers',
    async stop() {
      await Promise.all([postgres.stop(), redis.stop(), nats.stop()]);
    },
  };
}

export async function resolveInfrastructure(env: Record<string, string | undefined>): Promise<Infrastructure> {
  if (env.ENGRAM_TEST_CONTAINERS !== 'off' && (await containerRuntimeAvailable())) return startContainers();
  const fromEnv = Boolean(env.DATABASE_URL || env.REDIS_URL || env.NATS_URL);
  return {
    postgresUrl: env.DATABASE_URL || LOCAL.postgresUrl,
    redisUrl: env.REDIS_URL || LOCAL.redisUrl,
    natsUrl: env.NATS_URL || LOCAL.natsUrl,
    source: fromEnv ? 'environment' : 'local',
    async stop() {},
  };
}
