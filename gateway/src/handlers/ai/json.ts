// The ai answers' JSON shapes: the generation usage, which ai.generate reports when it finishes and
// cards.generationUsage answers on its own.
import type { Usage } from '@engram/proto/ai/v1/ai';

export interface UsageJson {
  used: number;
  limit: number;
  resetsAt: string | null;
  plan: string;
  generator: string;
}

export function usageJson(usage: Usage): UsageJson {
  return {
    used: usage.used,
    limit: usage.limit,
    resetsAt: usage.resetsAt?.toISOString() ?? null,
    plan: usage.plan,
    generator: usage.generator,
  };
}
