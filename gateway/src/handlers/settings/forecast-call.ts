// How long the gateway waits for a forecast (settings.simulate, recommendRetention, previewReschedule, reschedule).

/**
 * A forecast is worked out in a child process of cards, in turn with other learners' (services/cards/src/compute):
 * seconds at the worst settings, and a turn to wait on a busy replica.
 */
export const FORECAST_CALL = { timeoutMs: 15_000 } as const;
