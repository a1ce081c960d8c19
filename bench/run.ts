// `npm run bench`: runs every benchmark against the built packages (build first: `pnpm run build:all`)
// and real PostgreSQL, Redis and NATS (DATABASE_URL, REDIS_URL, NATS_URL, else the local defaults). Each
// prints its own ratio or latencies against a baseline measured in the same run, so results compare
// across machines without absolute thresholds. `node bench/run.ts <name>...` runs only those named.
import { ankiAddNote } from './anki-add-note.ts';
import { browseSearch } from './browse-search.ts';
import { bulkTagChange } from './bulk-tags.ts';
import { cardCreation } from './cards-create.ts';
import { collectionTransfer } from './collection.ts';
import { dashboardLoad } from './dashboard-load.ts';
import { heavyWork } from './heavy-work.ts';
import { optimizerFit } from './optimizer.ts';
import { reviewSubmission } from './review-submit.ts';
import { lateSync } from './sync-late.ts';

const adminUrl = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const benchmarks: Record<string, (url: string) => Promise<void>> = {
  'cards-create': cardCreation,
  'review-submit': reviewSubmission,
  'sync-late': lateSync,
  'dashboard-load': dashboardLoad,
  collection: collectionTransfer,
  optimizer: optimizerFit,
  'heavy-work': heavyWork,
  'browse-search': browseSearch,
  'bulk-tags': bulkTagChange,
  'anki-add-note': ankiAddNote,
};
const chosen = process.argv.slice(2);
if (chosen.includes('--help')) {
  console.log(`Usage: node bench/run.ts [name...]   (npm run bench: build, then all of them)
Benchmarks: ${Object.keys(benchmarks).join(', ')}
Each prints its throughput or latencies beside a baseline measured in the same run, and their ratio.
Needs the built packages (pnpm run build:all) and PostgreSQL, Redis and NATS (DATABASE_URL, REDIS_URL,
NATS_URL, else the local defaults). BENCH_NODE_OPTIONS is passed to every process of the stack as
NODE_OPTIONS (for example "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile them), after the
preload that notes their garbage-collection pauses (bench/gc-pauses.ts). review-submit prints those
pauses; it and dashboard-load say how many of their slowest requests (at or over the p99) ran through one.
The targets are ratios within the run, printed with "met" or "MISSED": review-submit's gateway path
carries >= 0.40 of the direct-PostgreSQL throughput and, at half that load, has a p99 <= 2.5 x the direct
path's; dashboard-load's cards.listDue and dashboard batch have a p99 <= 3 x its baseline call's; collection imports
an Anki collection of 40,000 notes (one in four of a note type of its own, one in twenty Image Occlusion; 200,000
reviews, 200 files) in <= 3 x the time
COPY writes its card and review rows, with the import's peak memory growing < 1.5 x from 4,000 notes, and exports it in <= 3 x the time
COPY TO reads them; optimizer fits a learner's FSRS parameters to about 100,000 reviews in <= 20 x the time
ts-fsrs replays them, simulates 10,000 cards over 365 days at three desired retentions in <= 2 s, and works out
the recommended retention for them (ten simulations) in <= 2 s; heavy-work answers settings.simulate for 10,000
cards at the worst allowed settings in <= 2 s through the gateway, and other learners' review p99 while heavy
learners flood cards with simulations is <= 2 x their idle p99; sync-late syncs 50 reviews of a card dated
before its 50 others in <= 2 x the time 50 dated after them take; browse-search's Browse searches (a tag and
is:due, a phrase, -is:new prop:ivl>10, every card newest first and by due) over a learner's 50,000 of 1,000,000
cards have a p99 <= 3 x that of their first page of cards.list (50 cards), the slowest of them printed with the
verdict; bulk-tags adds a tag to 5,000 cards (browse.bulkEdit) in <= 5 x the time one UPDATE of those rows takes
straight on PostgreSQL (medians of 7 rounds); anki-add-note's AnkiConnect addNote has a p99 <= 3 x cards.create's,
both through the gateway with the same API key. browse-search and bulk-tags need a superuser DATABASE_URL (their
seed turns triggers off while it loads).`);
  process.exit(0);
}
const unknown = chosen.filter((name) => !(name in benchmarks));
if (unknown.length > 0) {
  console.error(`Unknown benchmark: ${unknown.join(', ')} (known: ${Object.keys(benchmarks).join(', ')})`);
  process.exit(64);
}
for (const [name, run] of Object.entries(benchmarks)) {
  if (chosen.length > 0 && !chosen.includes(name)) continue;
  console.log(`\n# ${name}`);
  await run(adminUrl);
}
