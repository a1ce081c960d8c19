// The ai service's own Prometheus metrics, on the kit's registry (served on its metrics port): how
// generations end, the cards they deliver, and what the model costs in tokens and time.
import { registry } from '@engram/kit/metrics';
import { Counter, Histogram } from 'prom-client';
import type { Outcome } from './usage.js';

const generations = new Counter({
  name: 'engram_ai_generations_total',
  help: 'Generations, by generator and how they ended (complete, interrupted, failed, cancelled, abandoned)',
  labelNames: ['generator', 'outcome'] as const,
  registers: [registry],
});

const generatedCards = new Counter({
  name: 'engram_ai_generated_cards_total',
  help: 'Card proposals delivered to learners (and counted against their limits), by generator',
  labelNames: ['generator'] as const,
  registers: [registry],
});

const modelTokens = new Counter({
  name: 'engram_ai_model_tokens_total',
  help: 'Tokens the model read (input) and wrote (output)',
  labelNames: ['direction'] as const,
  registers: [registry],
});

const modelLatency = new Histogram({
  name: 'engram_ai_model_latency_seconds',
  help: "The model's own latency per generation, as Bedrock reports it",
  labelNames: ['generator'] as const,
  buckets: [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
  registers: [registry],
});

export function recordGeneration(generator: string, outcome: Outcome): void {
  generations.inc({ generator, outcome: outcome.status });
  generatedCards.inc({ generator }, outcome.delivered);
  modelTokens.inc({ direction: 'input' }, outcome.inputTokens);
  modelTokens.inc({ direction: 'output' }, outcome.outputTokens);
  if (outcome.latencyMs > 0) modelLatency.observe({ generator }, outcome.latencyMs / 1000);
}
