// Prometheus metrics of one process, served on its metrics port (health.ts). Names follow the
// Prometheus conventions so dashboards and alerts can be shared between services.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const grpcServerHandled = new Histogram({
  name: 'grpc_server_handling_seconds',
  help: 'Time to handle a gRPC call, by method and status code',
  labelNames: ['service', 'method', 'code'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});

export const grpcClientHandled = new Histogram({
  name: 'grpc_client_handling_seconds',
  help: 'Time of an outgoing gRPC call, by method and status code',
  labelNames: ['method', 'code'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});

export const httpRequests = new Histogram({
  name: 'http_server_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

export const outboxLag = new Gauge({
  name: 'engram_outbox_unpublished_events',
  help: 'Events committed to the outbox but not yet published to JetStream',
  registers: [registry],
});

export const outboxOldestAge = new Gauge({
  name: 'engram_outbox_oldest_unpublished_seconds',
  help: 'Age of the oldest unpublished outbox event',
  registers: [registry],
});

export const consumerRedeliveries = new Counter({
  name: 'engram_consumer_redeliveries_total',
  help: 'Event deliveries that were redeliveries, by consumer',
  labelNames: ['consumer'] as const,
  registers: [registry],
});

export const consumerParked = new Counter({
  name: 'engram_consumer_parked_total',
  help: 'Events parked in the dead-letter subject after too many deliveries, by consumer',
  labelNames: ['consumer'] as const,
  registers: [registry],
});
