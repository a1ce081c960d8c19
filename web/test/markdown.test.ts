// Card sides render as Markdown with math and code, and never as live HTML.
import { describe, expect, it, vi } from 'vitest';

vi.mock('katex/dist/katex.min.css', () => ({}));
vi.mock('highlight.js/styles/github.css', () => ({}));
const { renderMarkdown } = await import('../src/lib/markdown.ts');

describe('rendering a card side', () => {
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
