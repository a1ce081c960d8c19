// A search in Anki's syntax (@engram/contracts/card-search) as a SQL condition on one learner's review items and
// their cards: the rows of `review_items ri JOIN cards c` (an Anki card is a review item, an Anki note a card).
// The Browse screen and AnkiConnect's findCards and findNotes select with it; ownership is the query's, never
// the search's (the caller puts `ri.owner_id = $1` first). Every value the learner typed is a parameter.
//
// How Anki's terms read Engram's cards:
// - text and `field:` compare accent- and case-folded (search_fold), as the dashboard's search does, against
//   each side's folded text the card keeps (cards.front_key, back_key); a card's fields are its note type's:
//   Front and Back (Basic, Basic and reversed, Basic (type in the answer)), Text and Back Extra (Cloze), Header
//   and Back Extra (Image Occlusion); a note's are its note type's own, each compared with the note's field;
// - `note:` is a note type by name, stock or the learner's own; `card:Name` a template by name, stock or of the
//   note's own type;
// - `tag:` and `deck:` both read the learner's tags (decks are tags, as the Anki import makes them), a tag and
//   its `::` children, in any case; `deck:Default` also finds cards with no tag (Anki's default deck);
// - `card:N` is the Nth template: the reverse side of a reversed card is card 2, a cloze's (or an occlusion's) cN
//   is card N;
// - `is:learn` is learning or relearning, `is:review` review or relearning (as in Anki), `is:due` a learned
//   card due by the end of the learner's day, `is:suspended` archived; Engram buries nothing;
// - `added:N`, `rated:N` count N study days back from today's (1: today), in the learner's time zone;
// - `prop:due` is days from today, `prop:s` FSRS stability in days, `prop:d` difficulty from 0 to 1;
// - `nid:`/`cid:` take card and review item numbers (what AnkiConnect answers) or their ids.
import type { CardSearch, CardState } from '@engram/contracts/card-search';
import { isUuid } from '@engram/contracts/ids';
import { STOCK_NOTE_TYPES } from '@engram/contracts/note-types';

export interface SearchDay {
  /** When the learner's study day began. */
  start: Date;
  /** When it ends. */
  end: Date;
}

/** A condition and its parameters, numbered from `firstParam`. */
export interface SearchSql {
  /** The whole condition, on `ri` and `c`. */
  where: string;
  /**
   * The same condition in two parts, `where` being `cardWhere AND itemWhere`: what reads the card alone (its
   * sides, tags, when it was added, whether archived), and what reads its review items (null when nothing does).
   * A search of cards tests the first on each card and looks for a matching item only for the second, so that a
   * page of cards newest first stops once it is full instead of joining every item of the learner.
   */
  cardWhere: string;
  itemWhere: string | null;
  params: unknown[];
}

/** Whether `node` reads a review item (`ri`) rather than only its card. */
function readsItems(node: CardSearch): boolean {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.searches.some(readsItems);
    case 'not':
      return readsItems(node.search);
    case 'state':
      return node.state !== 'suspended' && node.state !== 'buried';
    case 'card':
    case 'rated':
    case 'prop':
    case 'cardIds':
      return true;
    default:
      return false;
  }
}

const DAY_MS = 86_400_000;

/** The note types' fields, by their names in lower case: which side of which types each reads. */
const FIELDS: Record<string, { side: 'front' | 'back'; types: string }> = {
  front: { side: 'front', types: "IN ('basic', 'reversed', 'typed')" },
  back: { side: 'back', types: "IN ('basic', 'reversed', 'typed')" },
  text: { side: 'front', types: "= 'cloze'" },
  'back extra': { side: 'back', types: "IN ('cloze', 'occlusion')" },
  // An occlusion card's front holds its header with its picture and shapes.
  header: { side: 'front', types: "= 'occlusion'" },
};

const STATES: Record<CardState, string> = {
  new: 'ri.state = 0',
  learn: 'ri.state IN (1, 3)',
  review: 'ri.state IN (2, 3)',
  due: 'ri.state <> 0 AND NOT ri.archived AND ri.due < $end',
  suspended: 'c.archived',
  buried: 'FALSE',
};

const PROPERTIES = {
  ivl: 'ri.scheduled_days',
  reps: 'ri.reps',
  lapses: 'ri.lapses',
  s: 'ri.stability',
  d: '(ri.difficulty - 1) / 9',
  due: 'floor(extract(epoch FROM ri.due - $start) / 86400)',
} as const;

/** A constant of ours as a SQL string literal. */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The stock note types as rows (name, card type, note type id of a stock type made of templates alone). */
const STOCK_TYPE_ROWS = `(VALUES ${STOCK_NOTE_TYPES.map(
  (type) =>
    `(${literal(type.name)}, ${literal(type.cardType)}, ${type.cardType === 'note' ? literal(type.id) : 'NULL'})`,
).join(', ')}) AS stock(name, card_type, note_type_id)`;

/** The note's own type (a learner's, never another's) as `nt`, with what `joined` adds, for a condition on it. */
const ownType = (joined = '') =>
  `FROM note_types nt${joined} WHERE nt.owner_id = c.owner_id AND nt.id::text = c.note_type_id`;

/** The stock note types made of templates alone (a note of one is a card of type `note` naming it). */
const STOCK_NOTES = STOCK_NOTE_TYPES.filter((type) => type.cardType === 'note');

/** Template names as Anki's stock note types call them. */
const TEMPLATE_NAMES: Record<string, string> = {
  'card 1': "c.type IN ('basic', 'reversed', 'typed') AND ri.ordinal = 0",
  'card 2': "c.type = 'reversed' AND ri.ordinal = 1",
  cloze: "c.type = 'cloze'",
  'image occlusion': "c.type = 'occlusion'",
};

/**
 * The condition `search` makes, its parameters numbered from `firstParam` on; `day` is the learner's study day
 * now (is:due, prop:due, added:, rated:).
 */
export function searchSql(search: CardSearch | null, day: SearchDay, firstParam = 2): SearchSql {
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${firstParam + params.length - 1}`;
  };
  let start: string | undefined;
  let end: string | undefined;
  const dayStart = () => {
    start ??= param(day.start);
    return `${start}::timestamptz`;
  };
  const dayEnd = () => {
    end ??= param(day.end);
    return `${end}::timestamptz`;
  };
  const daysBack = (days: number) => `${param(new Date(day.start.getTime() - (days - 1) * DAY_MS))}::timestamptz`;
  const tagged = (like: string) => {
    const name = param(like);
    return `EXISTS (SELECT 1 FROM card_tags ct JOIN tags t ON t.id = ct.tag_id
      WHERE ct.card_id = c.id AND t.owner_id = c.owner_id
        AND (t.name_key LIKE lower(${name}) OR t.name_key LIKE lower(${name}) || '::%'))`;
  };

  const sql = (node: CardSearch): string => {
    switch (node.kind) {
      case 'and':
        return `(${node.searches.map(sql).join(' AND ')})`;
      case 'or':
        return `(${node.searches.map(sql).join(' OR ')})`;
      case 'not':
        return `NOT COALESCE(${sql(node.search)}, FALSE)`;
      case 'text': {
        const like = param(node.like);
        return `(c.front_key LIKE search_fold(${like}) OR c.back_key LIKE search_fold(${like}))`;
      }
      case 'field': {
        const name = node.field.toLowerCase();
        const field = FIELDS[name];
        const like = param(node.like);
        const stockNotes = STOCK_NOTES.flatMap((type) => {
          const at = type.fields.findIndex((each) => each.toLowerCase() === name);
          return at === -1
            ? []
            : [`(c.note_type_id = ${literal(type.id)} AND search_fold(c.fields[${at + 1}]) LIKE search_fold(${like}))`];
        });
        return `(${[
          ...(field ? [`(c.type ${field.types} AND c.${field.side}_key LIKE search_fold(${like}))`] : []),
          ...stockNotes,
          `(c.type = 'note' AND EXISTS (SELECT 1 ${ownType(', unnest(nt.fields) WITH ORDINALITY AS f(name, n)')}
            AND lower(f.name) = ${param(name)} AND search_fold(c.fields[f.n]) LIKE search_fold(${like})))`,
        ].join(' OR ')})`;
      }
      case 'note': {
        const like = param(node.like);
        return `(EXISTS (SELECT 1 FROM ${STOCK_TYPE_ROWS} WHERE lower(stock.name) LIKE lower(${like})
            AND c.type::text = stock.card_type AND (stock.note_type_id IS NULL OR c.note_type_id = stock.note_type_id))
          OR (c.type = 'note' AND EXISTS (SELECT 1 ${ownType()} AND lower(nt.name) LIKE lower(${like}))))`;
      }
      case 'tag':
        return tagged(node.like);
      case 'deck': {
        const isDefault = param(node.like);
        return `(${tagged(node.like)} OR ('default' LIKE lower(${isDefault})
          AND NOT EXISTS (SELECT 1 FROM card_tags ct WHERE ct.card_id = c.id)))`;
      }
      case 'card':
        if (typeof node.template === 'string') {
          const name = node.template.toLowerCase();
          const templates = ', jsonb_array_elements(nt.templates) WITH ORDINALITY AS t(template, n)';
          const own = `(c.type = 'note' AND EXISTS (SELECT 1 ${ownType(templates)}
            AND lower(t.template->>'name') = ${param(name)} AND ri.ordinal = t.n - 1))`;
          const stockNotes = STOCK_NOTES.flatMap((type) => {
            const at = type.templates.findIndex((template) => template.name.toLowerCase() === name);
            return at === -1 ? [] : [`(c.note_type_id = ${literal(type.id)} AND ri.ordinal = ${at})`];
          });
          const stock = TEMPLATE_NAMES[name];
          return `(${[...(stock ? [`(${stock})`] : []), ...stockNotes, own].join(' OR ')})`;
        }
        return `((c.type IN ('cloze', 'occlusion') AND ri.ordinal = ${param(node.template)}::int)
          OR (c.type NOT IN ('cloze', 'occlusion') AND ri.ordinal = ${param(node.template - 1)}::int))`;
      case 'state':
        return `(${STATES[node.state].replace('$end', () => dayEnd())})`;
      case 'added':
        return `c.created_at >= ${daysBack(node.days)}`;
      case 'rated':
        return `EXISTS (SELECT 1 FROM review_logs rl WHERE rl.item_id = ri.id AND rl.undone_at IS NULL
          AND NOT rl.preview AND rl.reviewed_at >= ${daysBack(node.days)}${
            node.rating === null ? '' : ` AND rl.rating = ${param(node.rating)}::int`
          })`;
      case 'prop': {
        const column = PROPERTIES[node.property].replace('$start', () => dayStart());
        // New cards have no interval, due day, stability or difficulty to compare, as in Anki.
        const learned = node.property === 'reps' || node.property === 'lapses' ? '' : 'ri.state <> 0 AND ';
        return `(${learned}${column} ${node.comparison === '!=' ? '<>' : node.comparison} ${param(node.value)}::float8)`;
      }
      case 'noteIds':
        return idsSql('c', node.ids);
      case 'cardIds':
        return idsSql('ri', node.ids);
    }
  };

  const idsSql = (table: 'c' | 'ri', ids: string[]) => {
    const numbers = ids.filter((id) => /^\d{1,18}$/.test(id));
    const uuids = ids.filter(isUuid).map((id) => id.toLowerCase());
    const found = [
      ...(numbers.length > 0 ? [`${table}.number = ANY(${param(numbers)}::bigint[])`] : []),
      ...(uuids.length > 0 ? [`${table}.id = ANY(${param(uuids)}::uuid[])`] : []),
    ];
    return found.length > 0 ? `(${found.join(' OR ')})` : 'FALSE';
  };

  if (!search) return { where: 'TRUE', cardWhere: 'TRUE', itemWhere: null, params };
  const parts = search.kind === 'and' ? search.searches : [search];
  const cardParts = parts.filter((part) => !readsItems(part)).map(sql);
  const itemParts = parts.filter(readsItems).map(sql);
  const cardWhere = cardParts.length > 0 ? `(${cardParts.join(' AND ')})` : 'TRUE';
  const itemWhere = itemParts.length > 0 ? `(${itemParts.join(' AND ')})` : null;
  return { where: itemWhere ? `${cardWhere} AND ${itemWhere}` : cardWhere, cardWhere, itemWhere, params };
}
