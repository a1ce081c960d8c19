// The sounds of a card during practice, as Anki learners expect them: a side's sounds play when it is shown
// (the question, then the answer), one after another, and R plays the shown side's sounds again. Any sound
// still playing stops first, so two never overlap. A browser that refuses to play before the learner has
// interacted with the page leaves the players there to be pressed.

let playing: HTMLAudioElement[] = [];

function stopAll(): void {
  for (const audio of playing) {
    audio.pause();
    audio.onended = null;
  }
  playing = [];
}

/** Plays the sounds inside `side` in order, from their starts. */
export function playSounds(side: Element | null | undefined): void {
  stopAll();
  const sounds = [...(side?.querySelectorAll<HTMLAudioElement>('audio.card-sound') ?? [])];
  playing = sounds;
  const playFrom = (index: number) => {
    const audio = sounds[index];
    if (!audio || playing !== sounds) return;
    audio.currentTime = 0;
    audio.onended = () => playFrom(index + 1);
    audio.play().catch(() => undefined);
  };
  playFrom(0);
}
