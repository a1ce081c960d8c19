// One side of a review item, rendered by the app's one card renderer (maths, highlighted code, cloze
// deletions as the cards service asks them); cards never carry live HTML. Its text shows at once; the maths and
// highlighting of every card are fetched as the session opens, beside it, so that a card is never blank while they
// load and those after it rarely wait for them. A side's sounds play by themselves as it shows (sounds.ts); in place
// of the browser's players, which would take a tap on the card for their own, one button plays them again, so a
// tap anywhere else on a question made only of sound shows the answer.
import { isSoundName, mediaAddressesIn } from '@engram/contracts/media-files';
import { useRef } from 'react';
import MarkdownBody from '../../components/card/markdown-body';
import { m } from '../../lib/i18n';
import { playSounds } from './sounds';

void import('../../lib/markdown-everything').catch(() => undefined);

const hasSounds = (markdown: string) => mediaAddressesIn(markdown).some((address) => isSoundName(address));

export function CardFace({ markdown, label, side }: { markdown: string; label: string; side: 'front' | 'back' }) {
  const face = useRef<HTMLElement>(null);
  return (
    <section ref={face} aria-label={label} data-side={side} className="relative min-w-0 px-8 py-10">
      <MarkdownBody
        markdown={markdown}
        className="text-lg leading-relaxed text-slate-900 [&_audio.card-sound]:hidden"
      />
      {hasSounds(markdown) && (
        <button
          type="button"
          aria-label={m.practice_play_sounds()}
          title={m.practice_play_sounds()}
          onClick={(event) => {
            // The card's own tap shows the answer; this one only plays, from a corner, out of the way of that tap.
            event.stopPropagation();
            playSounds(face.current);
          }}
          className="absolute top-2 right-2 flex size-10 items-center justify-center rounded-full bg-slate-100 text-slate-700 hover:bg-slate-200"
        >
          <span aria-hidden="true">▶</span>
        </button>
      )}
    </section>
  );
}
