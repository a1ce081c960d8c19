// A card's Markdown as the line of text a person reads of it: links by their words, cloze deletions by their
// answers, maths without its dollars, emphasis, code marks, HTML tags, escapes and block marks (headings, quotes,
// list items) left out, line breaks as spaces. Pictures and sounds are named ("[alt]", "[•]", the sound link's
// word) where the text stands for the card (Browse), or left out where it is what the learner types (a typed
// answer, as Anki strips a field's HTML and media before comparing).
export function markdownText(markdown: string, { media }: { media: 'named' | 'left out' }): string {
  const leftOut = media === 'left out';
  return (
    markdown
      // An occlusion's shapes read as their labels; fence lines (an occlusion's, code's) as nothing.
      .replace(/\{\{c\d+::image-occlusion:[^\n]*?\}\}/g, (shape) =>
        (/:label=((?:\\:|[^:}])*)/.exec(shape)?.[1] ?? '').replaceAll('\\:', ':'),
      )
      .replace(/^ {0,3}(?:`{3,}|~{3,}).*$/gm, '')
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, (_, alt: string) => (leftOut ? ' ' : alt ? `[${alt}]` : '[•]'))
      .replace(/\[sound\]\([^)]*\)/g, leftOut ? ' ' : 'sound')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\{\{c\d+::([^}]*?)(?:::[^}]*)?\}\}/g, '$1')
      .replace(/<[^>]*>/g, '')
      .replace(/^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, '')
      .replace(/\\([\\`*_{}[\]()#+\-.!~|$])/g, '$1')
      .replace(/(\$\$?|\*\*|__|\*|_|~~|`)(?=\S)([\s\S]*?\S)\1/g, '$2')
      .replace(/\s+/g, ' ')
      .trim()
  );
}
