// Reads the cards out of a tool call's JSON while it is still arriving ({"cards":[{…},{…},…]}): each
// card object is handed out as soon as its closing brace arrives, so the learner sees it at once. A card
// that is not valid JSON is handed out as `malformed`, to be counted and dropped.
export const MALFORMED = Symbol('malformed');

export class CardStreamParser {
  #text = '';
  #scanned = 0;
  #stack: string[] = [];
  #inString = false;
  #escaped = false;
  #cardStart = -1;

  /** Adds a piece of the tool input; returns the cards it completed. */
  push(piece: string): unknown[] {
    this.#text += piece;
    const cards: unknown[] = [];
    for (; this.#scanned < this.#text.length; this.#scanned++) {
      const char = this.#text[this.#scanned];
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (char === '\\') this.#escaped = true;
        else if (char === '"') this.#inString = false;
        continue;
      }
      if (char === '"') this.#inString = true;
      else if (char === '{' || char === '[') {
        // A card is an object directly inside the array directly inside the root object.
        if (char === '{' && this.#stack.join('') === '{[') this.#cardStart = this.#scanned;
        this.#stack.push(char);
      } else if (char === '}' || char === ']') {
        this.#stack.pop();
        if (char === '}' && this.#cardStart >= 0 && this.#stack.join('') === '{[') {
          cards.push(parseCard(this.#text.slice(this.#cardStart, this.#scanned + 1)));
          this.#cardStart = -1;
        }
      }
    }
    return cards;
  }
}

function parseCard(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return MALFORMED;
  }
}
