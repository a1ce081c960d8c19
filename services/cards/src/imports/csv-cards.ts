// One CSV row as an Engram card, by the learner's column mapping: the front and back (Markdown as typed),
// tags (separated by spaces, commas or semicolons, Anki's "Parent::Child" kept), and the type (basic,
// reversed, cloze, typed or occlusion, or Anki's note type names; a front with a {{c1::…}} deletion is a cloze when no column
// says). Without a back column, the front column holds both sides split at a line of three dashes, as Mochi writes
// a card ("Question\n---\nAnswer"). A cell marked as text for spreadsheets (an apostrophe before a leading =, +,
// -, @, tab or carriage return, as Engram's CSV export and other careful exporters write it) is read without the
// mark. A row that cannot be a card is a problem with its line number and the reason in the card rules' own words.
import { findDeletions } from '@engram/contracts/cloze';
import { type ImportProblemWords, importProblem, sidesProblem } from '@engram/contracts/import-problems';
import { type CardType, MAX_TAGS_PER_CARD, SIDED_CARD_TYPES, TAG_NAME_MAX_LENGTH } from '@engram/contracts/learning';
import { cellText } from '../exports/csv-cells.js';

export interface CsvMapping {
  front: number;
  /** None: the front column holds both sides, split at a line of `---`. */
  back?: number | undefined;
  tags?: number | undefined;
  type?: number | undefined;
}

export interface ImportedCard {
  type: CardType;
  front: string;
  back: string;
  tags: string[];
}

export type RowOutcome = { card: ImportedCard } | { problem: ImportProblemWords };

/** A type column's words as Engram's types (Anki's note type names included). */
function typeOf(text: string): CardType | undefined {
  const word = text.trim().toLowerCase();
  // A note is written in the fields of its note type, which a CSV row has not: "note" is no type of a row.
  if ((SIDED_CARD_TYPES as readonly string[]).includes(word)) return word as CardType;
  if (word.startsWith('basic (and reversed') || word.startsWith('basic (optional reversed') || word === 'reverse')
    return 'reversed';
  if (word.startsWith('basic (type in the answer')) return 'typed';
  if (word === 'image occlusion') return 'occlusion';
  if (word.startsWith('basic')) return 'basic';
  return word.startsWith('cloze') ? 'cloze' : undefined;
}

/**
 * Tag names of a tags cell: split, trimmed, without a spreadsheet's text mark, at most the limit each, at most
 * MAX_TAGS_PER_CARD, once each.
 */
export function tagNamesOf(cell: string): string[] {
  const names = cell
    .split(/[\s,;]+/)
    .map((name) => cellText(name.trim()).slice(0, TAG_NAME_MAX_LENGTH).trim())
    .filter(Boolean);
  return [...new Set(names)].slice(0, MAX_TAGS_PER_CARD);
}

/** The first line of only dashes (three or more) parts a Mochi card's sides; a later one stays in the back. */
const SIDES = /\r?\n[ \t]*-{3,}[ \t]*(?:\r?\n|$)/;

/** A card's two sides from one text: before and after its first `---` line (all front when it has none). */
export function sidesOf(text: string): [front: string, back: string] {
  const separator = SIDES.exec(text);
  if (!separator) return [text, ''];
  return [text.slice(0, separator.index), text.slice(separator.index + separator[0].length)];
}

export function cardOfRow(fields: readonly string[], mapping: CsvMapping): RowOutcome {
  const cell = (index: number) => cellText(fields[index] ?? '');
  const [frontText, backText] =
    mapping.back === undefined ? sidesOf(cell(mapping.front)) : [cell(mapping.front), cell(mapping.back)];
  const front = frontText.trim();
  const back = backText.trim();
  const typeCell = mapping.type === undefined ? '' : (fields[mapping.type] ?? '');
  const named = typeOf(typeCell);
  if (typeCell.trim() !== '' && named === undefined)
    return { problem: importProblem('typeUnknown', { type: typeCell.trim() }) };
  const type: CardType = named ?? (findDeletions(front).length > 0 ? 'cloze' : 'basic');
  if (front !== '' && type !== 'cloze' && back === '' && mapping.back === undefined) {
    return { problem: importProblem('backEmptySplit') };
  }
  const problem = sidesProblem(type, front, back);
  if (problem) return { problem };
  const tags = mapping.tags === undefined ? [] : tagNamesOf(fields[mapping.tags] ?? '');
  return { card: { type, front, back, tags } };
}
