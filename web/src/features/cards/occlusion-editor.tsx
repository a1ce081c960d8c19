// An occlusion card's front, made and edited on its picture (card-fields.tsx shows it for "Image occlusion"): a
// picture chosen, pasted or dropped (kept as a card file like any other), then shapes drawn over it with a mouse,
// a pen or a finger — a rectangle or an ellipse by dragging across the part to hide, a polygon corner by corner —
// each given a label (what it hides) and a question: shapes of one question are asked together. "Hide all, guess
// one" masks every other shape too while one question is asked; "Hide one, guess one" only the asked one. A shape
// chosen moves by dragging or with the arrow keys, and Delete removes it. Moving a shape or relabelling it keeps
// its question's number, so the question keeps its history; a question whose shapes all go is removed with them.
// The front is written in the contracts' occlusion block (@engram/contracts/occlusion), Anki's own format.
import { OCCLUSION_PICTURE_MAX_SIDE } from '@engram/contracts/ai';
import {
  MAX_OCCLUSION_CARDS,
  OCCLUSION_LABEL_MAX_LENGTH,
  type OcclusionShape,
  occlusionBox,
  occlusionFront,
  parseOcclusion,
} from '@engram/contracts/occlusion';
import {
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
  type PointerEvent,
  type Ref,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { FieldError } from '../../components/field-error';
import { TextField } from '../../components/text-field';
import { keepCardFile } from '../../entities/media/upload';
import { toastError } from '../../lib/errors';
import { getLocale, m } from '../../lib/i18n';
import { toast } from '../../lib/toast';
import { trpcClient } from '../../lib/trpc';

type Tool = 'rect' | 'ellipse' | 'polygon' | 'move';
type Point = [number, number];

const TOOLS: { tool: Tool; label: () => string }[] = [
  { tool: 'rect', label: m.occlusion_tool_rect },
  { tool: 'ellipse', label: m.occlusion_tool_ellipse },
  { tool: 'polygon', label: m.occlusion_tool_polygon },
  { tool: 'move', label: m.occlusion_tool_move },
];

const SCALE = 1000;
/** The smallest shape a drag makes, in fractions of the picture (a click is no shape). */
const SMALLEST = 0.01;
/** How near the first corner a polygon's closing tap must be. */
const CLOSING_DISTANCE = 0.03;
/** How far an arrow key moves the chosen shape (Shift: ten times as far). */
const STEP = 0.005;

const clamp = (value: number) => Math.min(Math.max(value, 0), 1);
const at = (fraction: number) => fraction * SCALE;

/** The picture as the proposer reads it: a JPEG at most OCCLUSION_PICTURE_MAX_SIDE pixels across and down. */
async function pictureToPropose(src: string): Promise<Blob> {
  const bitmap = await createImageBitmap(await (await fetch(src)).blob());
  const scale = Math.min(1, OCCLUSION_PICTURE_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('No canvas to read the picture with.');
  // A transparent picture on white, as it shows on a card.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The picture could not be read.'))),
      'image/jpeg',
      0.85,
    ),
  );
}

/** The shape moved by (dx, dy), kept on the picture. */
function moved(shape: OcclusionShape, dx: number, dy: number): OcclusionShape {
  const box = occlusionBox(shape);
  const x = Math.min(Math.max(dx, -box.left), 1 - box.right);
  const y = Math.min(Math.max(dy, -box.top), 1 - box.bottom);
  if (shape.kind === 'polygon') {
    return {
      ...shape,
      points: shape.points.map(([px, py]) => [px + x, py + y]),
      ...(shape.left !== undefined && { left: clamp(shape.left + x) }),
      ...(shape.top !== undefined && { top: clamp(shape.top + y) }),
    };
  }
  return { ...shape, left: shape.left + x, top: shape.top + y };
}

/** A rectangle or an ellipse across the box from `a` to `b`. */
function dragged(kind: 'rect' | 'ellipse', a: Point, b: Point, ordinal: number, hideAll: boolean): OcclusionShape {
  const left = Math.min(a[0], b[0]);
  const top = Math.min(a[1], b[1]);
  const width = Math.abs(a[0] - b[0]);
  const height = Math.abs(a[1] - b[1]);
  return kind === 'rect'
    ? { kind, ordinal, hideAll, left, top, width, height }
    : { kind, ordinal, hideAll, left, top, rx: width / 2, ry: height / 2 };
}

function ShapeOutline({ shape, chosen, index }: { shape: OcclusionShape; chosen: boolean; index?: number }) {
  const paint = {
    'data-shape': index,
    fill: chosen ? '#ff8e8e' : '#ffeba2',
    fillOpacity: 0.75,
    stroke: chosen ? '#b91c1c' : '#212121',
    strokeWidth: chosen ? 3 : 1.5,
    vectorEffect: 'non-scaling-stroke' as const,
  };
  switch (shape.kind) {
    case 'rect':
      return <rect x={at(shape.left)} y={at(shape.top)} width={at(shape.width)} height={at(shape.height)} {...paint} />;
    case 'ellipse':
      return (
        <ellipse
          cx={at(shape.left + shape.rx)}
          cy={at(shape.top + shape.ry)}
          rx={at(shape.rx)}
          ry={at(shape.ry)}
          {...paint}
        />
      );
    case 'polygon':
      return <polygon points={shape.points.map(([x, y]) => `${at(x)},${at(y)}`).join(' ')} {...paint} />;
    case 'text':
      return null;
  }
}

type Props = {
  front: string;
  onChange: (front: string) => void;
  error?: string | undefined;
  headerRef?: Ref<HTMLInputElement & HTMLTextAreaElement> | undefined;
};

export function OcclusionEditor({ front, onChange, error, headerRef }: Props) {
  const parsed = useMemo(() => parseOcclusion(front), [front]);
  // A front without a block yet (a card turned into an occlusion) keeps its text as the header. The header shows as
  // typed (the front keeps it trimmed), unless the front changed otherwise (a form reset).
  const stored = parsed ? [parsed.before, parsed.after].filter(Boolean).join('\n\n') : front;
  const [typed, setTyped] = useState(stored);
  const header = typed.trim() === stored.trim() ? typed : stored;
  const errorId = useId();
  const keysId = useId();
  const picture = parsed?.picture;
  const shapes = parsed?.shapes ?? [];
  const [tool, setTool] = useState<Tool>('rect');
  const [chosen, setChosen] = useState<number | undefined>();
  const [hideAllChoice, setHideAll] = useState(true);
  const hideAll = shapes.some((shape) => shape.ordinal > 0) ? shapes.some((shape) => shape.hideAll) : hideAllChoice;
  const [drag, setDrag] = useState<{ from: Point; to: Point } | undefined>();
  const [moving, setMoving] = useState<{ index: number; from: Point; shape: OcclusionShape } | undefined>();
  const [corners, setCorners] = useState<Point[]>([]);
  const [adding, setAdding] = useState(false);
  const canvas = useRef<SVGSVGElement>(null);
  const chooser = useRef<HTMLInputElement>(null);
  const groups = [...new Set(shapes.filter((s) => s.ordinal > 0).map((s) => s.ordinal))].sort((a, b) => a - b);
  const nextGroup = Math.min((groups.at(-1) ?? 0) + 1, MAX_OCCLUSION_CARDS);

  const write = (next: { header?: string; picture?: typeof picture; shapes?: OcclusionShape[] }) => {
    const nextPicture = next.picture ?? picture;
    const nextHeader = next.header ?? header;
    onChange(
      nextPicture
        ? occlusionFront({ header: nextHeader, picture: nextPicture, shapes: next.shapes ?? shapes })
        : nextHeader,
    );
  };
  const change = (index: number, shape: OcclusionShape) =>
    write({ shapes: shapes.map((each, at) => (at === index ? shape : each)) });
  const add = (shape: OcclusionShape) => {
    write({ shapes: [...shapes, shape] });
    setChosen(shapes.length);
  };
  const remove = (index: number) => {
    write({ shapes: shapes.filter((_, at) => at !== index) });
    setChosen(undefined);
  };

  const [suggesting, setSuggesting] = useState(false);
  /** Asks the generator for shapes over the picture; they join the drawn ones, each its own question, to correct. */
  async function suggest() {
    if (!picture) return;
    setSuggesting(true);
    try {
      const form = new FormData();
      form.set('picture', await pictureToPropose(picture.src), 'picture.jpg');
      form.set('language', getLocale());
      const { shapes: proposed } = await trpcClient.ai.proposeOcclusions.mutate(form);
      let group = nextGroup;
      const added: OcclusionShape[] = proposed.map((shape) => ({
        kind: 'rect',
        ordinal: Math.min(group++, MAX_OCCLUSION_CARDS),
        hideAll,
        left: shape.left,
        top: shape.top,
        width: shape.width,
        height: shape.height,
        ...(shape.label && { label: shape.label }),
      }));
      write({ shapes: [...shapes, ...added] });
      if (added.length === 0) toast.message(m.occlusion_suggested_none());
      else toast.success(m.occlusion_suggested({ count: added.length }));
    } catch (failure) {
      toastError(failure);
    } finally {
      setSuggesting(false);
    }
  }

  async function choose(files: readonly File[]) {
    const file = files.find((each) => each.type.startsWith('image/'));
    if (!file) return;
    setAdding(true);
    try {
      const kept = await keepCardFile(file);
      write({ picture: { alt: kept.name.replace(/\.[^.]+$/, ''), src: kept.path } });
    } catch (failure) {
      toastError(failure);
    } finally {
      setAdding(false);
    }
  }

  /** Where a pointer is on the picture, in fractions of it. */
  const pointOf = (event: PointerEvent<SVGSVGElement>): Point => {
    const box = event.currentTarget.getBoundingClientRect();
    return [clamp((event.clientX - box.left) / box.width), clamp((event.clientY - box.top) / box.height)];
  };

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return;
    const point = pointOf(event);
    const index = Number((event.target as Element).getAttribute('data-shape') ?? Number.NaN);
    if (tool === 'move') {
      if (Number.isNaN(index)) return setChosen(undefined);
      setChosen(index);
      setMoving({ index, from: point, shape: shapes[index]! });
    } else if (tool === 'polygon') {
      const first = corners[0];
      if (first && corners.length >= 3 && Math.hypot(point[0] - first[0], point[1] - first[1]) < CLOSING_DISTANCE) {
        closePolygon();
      } else {
        setCorners([...corners, point]);
      }
      return;
    } else {
      setDrag({ from: point, to: point });
    }
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    if (drag) setDrag({ ...drag, to: pointOf(event) });
    if (moving) {
      const [x, y] = pointOf(event);
      change(moving.index, moved(moving.shape, x - moving.from[0], y - moving.from[1]));
    }
  };
  // Where the finger or the button was let go is where the shape ends: on a busy phone the last moves may not have
  // been drawn yet when the pointer comes up (a cancelled pointer ends where it was last drawn).
  const onPointerUp = (event: PointerEvent<SVGSVGElement>) => {
    const released = event.type === 'pointerup' ? pointOf(event) : undefined;
    if (moving && released) {
      change(moving.index, moved(moving.shape, released[0] - moving.from[0], released[1] - moving.from[1]));
    }
    if (drag && (tool === 'rect' || tool === 'ellipse')) {
      const shape = dragged(tool, drag.from, released ?? drag.to, nextGroup, hideAll);
      const box = occlusionBox(shape);
      if (box.right - box.left >= SMALLEST && box.bottom - box.top >= SMALLEST) add(shape);
    }
    setDrag(undefined);
    setMoving(undefined);
  };
  function closePolygon() {
    if (corners.length >= 3) add({ kind: 'polygon', ordinal: nextGroup, hideAll, points: corners });
    setCorners([]);
  }

  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    if (event.key === 'Escape' && corners.length > 0) {
      event.preventDefault();
      setCorners([]);
      return;
    }
    if (chosen === undefined || !shapes[chosen]) return;
    const step = event.shiftKey ? STEP * 10 : STEP;
    const moves: Record<string, Point> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      change(chosen, moved(shapes[chosen]!, move[0], move[1]));
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      remove(chosen);
    }
  };

  const fileEvents = {
    onPaste: (event: ClipboardEvent) => {
      const files = [...event.clipboardData.files];
      if (files.some((file) => file.type.startsWith('image/'))) {
        event.preventDefault();
        void choose(files);
      }
    },
    onDragOver: (event: DragEvent) => {
      if (event.dataTransfer.types.includes('Files')) event.preventDefault();
    },
    onDrop: (event: DragEvent) => {
      const files = [...event.dataTransfer.files];
      if (files.length === 0) return;
      event.preventDefault();
      void choose(files);
    },
  };

  const drawing = drag && (tool === 'rect' || tool === 'ellipse') ? dragged(tool, drag.from, drag.to, 0, false) : null;
  const groupOptions = [...new Set([...groups, nextGroup])].sort((a, b) => a - b);

  return (
    <div className="space-y-3" {...fileEvents}>
      <TextField
        label={m.occlusion_header()}
        name="front"
        multiline
        rows={2}
        value={header}
        onChange={(value) => {
          setTyped(value);
          write({ header: value });
        }}
        ref={headerRef}
      />
      <div>
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            onClick={() => chooser.current?.click()}
            className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
          >
            {picture ? m.occlusion_change_picture() : m.occlusion_choose_picture()}
          </button>
          <span className="text-xs text-slate-600">{adding ? m.media_adding() : m.occlusion_paste_hint()}</span>
          <input
            ref={chooser}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif,image/svg+xml"
            hidden
            aria-label={m.occlusion_choose_picture()}
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              event.target.value = '';
              void choose(files);
            }}
          />
        </div>
      </div>
      {picture && (
        <>
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">{m.occlusion_tools()}</legend>
            <div className="mt-1.5 flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1">
              {TOOLS.map(({ tool: each, label }) => (
                <label
                  key={each}
                  className={`cursor-pointer rounded-md px-2.5 py-1.5 text-sm font-medium has-focus-visible:outline-2 has-focus-visible:outline-brand-600 ${
                    tool === each ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'
                  }`}
                >
                  <input
                    type="radio"
                    name="occlusion-tool"
                    value={each}
                    checked={tool === each}
                    onChange={() => {
                      setTool(each);
                      setCorners([]);
                    }}
                    className="sr-only"
                  />
                  {label()}
                </label>
              ))}
            </div>
            <p className="mt-1 text-xs text-slate-600">
              {tool === 'polygon'
                ? m.occlusion_polygon_hint()
                : tool === 'move'
                  ? m.occlusion_move_hint()
                  : m.occlusion_draw_hint()}
            </p>
          </fieldset>
          <div className="relative inline-block max-w-full align-top leading-none">
            <img
              src={picture.src}
              alt={picture.alt}
              className="block h-auto max-w-full select-none"
              draggable={false}
            />
            <svg
              ref={canvas}
              role="application"
              aria-label={m.occlusion_canvas()}
              aria-describedby={keysId}
              // biome-ignore lint/a11y/noNoninteractiveTabindex: the drawing surface takes the keys that move a chosen shape
              tabIndex={0}
              viewBox={`0 0 ${SCALE} ${SCALE}`}
              preserveAspectRatio="none"
              data-testid="occlusion-canvas"
              className={`absolute inset-0 size-full touch-none focus-visible:outline-2 focus-visible:outline-brand-600 ${
                tool === 'move' ? 'cursor-move' : 'cursor-crosshair'
              }`}
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              onPointerCancel={onPointerUp}
              onKeyDown={onKeyDown}
            >
              {shapes.map((shape, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: shapes have no id of their own; their place is it
                <g key={index} data-card={shape.ordinal}>
                  <ShapeOutline shape={shape} index={index} chosen={index === chosen} />
                </g>
              ))}
              {drawing && <ShapeOutline shape={drawing} chosen />}
              {corners.length > 0 && (
                <polyline
                  points={corners.map(([x, y]) => `${at(x)},${at(y)}`).join(' ')}
                  fill="none"
                  stroke="#b91c1c"
                  strokeWidth={2}
                  vectorEffect="non-scaling-stroke"
                />
              )}
            </svg>
            {shapes.map((shape, index) =>
              shape.ordinal > 0 ? (
                <span
                  // biome-ignore lint/suspicious/noArrayIndexKey: as above
                  key={index}
                  aria-hidden="true"
                  className="pointer-events-none absolute rounded bg-white/90 px-1 text-xs font-semibold text-slate-900"
                  style={{ left: `${occlusionBox(shape).left * 100}%`, top: `${occlusionBox(shape).top * 100}%` }}
                >
                  {shape.ordinal}
                </span>
              ) : null,
            )}
          </div>
          <p id={keysId} className="text-xs text-slate-600">
            {m.occlusion_keys_hint()}
          </p>
          {corners.length >= 3 && (
            <button
              type="button"
              onClick={closePolygon}
              className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700"
            >
              {m.occlusion_finish_polygon()}
            </button>
          )}
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">{m.occlusion_mode()}</legend>
            <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-800">
              {[true, false].map((all) => (
                <label key={String(all)} className="flex items-center gap-1.5">
                  <input
                    type="radio"
                    name="occlusion-mode"
                    checked={hideAll === all}
                    onChange={() => {
                      setHideAll(all);
                      write({ shapes: shapes.map((shape) => ({ ...shape, hideAll: all })) });
                    }}
                  />
                  {all ? m.occlusion_hide_all() : m.occlusion_hide_one()}
                </label>
              ))}
            </div>
          </fieldset>
          <button
            type="button"
            onClick={() => void suggest()}
            disabled={suggesting}
            className="rounded-md border border-brand-600 px-3 py-1.5 text-sm font-medium text-brand-700 hover:bg-brand-50 disabled:opacity-60"
          >
            {suggesting ? m.occlusion_suggesting() : m.occlusion_suggest()}
          </button>
          <ShapeList
            shapes={shapes}
            chosen={chosen}
            groupOptions={groupOptions}
            onChoose={setChosen}
            onChange={change}
            onRemove={remove}
          />
        </>
      )}
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
}

type ShapeListProps = {
  shapes: OcclusionShape[];
  chosen: number | undefined;
  groupOptions: number[];
  onChoose: (index: number) => void;
  onChange: (index: number, shape: OcclusionShape) => void;
  onRemove: (index: number) => void;
};

/** Each shape's question, label and removal, in words: what the drawing shows, for any keyboard or screen reader. */
function ShapeList({ shapes, chosen, groupOptions, onChoose, onChange, onRemove }: ShapeListProps) {
  if (shapes.length === 0) return <p className="text-sm text-slate-600">{m.occlusion_no_shapes()}</p>;
  return (
    <ol className="space-y-2" aria-label={m.occlusion_shapes()}>
      {shapes.map((shape, index) => {
        const n = index + 1;
        const kind = {
          rect: m.occlusion_tool_rect,
          ellipse: m.occlusion_tool_ellipse,
          polygon: m.occlusion_tool_polygon,
          text: m.occlusion_text,
        }[shape.kind]();
        return (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: shapes have no id of their own; their place is it
            key={index}
            className={`flex flex-wrap items-center gap-2 rounded-md border p-2 ${
              index === chosen ? 'border-red-600 bg-red-50' : 'border-slate-200'
            }`}
          >
            <button
              type="button"
              onClick={() => onChoose(index)}
              aria-pressed={index === chosen}
              className="text-sm font-medium text-slate-800 underline-offset-2 hover:underline"
            >
              {m.occlusion_shape_name({ n, kind })}
            </button>
            {shape.kind === 'text' ? (
              <span className="text-sm text-slate-700">{shape.text}</span>
            ) : (
              <>
                <select
                  aria-label={m.occlusion_shape_question({ n })}
                  value={shape.ordinal}
                  onChange={(event) => onChange(index, { ...shape, ordinal: Number(event.target.value) })}
                  className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
                >
                  {groupOptions.map((group) => (
                    <option key={group} value={group}>
                      {m.occlusion_question_number({ n: group })}
                    </option>
                  ))}
                </select>
                <input
                  type="text"
                  aria-label={m.occlusion_shape_label({ n })}
                  placeholder={m.occlusion_label_placeholder()}
                  maxLength={OCCLUSION_LABEL_MAX_LENGTH}
                  value={shape.label ?? ''}
                  onChange={(event) => onChange(index, { ...shape, label: event.target.value || undefined })}
                  className="min-w-32 flex-1 rounded-md border border-slate-300 px-2 py-1 text-sm"
                />
              </>
            )}
            <button
              type="button"
              onClick={() => onRemove(index)}
              aria-label={m.occlusion_shape_remove({ n })}
              className="rounded-md px-2 py-1 text-sm text-red-700 hover:bg-red-50"
            >
              ✕
            </button>
          </li>
        );
      })}
    </ol>
  );
}
