// The offline generator: the embedded default without AWS settings (never in production). No network and
// no model: it reads the notes' own structure — definitions ("X is Y", "X: Y"), key terms (the defined
// term, or **bold** text) as cloze deletions, and lists under a heading or a line ending in ":" — and
// proposes cards from them, in the order they appear (those touching the focus first).
import { clozeDeletion } from '@engram/contracts/cloze';
import type { CardType } from '@engram/contracts/learning';
import type { CardGenerator, GenerationRequest, GeneratorEvent } from './generator.js';

interface Candidate {
  type: CardType;
  front: string;
  back: string;
  tags: string[];
  sourceQuote: string;
}

type Language = 'en' | 'pt';

const WORDS: Record<Language, { whatIs: (term: string) => string; listOf: (n: number, topic: string) => string }> = {
  en: {
    whatIs: (term) => `What is ${term}?`,
    listOf: (n, topic) => `Name the ${n} items of: ${topic}`,
  },
  pt: {
    whatIs: (term) => `O que é ${term}?`,
    listOf: (n, topic) => `Cite os ${n} itens de: ${topic}`,
  },
};

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

/** Every card the notes' structure suggests, in the order the notes give them. */
export function deriveCandidates(notes: string, language: Language): Candidate[] {
  const words = WORDS[language];
  const candidates: Candidate[] = [];
  const lines = notes.split(/\r?\n/);
  let heading: string | undefined;
  let listIntro: string | undefined;
  let listItems: string[] = [];
  let listQuote: string[] = [];

  const flushList = () => {
    if (listIntro && listItems.length >= 2) {
      candidates.push({
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
    const match = VERB_DEFINITION.exec(sentence) ?? COLON_DEFINITION.exec(sentence);
    if (!match) return false;
    const term = (match[1] ?? '').replace(/^(the|a|an|o|a|os|as|um|uma)\s+/i, '').trim();
    const meaning = (match.length === 4 ? match[3] : match[2]) ?? '';
    if (wordCount(term) > 6 || wordCount(meaning) < 2) return false;
    const tags = tagOf(heading);
    candidates.push({
      type: 'basic',
      front: words.whatIs(term),
      back: sentenceEnd(capitalised(meaning)),
      tags,
      sourceQuote: quote,
    });
    candidates.push({
      type: 'reversed',
      front: capitalised(term),
      back: sentenceEnd(capitalised(meaning)),
      tags,
      sourceQuote: quote,
    });
    const at = sentence.indexOf(match[1] ?? '');
    const cloze = `${sentence.slice(0, at)}${(match[1] ?? '').replace(term, clozeDeletion(1, term))}${sentence.slice(at + (match[1] ?? '').length)}`;
    candidates.push({ type: 'cloze', front: sentenceEnd(cloze), back: '', tags, sourceQuote: quote });
    return true;
  };

  // A sentence with **bold** terms is about them: they become its cloze deletions, ahead of any definition.
  const keyTerms = (text: string, quote: string) => {
    const terms = [...text.matchAll(BOLD)].map((m) => m[1] ?? '');
    if (terms.length === 0) return false;
    let n = 0;
    const front = text.replace(BOLD, (_all, term: string) => clozeDeletion(++n, term));
    candidates.push({
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
      const all = deriveCandidates(request.notes, language).filter((c) => request.types.includes(c.type));
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
  };
}
