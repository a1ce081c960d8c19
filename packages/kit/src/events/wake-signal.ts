// A pause that ends early: when woken (a NOTIFY arrived) if the caller allows it, and always when closed
// (the loop is stopping). A wake-up that arrives while nobody waits is kept for the next pause.
export interface WakeSignal {
  /** Resolves after `ms`, or earlier on wake() when `wakeable`, or on close(). */
  pause(ms: number, wakeable: boolean): Promise<void>;
  wake(): void;
  close(): void;
}

export function createWakeSignal(): WakeSignal {
  let closed = false;
  let woken = false;
  let current: { resolve: () => void; wakeable: boolean; timer: NodeJS.Timeout } | undefined;

  function finish() {
    if (!current) return;
    clearTimeout(current.timer);
    const { resolve } = current;
    current = undefined;
    resolve();
  }

  return {
    pause(ms, wakeable) {
      if (closed || (wakeable && woken)) {
        woken = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        current = { resolve, wakeable, timer: setTimeout(finish, ms) };
      });
    },
    wake() {
      if (current?.wakeable) finish();
      else woken = true;
    },
    close() {
      closed = true;
      finish();
    },
  };
}
