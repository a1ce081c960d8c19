// `npm run proof` (after the build): see --help. Prints the table and exits non-zero when a promise broke.
import { parseArgs } from 'node:util';
import { FULL, runProof, SHORT, WARM_UP_MS } from './proof/run.ts';
import { chooseScenarios, SLOWDOWN_BOUND } from './proof/scenarios.ts';
import { formatTable } from './proof/table.ts';

const help = `npm run proof [-- options]

Builds, then starts Engram with two replicas of the gateway and of cards (each pair behind a round-robin
balancer) on private PostgreSQL, NATS and Redis instances in a temporary folder, every process of it at
nice -5 where the machine allows it (CAP_SYS_NICE), ahead of whatever else runs there as pods with CPU
requests run on a node (so that CPU burners and other test files beside it do not decide its deadlines;
Engram's sandboxed jobs and forecasts stay at nice 10, below what serves), signs up learners who
belong to one organization and subscribe to its deck, warms the stack with their load for ${WARM_UP_MS / 1000} s (unjudged: a
fresh stack's first seconds cost each call several times a warm one's while V8 compiles its paths; the reviews
it sends are checked with the first row's), and runs one scenario after another under their load
(reviews with client review ids, due lists, the dashboard's batch, sign-ins): the load alone (with the
review transaction sent straight to PostgreSQL as a baseline), kill -9 of a cards replica and of a gateway
replica, NATS restarted, PostgreSQL restarted, Redis gone for 10 s, a rolling SIGTERM restart of the
gateways and cards as the chart's rolling update makes it (maxSurge 1, maxUnavailable 0: no request may
fail; each replica's replacement starts on ports of its own, and the old one is sent SIGTERM, and drains
before it exits, only once the balancer sends connections to the new one), one of the single-replica
services (identity, organizations, billing, ai: their calls may fail meanwhile), and both cards replicas
frozen (SIGSTOP) for 5 s, so the callers' deadlines must end its calls (every request answered). Then one
hostile learner at a time, readied before the load starts: a poisoned package imported (a .apkg of about
2 KB whose notes' fields are a generated column of almost 1 GB each; it must fail with a reason), an
optimization of a year of Anki history with learning steps, lapses and breaks (it must end), a flood of
worst-case simulations and retention recommendations (10,000 cards, maximum interval 1 day, daily limits
9,999, four calls at once; each must be answered, none 5xx), and 50 late synced reviews of one card, done
before the 450 it already holds (each kept and counted once). The other learners must not notice any of them:
no request of theirs fails, and their review p99 during the row stays within ${SLOWDOWN_BOUND} × their idle p99,
taken in a scenario's time of load alone just before the act; the row runs on until their reviews are back
at pace and every process answers its /healthz. In each scenario one more learner deletes their account
while the fault is on; a deletion that fails throughout the fault is sent again after it.

After each row it checks that every acknowledged review is stored exactly once in cards and counted exactly
once in organizations' progress (every row of a learner's log, and every review progress counts, must be a
review the load sent, once), that every deletion erased the learner in every service, that the row's load
got at least half of its reviews acknowledged (and every learner one), and that no process restarted that
nobody asked to (the supervisor's events; a kill -9 row's own restart excepted). Then it attacks the same
stack: every tRPC procedure with another user's and another organization's ids, every gRPC method with no,
forged, expired, wrong-audience or unsigned tokens, cross-site writes, signed-out and revoked sessions, a
banned user by session and by API key, forwarding headers that claim another address, and fuzzed input
(fast-check) to every procedure. It prints one table: scenario, requests, failures, lost, duplicated,
breaches (attack calls that got through), p50/p99, slowdown (the other learners' review p99 ÷ their idle
p99; for a fault, over the load alone's, and only shown), restarts (unasked), the promise; under it why
each broken row broke, what each hostile learner's act ended in, and what failed requests answered. Exits
1 when a promise broke.

Options:
  --short          CI's size (${SHORT.learners} learners, ${SHORT.perSecond} operations/s, ${SHORT.scenarioMs / 1000} s a scenario,
                   ${SHORT.fuzzRuns} fuzzed inputs per procedure); npm test runs it beside its other files, so
                   a hostile row's slowdown is shown but breaks nothing (every other promise holds)
  --only NAME      only the scenarios whose name contains NAME, after the load alone (the faults'
                   reference); repeatable; 'attack' for the attacks. A NAME that matches nothing exits 2.
  -h, --help       show this text
Without --short: ${FULL.learners} learners, ${FULL.perSecond} operations/s, ${FULL.scenarioMs / 1000} s a scenario, ${FULL.fuzzRuns} fuzzed
inputs per procedure.`;

const { values: args } = parseArgs({
  options: {
    short: { type: 'boolean', default: false },
    only: { type: 'string', multiple: true, default: [] },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log(help);
  process.exit(0);
}
try {
  chooseScenarios(args.only ?? []);
} catch (error) {
  console.error(`${(error as Error).message}: see --help`);
  process.exit(2);
}

const { rows, held } = await runProof({
  ...(args.short ? SHORT : FULL),
  only: args.only ?? [],
  onRow: (row) =>
    console.log(
      `[proof] ${row.scenario}: ${row.held ? 'held' : 'BROKEN'}${row.seconds ? ` (${row.seconds.toFixed(0)} s${row.readySeconds ? `, ${row.readySeconds.toFixed(0)} s of it readying` : ''})` : ''}`,
    ),
});
console.log(`\n${formatTable(rows)}`);
console.log(held ? '\nEvery promise held.' : '\nA promise broke (see BROKEN above).');
process.exit(held ? 0 : 1);
