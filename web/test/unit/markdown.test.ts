// Card sides render as Markdown with math and code, and never as live HTML; a cloze card's deletions render
// as practice asks them, in text, maths and code alike.
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('katex/dist/katex.min.css', () => ({}));
const { featuresLoaded, renderMarkdown } = await import('../../src/lib/markdown.ts');
const { cardSummary, reviewItem } = await import('@engram/contracts/cloze');

/** Inline maths around TeX, `$tex$`. */
const math = (tex: string) => `$${tex}$`;

describe('loading what a card needs', () => {
  it('renders plain Markdown at once and loads maths and highlighting only for a text that has them', async () => {
    expect(featuresLoaded('**plain** text, [a link](https://example.com)')).toBeUndefined();
    const math = featuresLoaded('Euler: $e^{i\\pi}$');
    expect(math).toBeInstanceOf(Promise);
    await math;
    expect(featuresLoaded('Euler: $e^{i\\pi}$')).toBeUndefined();
    const code = featuresLoaded('```ts\nconst x = 1;\n```');
    expect(code).toBeInstanceOf(Promise);
    await code;
    expect(renderMarkdown('```ts\nconst x = 1;\n```')).toContain('hljs-keyword');
  });
});

/** Maths and highlighting loaded, as before any card that needs them shows. */
const loadEverything = () => featuresLoaded('$x$\n\n```js\nx\n```');

describe('rendering a card side', () => {
  beforeAll(loadEverything);

  it('renders Markdown emphasis, lists and links', () => {
    const html = renderMarkdown('**bold** and *it*\n\n- one\n- two\n\n[site](https://example.com)');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">site</a>');
  });

  it('typesets inline and display math with KaTeX', () => {
    const html = renderMarkdown('Euler: $e^{i\\pi} + 1 = 0$\n\n$$\\int_0^1 x\\,dx$$');
    expect(html).toContain('class="katex"');
    expect(html).toContain('katex-display');
  });

  it('highlights code in a fenced block of a known language', () => {
    const html = renderMarkdown('```ts\nconst x: number = 1;\n```');
    expect(html).toContain('hljs-keyword');
  });

  it('shows HTML in a card as text instead of running it', () => {
    const html = renderMarkdown('<img src=x onerror="alert(1)"> <script>alert(2)</script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;');
  });

  it('typesets display math with text after it on the same line, the text on the line below', () => {
    const html = renderMarkdown('$$x^2 + y^2$$ is a circle');
    expect(html).toContain('katex-display');
    expect(html).not.toContain('katex-error');
    expect(html).toContain('is a circle');
    // Inside a code block it stays as written.
    expect(renderMarkdown('```\n$$x$$ text\n```')).toContain('$$x$$ text');
  });

  it('shows a dollar escaped as a dollar, not as maths (Anki’s fields, imported)', () => {
    const html = renderMarkdown('costs \\$5 and \\$10');
    expect(html).toContain('costs $5 and $10');
    expect(html).not.toContain('katex');
  });

  it('keeps a bad formula as readable text instead of failing the card', () => {
    expect(() => renderMarkdown('$\\frac{1}{$')).not.toThrow();
  });

  it('shows an image on another site as a link instead of loading it', () => {
    const html = renderMarkdown('![a pixel](https://tracker.example/p.gif) ![](//cdn.example/x.png)');
    expect(html).not.toContain('<img');
    expect(html).toContain(
      '<a href="https://tracker.example/p.gif" target="_blank" rel="noopener noreferrer">a pixel</a>',
    );
    expect(html).toContain(
      '<a href="//cdn.example/x.png" target="_blank" rel="noopener noreferrer">//cdn.example/x.png</a>',
    );
  });

  it("shows Engram's own images and pictures kept in the card", () => {
    expect(renderMarkdown('![diagram](/api/media/abc)')).toContain('<img src="/api/media/abc" alt="diagram">');
    expect(renderMarkdown('![dot](data:image/png;base64,iVBORw0KGgo=)')).toContain('<img src="data:image/png');
  });
});

/** The text a reader sees of rendered HTML: KaTeX's visible layer (not its MathML copy), tags removed. */
function visibleText(html: string): string {
  return html
    .replace(/<span class="katex-mathml">[\s\S]*?<\/math><\/span>/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\u200b/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('rendering a cloze card as practice asks it', () => {
  beforeAll(loadEverything);

  const energy = `Energy: ${math('{{c1::E=mc^2}}')} and {{c2::Einstein::who}}.`;

  it('hides a deletion inside maths as a boxed question mark, never literal asterisks or braces', () => {
    const html = renderMarkdown(reviewItem('cloze', 1, energy, '').prompt);
    expect(html).toContain('notation="box"');
    expect(html).not.toContain('katex-error');
    expect(visibleText(html)).toBe('Energy: ? and Einstein.');
  });

  it('reveals the asked deletion inside maths boxed, as valid TeX', () => {
    const html = renderMarkdown(reviewItem('cloze', 1, energy, '').answer);
    expect(html).toContain('notation="box"');
    expect(html).not.toContain('katex-error');
    expect(visibleText(html)).not.toMatch(/[*{}$]/);
  });

  it('shows the hint in place of a hidden deletion and marks the answer in bold', () => {
    expect(visibleText(renderMarkdown(reviewItem('cloze', 2, energy, '').prompt))).toContain('and [who].');
    expect(renderMarkdown(reviewItem('cloze', 2, energy, 'Extra').answer)).toContain('<strong>Einstein</strong>');
  });

  it('shows a hint inside maths as text in the box', () => {
    const html = renderMarkdown(reviewItem('cloze', 1, math('{{c1::\\pi::a constant}}'), '').prompt);
    expect(html).not.toContain('katex-error');
    expect(visibleText(html)).toBe('a constant');
  });

  it('renders the card list summary with every deletion revealed and no raw source', () => {
    const { front } = cardSummary('cloze', energy, '');
    const text = visibleText(renderMarkdown(front));
    expect(text).not.toMatch(/\{\{c\d|\$|\*\*/);
    expect(text).toContain('Einstein');
  });

  it('keeps braces of a code block that are no deletion, and hides one that is', () => {
    const card = '```js\nfunction f() {{ return {{c1::42}}; }}\n```';
    const question = visibleText(renderMarkdown(reviewItem('cloze', 1, card, '').prompt));
    expect(question).toContain('function f() {{ return […]; }}');
    expect(visibleText(renderMarkdown(reviewItem('cloze', 1, card, '').answer))).toContain('return 42;');
  });

  it('keeps HTML in a deletion, its hint or the card inert', () => {
    const card = '{{c1::<img src=x onerror=alert(1)>::<script>alert(2)</script>}} <b onclick="x()">b</b>';
    for (const side of Object.values(reviewItem('cloze', 1, card, '<iframe src="https://evil.example">'))) {
      const html = renderMarkdown(side);
      expect(html).not.toMatch(/<(img|script|iframe|b)[\s>]/);
      expect(html).not.toMatch(/<[^>]*\son\w+=/);
    }
  });

  it('never lets a hint in maths run a TeX command that makes a link or HTML', () => {
    const card = `${math('{{c1::x::}\\href{javascript:alert(1)}{y}}}')} $\\href{javascript:alert(2)}{z}$ $\\htmlClass{a}{b}$`;
    for (const side of Object.values(reviewItem('cloze', 1, card, ''))) {
      const html = renderMarkdown(side);
      expect(html).not.toContain('href="javascript');
      expect(html).not.toContain('class="a"');
    }
  });
});

describe('rendering an occlusion card', () => {
  const PICTURE = '/media/0b6b3a58-2f8e-4a53-9e1f-3b1e43d2c0aa/heart.png';
  const FRONT = [
    'The heart',
    '',
    '```occlusion',
    `![Heart](${PICTURE})`,
    '{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.1:label=Left <b>atrium</b>:oi=1}}',
    '{{c2::image-occlusion:ellipse:left=.5:top=.5:rx=.1:ry=.05:oi=1}}',
    '{{c0::image-occlusion:text:left=.05:top=.9:fill=#000000:text=Heart & lungs:scale=1.:fs=.05:oi=1}}',
    '```',
  ].join('\n');
  const masks = (html: string) =>
    [...html.matchAll(/<(rect|ellipse|polygon) [^>]*fill="([^"]+)"/g)].map((m) => [m[1], m[2]]);

  it('masks the asked shape on the question and, as the card hides all, the others in Anki’s colours', () => {
    const html = renderMarkdown(reviewItem('occlusion', 1, FRONT, '').prompt);
    expect(html).toContain('<p>The heart</p>');
    expect(html).toContain(`<img class="occlusion-picture" src="${PICTURE}" alt="Heart">`);
    expect(masks(html)).toEqual([
      ['rect', '#ff8e8e'],
      ['ellipse', '#ffeba2'],
    ]);
    expect(html).toContain('<rect x="100.0" y="200.0" width="300.0" height="100.0"');
    // The text label on every side; the asked shape's label never on its question.
    expect(html).toContain('>Heart &amp; lungs</span>');
    expect(html).not.toContain('atrium');
    expect(html).toContain('<figcaption class="sr-only">');
  });

  it('outlines the asked shape on the answer with its label, the others still masked, the back below', () => {
    const { answer } = reviewItem('occlusion', 1, FRONT, 'Four chambers');
    const html = renderMarkdown(answer);
    expect(masks(html)).toEqual([
      ['rect', 'none'],
      ['ellipse', '#ffeba2'],
    ]);
    expect(html).toContain('>Left &lt;b&gt;atrium&lt;/b&gt;</span>');
    expect(html).toContain('Four chambers');
  });

  it('masks only the asked shape of a card that hides one', () => {
    const html = renderMarkdown(reviewItem('occlusion', 2, FRONT.replaceAll(':oi=1', ''), '').prompt);
    expect(masks(html)).toEqual([['ellipse', '#ff8e8e']]);
  });

  it('outlines every shape in the card list, and never loads a picture from another site', () => {
    expect(masks(renderMarkdown(FRONT)).map(([kind]) => kind)).toEqual(['rect', 'ellipse']);
    const elsewhere = renderMarkdown(FRONT.replace(PICTURE, 'https://tracker.example/pixel.png'));
    expect(elsewhere).not.toContain('tracker.example');
    expect(elsewhere).toContain('<span class="occlusion-missing">Heart</span>');
    expect(renderMarkdown(FRONT.replace(PICTURE, 'javascript:alert(1)'))).not.toContain('javascript');
  });
});
