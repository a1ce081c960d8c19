// The offline generator: the embedded default without AWS settings (never in production). No network and
// no model (an occlusion card's shapes: the regions of its picture that look like labels, unnamed): it reads the notes' own structure — definitions ("X is Y", "X: Y"), key terms (the defined
// term, or **bold** text) as cloze deletions, and lists under a heading or a line ending in ":" — and
// proposes cards from them, in the order they appear (those touching the focus first). One card per fact, its
// type taking turns among those asked for, with a question that keeps the notes' own article and verb ("What is
// an atom?", "What are isotopes?", "What does “osmosis” mean?"); a sentence whose subject is not the thing it
// defines ("In the light reactions, water is split") asks nothing.
import { clozeDeletion } from '@engram/contracts/cloze';
import type { CardType } from '@engram/contracts/learning';
import type { CardGenerator, GenerationRequest, GeneratorEvent, ShapeRequest } from './generator.js';

interface Candidate {
  type: CardType;
  front: string;
  back: string;
  tags: string[];
  sourceQuote: string;
}

type Language = 'en' | 'pt';

/** How a definition says what its subject is: the verb of "X is Y", or a term and its meaning ("X: Y"). */
type Defining = 'is' | 'are' | 'means' | 'refersTo' | 'term';

const VERBS: Record<string, Defining> = {
  is: 'is',
  are: 'are',
  means: 'means',
  'refers to': 'refersTo',
  é: 'is',
  são: 'are',
  significa: 'means',
};

const WORDS: Record<
  Language,
  { ask: Record<Defining, (subject: string) => string>; listOf: (n: number, topic: string) => string }
> = {
  en: {
    ask: {
      is: (subject) => `What is ${subject}?`,
      are: (subject) => `What are ${subject}?`,
      means: (subject) => `What does ${subject} mean?`,
      refersTo: (subject) => `What does ${subject} refer to?`,
      term: (term) => `What does “${term}” mean?`,
    },
    listOf: (n, topic) => `Name the ${n} items of: ${topic}`,
  },
  pt: {
    ask: {
      is: (subject) => `O que é ${subject}?`,
      are: (subject) => `O que são ${subject}?`,
      means: (subject) => `O que significa ${subject}?`,
      refersTo: (subject) => `O que significa ${subject}?`,
      term: (term) => `O que significa “${term}”?`,
    },
    listOf: (n, topic) => `Cite os ${n} itens de: ${topic}`,
  },
};

/** The types a fact can be asked as, in the order they take turns. */
const FACT_TYPES: readonly CardType[] = ['basic', 'reversed', 'cloze'];

const PT_HINTS = /\b(de|que|não|uma|um|os|as|são|é|para|com|também|pelo|pela)\b|ção\b|ções\b/giu;
const EN_HINTS = /\b(the|is|are|of|and|to|which|that|with|for|also|by)\b/giu;

export function languageOf(notes: string, asked: string | undefined): Language {
  if (asked) return asked.toLowerCase().startsWith('pt') ? 'pt' : 'en';
  const pt = notes.match(PT_HINTS)?.length ?? 0;
  const en = notes.match(EN_HINTS)?.length ?? 0;
  return pt > en ? 'pt' : 'en';
}

const BULLET = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+(.+)$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/;
const COLON_DEFINITION = /^([^:]{2,60}?)\s*(?::|\s[—–]\s|\s-\s)\s*(.{3,})$/;
const VERB_DEFINITION = /^(.{2,60}?)\s+(is|are|means|refers to|é|são|significa)\s+(.{3,})$/iu;
const BOLD = /\*\*([^*]{2,60})\*\*/g;
const ARTICLE = /^(the|a|an|o|a|os|as|um|uma)\s+/iu;
/** How a sentence starts when its subject is not the thing it defines: a circumstance or a condition before it. */
const NOT_A_SUBJECT =
  /^(in|on|at|during|when|while|after|before|because|if|since|for|with|by|from|to|as|em|no|na|nos|nas|durante|quando|enquanto|depois|antes|porque|se|com|por|para|como)\s/iu;

const plain = (text: string) =>
  text
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
const sentenceEnd = (text: string) => (/[.!?…]$/.test(text) ? text : `${text}.`);
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const tagOf = (heading: string | undefined) =>
  heading
    ? [
        heading
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, '-')
          .replace(/^-|-$/g, '')
          .slice(0, 40),
      ].filter(Boolean)
    : [];
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

function sentencesOf(line: string): string[] {
  return line
    .split(/(?<=[.!?])\s+(?=\p{Lu})/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The subject as the question says it: an article the notes gave it starts lower case ("What is an atom?"). */
const subjectInQuestion = (subject: string) =>
  ARTICLE.test(subject) ? subject.charAt(0).toLowerCase() + subject.slice(1) : subject;

/**
 * The cards the notes' structure suggests, in the order the notes give them: one per fact, as the types asked for
 * take turns (every type when none is given), and no question twice.
 */
export function deriveCandidates(
  notes: string,
  language: Language,
  types: readonly CardType[] = FACT_TYPES,
): Candidate[] {
  const words = WORDS[language];
  const factTypes = FACT_TYPES.filter((type) => types.includes(type));
  let facts = 0;
  const candidates: Candidate[] = [];
  const asked = new Set<string>();
  const propose = (candidate: Candidate) => {
    const key = candidate.front.toLowerCase();
    if (asked.has(key)) return;
    asked.add(key);
    candidates.push(candidate);
  };
  const lines = notes.split(/\r?\n/);
  let heading: string | undefined;
  let listIntro: string | undefined;
  let listItems: string[] = [];
  let listQuote: string[] = [];

  const flushList = () => {
    if (listIntro && listItems.length >= 2 && types.includes('basic')) {
      propose({
        type: 'basic',
        front: words.listOf(listItems.length, listIntro),
        back: listItems.map((item) => `- ${item}`).join('\n'),
        tags: tagOf(heading),
        sourceQuote: listQuote.join(' '),
      });
    }
    listIntro = undefined;
    listItems = [];
    listQuote = [];
  };

  const definition = (text: string, quote: string) => {
    const sentence = plain(text).replace(/[.;]$/, '');
    const verbal = VERB_DEFINITION.exec(sentence);
    const match = verbal ?? COLON_DEFINITION.exec(sentence);
    if (!match || factTypes.length === 0) return false;
    const subject = (match[1] ?? '').trim();
    const term = subject.replace(ARTICLE, '').trim();
    const meaning = (verbal ? match[3] : match[2]) ?? '';
    if (wordCount(term) > 6 || wordCount(meaning) < 2 || subject.includes(',') || NOT_A_SUBJECT.test(subject)) {
      return false;
    }
    const tags = tagOf(heading);
    const back = sentenceEnd(capitalised(meaning));
    const type = factTypes[facts++ % factTypes.length] as CardType;
    if (type === 'basic') {
      const defining = verbal ? (VERBS[(match[2] ?? '').toLowerCase()] ?? 'is') : 'term';
      const front = words.ask[defining](defining === 'term' ? term : subjectInQuestion(subject));
      propose({ type, front, back, tags, sourceQuote: quote });
    } else if (type === 'reversed') {
      propose({ type, front: capitalised(term), back, tags, sourceQuote: quote });
    } else {
      const at = sentence.indexOf(subject);
      const cloze = `${sentence.slice(0, at)}${subject.replace(term, clozeDeletion(1, term))}${sentence.slice(at + subject.length)}`;
      propose({ type, front: sentenceEnd(cloze), back: '', tags, sourceQuote: quote });
    }
    return true;
  };

  // A sentence with **bold** terms is about them: they become its cloze deletions, ahead of any definition.
  const keyTerms = (text: string, quote: string) => {
    const terms = [...text.matchAll(BOLD)].map((m) => m[1] ?? '');
    if (terms.length === 0 || !types.includes('cloze')) return false;
    let n = 0;
    const front = text.replace(BOLD, (_all, term: string) => clozeDeletion(++n, term));
    propose({
      type: 'cloze',
      front: sentenceEnd(plain(front)),
      back: '',
      tags: tagOf(heading),
      sourceQuote: quote,
    });
    return true;
  };
  const cardsOf = (text: string, quote: string) => keyTerms(text, quote) || definition(text, quote);

  for (const raw of lines) {
    const line = raw.trim();
    if (line.length === 0) {
      flushList();
      continue;
    }
    const headingMatch = HEADING.exec(line);
    if (headingMatch) {
      flushList();
      heading = plain(headingMatch[1] ?? '');
      listIntro = heading;
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      const item = plain(bullet[1] ?? '');
      if (listIntro) {
        listItems.push(item.replace(/[.;]$/, ''));
        listQuote.push(line);
      }
      cardsOf(bullet[1] ?? '', line);
      continue;
    }
    flushList();
    if (line.endsWith(':')) {
      listIntro = plain(line.slice(0, -1));
      listQuote = [line];
      continue;
    }
    listIntro = undefined;
    for (const sentence of sentencesOf(line)) {
      cardsOf(sentence, sentence);
    }
  }
  flushList();
  return candidates;
}

function touchesFocus(candidate: Candidate, focus: string | undefined): boolean {
  if (!focus) return false;
  const text = `${candidate.front} ${candidate.back}`.toLowerCase();
  return focus
    .toLowerCase()
    .split(/\W+/)
    .some((word) => word.length > 3 && text.includes(word));
}

export function createOfflineGenerator(): CardGenerator {
  return {
    name: 'offline',
    model: 'offline',
    async *generate(request: GenerationRequest, signal: AbortSignal): AsyncIterable<GeneratorEvent> {
      const started = performance.now();
      const language = languageOf(request.notes, request.language);
      const all = deriveCandidates(request.notes, language, request.types);
      const ordered = [
        ...all.filter((c) => touchesFocus(c, request.focus)),
        ...all.filter((c) => !touchesFocus(c, request.focus)),
      ];
      for (const card of ordered) {
        if (signal.aborted) return;
        // One card per turn of the event loop, as a model streams them: each reaches the learner on its own.
        await new Promise((resolve) => setImmediate(resolve));
        yield { kind: 'card', card };
      }
      yield {
        kind: 'usage',
        inputTokens: 0,
        outputTokens: 0,
        latencyMs: Math.round(performance.now() - started),
      };
    },
    // Without a model nothing reads what a picture's labels say: the regions that look like labels are proposed
    // unnamed (picture-regions.ts), for the learner to name.
    async proposeShapes(request: ShapeRequest) {
      const started = performance.now();
      const regions = await request.regions();
      return {
        shapes: regions.map((region) => ({ label: '', ...region })),
        usage: { inputTokens: 0, outputTokens: 0, latencyMs: Math.round(performance.now() - started) },
      };
    },
  };
}
